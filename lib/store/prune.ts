/**
 * Retention: 30 days for working data (deliveries, file views, runs, costs, retrievals, resets, hot files,
 * errors, sessions, 'fold' blobs), 7 days for raw traces ('raw' blobs: whole-run copies).
 * Facts and the pinned goal are kept until the user forgets them.
 *
 * Bounded in time: rows go in LIMITed batches, and pruning stops once `budgetMs` is spent,
 * so it can run at the end of a hook (`PRUNE_HOOK_BUDGET_MS`) and catch up over later runs.
 */
import { monotonicMs } from '../base/clock.js';
import type { Store } from './open.js';

export const DAY_MS = 24 * 3600 * 1000;
export const WORKING_RETENTION_MS = 30 * DAY_MS;
export const RAW_RETENTION_MS = 7 * DAY_MS;
/** Rows deleted per statement: small enough that one batch holds the write lock ~1 ms. */
export const PRUNE_BATCH = 200;
/** What a hook may spend on pruning (SessionEnd / the end of a post-hook). */
export const PRUNE_HOOK_BUDGET_MS = 20;

export interface PruneResult {
  deleted: number;
  /** False when the budget ran out before everything old was gone. */
  complete: boolean;
  ms: number;
}

export function prune(store: Store, a: { now?: number; budgetMs?: number; clock?: () => number } = {}): PruneResult {
  const now = a.now ?? Date.now();
  const budget = a.budgetMs ?? PRUNE_HOOK_BUDGET_MS;
  // The budget's clock; a test passes its own so that stopping on time needs no real timing.
  const clock = a.clock ?? (() => monotonicMs());
  const t0 = clock();
  const work = now - WORKING_RETENTION_MS;
  const raw = now - RAW_RETENTION_MS;
  // Each statement deletes at most PRUNE_BATCH rows picked through an index.
  const steps: Array<[string, number]> = [
    ['DELETE FROM blobs WHERE rowid IN (SELECT rowid FROM blobs WHERE used < ? AND kind = \'raw\' LIMIT ' + PRUNE_BATCH + ')', raw],
    ['DELETE FROM blobs WHERE rowid IN (SELECT rowid FROM blobs WHERE used < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM file_views WHERE id IN (SELECT id FROM file_views WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM runs WHERE id IN (SELECT id FROM runs WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM costs WHERE id IN (SELECT id FROM costs WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM retrievals WHERE id IN (SELECT id FROM retrievals WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM resets WHERE rowid IN (SELECT rowid FROM resets WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM hot_files WHERE rowid IN (SELECT rowid FROM hot_files WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM errors WHERE rowid IN (SELECT rowid FROM errors WHERE at < ? LIMIT ' + PRUNE_BATCH + ')', work],
    ['DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE coalesce(ended, started) < ? LIMIT ' + PRUNE_BATCH + ')', work],
  ];
  let deleted = 0;
  for (const [sql, cutoff] of steps) {
    for (;;) {
      const elapsed = clock() - t0;
      if (elapsed >= budget) return { deleted, complete: false, ms: elapsed };
      const n = store.stmt(sql).run(cutoff).changes;
      deleted += n;
      if (n < PRUNE_BATCH) break;
    }
  }
  return { deleted, complete: true, ms: clock() - t0 };
}
