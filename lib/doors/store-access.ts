import type { Archive } from '../pipeline/types.js';
import type { Store } from '../store/open.js';
import { openStore } from '../store/open.js';
import { putBlob } from '../store/archive.js';
import { logDiagnostic } from './diagnostics.js';

/**
 * The store, opened on first use: a run that removes nothing never pays the ~24 ms that
 * opening SQLite costs. A store that cannot open is reported once to the log and then
 * treated as absent, so nothing is archived and every marker expands to its raw lines.
 */
export class LazyStore {
  private store: Store | null = null;
  private failed = false;
  constructor(private readonly home?: string) {}

  get(): Store | null {
    if (this.store || this.failed) return this.store;
    try {
      this.store = openStore(this.home ? { home: this.home } : {});
    } catch (err) {
      this.failed = true;
      logDiagnostic('store', err);
    }
    return this.store;
  }

  /** An Archive over this store: null (nothing archived) when the write fails. */
  archive(kind: 'fold' | 'raw' = 'fold'): Archive {
    const putMany = (data: Buffer[]): Array<string | null> => {
      const s = this.get();
      if (!s) return data.map(() => null);
      try {
        return s.db.transaction(() => data.map((d) => putBlob(s, d, { kind })))();
      } catch (err) {
        // One bad block (over the cap) must not cost the others their receipts.
        logDiagnostic('archive', err);
        return data.map((d) => {
          try { return putBlob(s, d, { kind }); } catch { return null; }
        });
      }
    };
    return { put: (data: Buffer) => putMany([data])[0], putMany };
  }

  close(): void {
    // A door's process ends right after its run. Closing the last connection checkpoints
    // the WAL with an fsync (~17 ms measured on the hook path), so a short-lived door skips
    // it: committed transactions are already in the WAL, SQLite replays it on the next open,
    // and the auto-checkpoint folds it in later. OMNI_STORE_CLOSE=1 closes for real.
    if (process.env.OMNI_STORE_CLOSE !== '1' && process.env.OMNI_BUNDLED === '1') { this.store = null; return; }
    try { this.store?.close(); } catch { /* closing is best effort */ }
    this.store = null;
  }
}
