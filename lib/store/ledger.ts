/**
 * The ledger: which lines each reader was already shown.
 *
 * Reader scope = (session_id, agent_id or "main"): a subagent shares its parent's
 * session_id, so the agent is part of the key. Project scope = cwd.
 *
 * One row per line makes inserts cost seconds, so each delivery is ONE row
 * holding a packed blob of 64-bit line hashes (linehash.ts). Loading is bounded: the newest
 * rows only, merged into bounded sorted sets (SortedHashSet).
 */
import type { Store } from './open.js';
import { SortedHashSet, SHOWN_SET_CAP, type HashLookup } from './linehash.js';

/** Newest delivery rows read for this reader's own set. */
export const SESSION_ROWS_CAP = 2000;
/** Newest delivery rows of other sessions of the same project read for the project set. */
export const PROJECT_ROWS_CAP = 200;
/** Most hashes in the project set (it only feeds the higher-bar "not shown here" fold). */
export const PROJECT_SET_CAP = 1 << 14;
/** Other sessions' deliveries older than this do not count (working-data retention). */
export const PROJECT_WINDOW_MS = 30 * 24 * 3600 * 1000;
/** A retrieval makes the next matching payload verbatim if it happened within this window. */
export const RETRIEVAL_WINDOW_MS = 24 * 3600 * 1000;
/** Most unconsumed retrievals considered. */
export const RETRIEVALS_CAP = 64;

export interface ReaderScope {
  sessionId: string;
  /** Absent in the main conversation: stored as "main". */
  agentId?: string;
  cwd: string;
}

export interface Shown {
  /** Lines this reader (session/agent) was delivered since its last reset (newest SHOWN_SET_CAP). */
  session: HashLookup;
  /** Lines other sessions of the same cwd were delivered (recent rows only). */
  project: HashLookup;
  /** Archive handles pulled with `omni retrieve` recently and not yet delivered verbatim. */
  retrieved: Set<string>;
}

export const MAIN_AGENT = 'main';

function agentOf(s: { agentId?: string }): string {
  return s.agentId && s.agentId.length > 0 ? s.agentId : MAIN_AGENT;
}

/**
 * Records one delivery: `hashes` is a packed blob (8 bytes per line, see `packHashes`) of
 * the lines that reached the reader. `consumed` lists retrieval handles that were just
 * delivered verbatim (their "once" is used up). One INSERT; nothing when there is nothing.
 */
export function recordDelivered(
  store: Store,
  scope: ReaderScope & { hashes: Uint8Array; consumed?: Iterable<string>; now?: number },
): void {
  const now = scope.now ?? Date.now();
  const n = Math.floor(scope.hashes.byteLength / 8);
  const consumed = scope.consumed ? [...scope.consumed] : [];
  if (n === 0 && consumed.length === 0) return;
  const write = store.db.transaction(() => {
    if (n > 0) {
      store
        .stmt('INSERT INTO deliveries(session, agent, cwd, at, n, hashes) VALUES (?, ?, ?, ?, ?, ?)')
        .run(scope.sessionId, agentOf(scope), scope.cwd, now, n, Buffer.from(scope.hashes.buffer, scope.hashes.byteOffset, n * 8));
    }
    for (const h of consumed) store.stmt('UPDATE retrievals SET consumed = 1 WHERE handle = ? AND consumed = 0').run(h);
  });
  write();
}

/** What this reader and the rest of its project were shown. Indexed reads only. */
export function loadShown(store: Store, scope: ReaderScope & { now?: number }): Shown {
  const now = scope.now ?? Date.now();
  const reset = store.stmt('SELECT upto FROM resets WHERE session = ?').get(scope.sessionId) as { upto: number } | undefined;
  // Newest first, stopping once the cap is reached (iterate: rows past it are never read).
  const own: Buffer[] = [];
  let total = 0;
  for (const r of store
    .stmt('SELECT n, hashes FROM deliveries WHERE session = ? AND agent = ? AND id > ? ORDER BY id DESC LIMIT ?')
    .iterate(scope.sessionId, agentOf(scope), reset?.upto ?? 0, SESSION_ROWS_CAP) as IterableIterator<{ n: number; hashes: Buffer }>) {
    own.push(r.hashes);
    total += r.n;
    if (total >= SHOWN_SET_CAP) break;
  }
  const session = new SortedHashSet(own, SHOWN_SET_CAP);

  const others: Buffer[] = [];
  let ototal = 0;
  for (const r of store
    .stmt('SELECT n, hashes FROM deliveries WHERE cwd = ? AND session <> ? AND at > ? ORDER BY id DESC LIMIT ?')
    .iterate(scope.cwd, scope.sessionId, now - PROJECT_WINDOW_MS, PROJECT_ROWS_CAP) as IterableIterator<{ n: number; hashes: Buffer }>) {
    others.push(r.hashes);
    ototal += r.n;
    if (ototal >= PROJECT_SET_CAP) break;
  }
  const project = new SortedHashSet(others, PROJECT_SET_CAP);

  const rows = store
    .stmt('SELECT handle FROM retrievals WHERE at > ? AND consumed = 0 ORDER BY id DESC LIMIT ?')
    .all(now - RETRIEVAL_WINDOW_MS, RETRIEVALS_CAP) as { handle: string }[];
  return { session, project, retrieved: new Set(rows.map((r) => r.handle)) };
}

/**
 * Forgets what every agent of `sessionId` was shown (PreCompact, SessionStart compact or
 * clear: the agent no longer holds those bytes). For lines, O(1): records a reset point; the
 * rows stay for the project scope of other sessions and are pruned by age. The session's file
 * views (lib/store/file-views.ts) serve no other session: they go.
 */
export function forgetSession(store: Store, sessionId: string, now: number = Date.now()): void {
  const max = store.stmt('SELECT max(id) AS m FROM deliveries').get() as { m: number | null };
  store.db.transaction(() => {
    store
      .stmt('INSERT INTO resets(session, upto, at) VALUES (?, ?, ?) ON CONFLICT(session) DO UPDATE SET upto = excluded.upto, at = excluded.at')
      .run(sessionId, max.m ?? 0, now);
    store.stmt('DELETE FROM file_views WHERE session = ?').run(sessionId);
  })();
}
