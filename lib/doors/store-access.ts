import type { Archive } from '../kit/types.js';
import type { Store } from '../store/open.js';
import { openStore, lockBudget, BUSY_TIMEOUT_MS } from '../store/open.js';
import { putBlob, ARCHIVE_BLOB_CAP } from '../store/archive.js';
import { logDiagnostic } from '../store/diagnostics.js';
import type { LockBudget } from '../store/open.js';

/** A store connection held by a long-lived process, lent to one call with that call's budget. */
export interface SharedStore {
  get(): Store | null;
  readonly budget: LockBudget;
}

/**
 * SQLite's page cache for a streaming door (pipe, exec). better-sqlite3 builds SQLite with a
 * 16 MB one, and a long stream's archive writes fill it with blob pages the process never reads
 * again: memory that grows with the stream up to that cap (a run's 8 MiB head alone took 8 MiB
 * more at its end). What a write does read again (the handles' index) fits in this.
 */
export const STREAM_CACHE_KIB = 2048;

/**
 * The store, opened on first use: a run that removes nothing never pays the ~24 ms that
 * opening SQLite costs. A store that cannot open is reported once to the log and then
 * treated as absent, so nothing is archived and every marker expands to its raw lines.
 */
export class LazyStore {
  private store: Store | null = null;
  private failed = false;
  /** The call's lock budget (shared with every store this call opens), and its counts at the start. */
  private readonly budget: LockBudget;
  private readonly waitsBefore: number;
  private readonly refusedBefore: number;
  /**
   * `shared`: a connection someone else owns (the warm MCP server's, ./warm-store.ts) and the
   * budget of this one call; `close()` then leaves the connection open.
   */
  constructor(private readonly home?: string, private readonly shared?: SharedStore, private readonly cacheKiB?: number) {
    this.budget = shared?.budget ?? lockBudget(BUSY_TIMEOUT_MS);
    this.waitsBefore = this.budget.waits;
    this.refusedBefore = this.budget.refused;
  }

  get(): Store | null {
    if (this.shared) return this.shared.get();
    if (this.store || this.failed) return this.store;
    try {
      this.store = openStore({ ...(this.home ? { home: this.home } : {}), ...(this.cacheKiB !== undefined ? { cacheKiB: this.cacheKiB } : {}) });
    } catch (err) {
      this.failed = true;
      logDiagnostic('store', err, this.logEnv());
    }
    return this.store;
  }

  /**
   * An Archive over this store: null (nothing archived) when the write fails. One transaction
   * for the batch; a block over the cap is left out of it up front, so a failure is the
   * store's (locked, read-only, full) and retrying block by block would only wait again.
   */
  archive(kind: 'fold' | 'raw' = 'fold'): Archive {
    const putMany = (data: Buffer[]): Array<string | null> => {
      const s = this.get();
      if (!s) return data.map(() => null);
      try {
        return s.db.transaction(() => data.map((d) => (d.byteLength > ARCHIVE_BLOB_CAP ? null : putBlob(s, d, { kind }))))();
      } catch (err) {
        logDiagnostic('archive', err, this.logEnv());
        return data.map(() => null);
      }
    };
    return { put: (data: Buffer) => putMany([data])[0], putMany };
  }

  close(): void {
    this.reportLock();
    if (this.shared) return;
    // A door's process ends right after its run. Closing the last connection checkpoints
    // the WAL with an fsync (~17 ms measured on the hook path), so a short-lived door skips
    // it: committed transactions are already in the WAL, SQLite replays it on the next open,
    // and the auto-checkpoint folds it in later. OMNI_STORE_CLOSE=1 closes for real.
    if (process.env.OMNI_STORE_CLOSE !== '1' && process.env.OMNI_BUNDLED === '1') { this.store = null; return; }
    try { this.store?.close(); } catch { /* closing is best effort */ }
    this.store = null;
  }

  /** One log line when this call met a held store: how many statements waited, how many were refused. */
  private reportLock(): void {
    const waits = this.budget.waits - this.waitsBefore;
    const refused = this.budget.refused - this.refusedBefore;
    if (waits === 0 && refused === 0) return;
    logDiagnostic('store', `store lock: ${waits} wait${waits === 1 ? '' : 's'} of up to ${this.budget.ms} ms, ${refused} refused without waiting (another process holds the store)`, this.logEnv());
  }

  /** A store's faults are logged beside it: a store opened at a home of its own logs there. */
  private logEnv(): NodeJS.ProcessEnv {
    return this.home ? { ...process.env, OMNI_HOME: this.home } : process.env;
  }
}
