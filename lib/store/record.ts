/**
 * The end of one distillation, written in ONE transaction: the raw and delivered traces
 * (for `omni diff`), the run row (for `omni stats`), the ledger's delivery row, and for a file
 * read, the view of it the reader now holds.
 * One commit means one write-lock acquisition per hook instead of three, which is what
 * matters when the host runs hooks for parallel tool calls at once.
 */
import type { Store } from './open.js';
import { putBlob, ARCHIVE_BLOB_CAP } from './archive.js';
import { recordRun, type RunRow } from './stats.js';
import { recordDelivered, type ReaderScope } from './ledger.js';
import { recordHeldView, type FileViewRow } from './file-views.js';

export interface Distillation {
  run: Omit<RunRow, 'rawHandle' | 'deliveredHandle'> & { rawHandle?: string | null };
  /** The raw input, archived as a 7-day trace unless `run.rawHandle` is already known. */
  raw?: Uint8Array;
  /** What the reader received (kept as a 7-day trace for `omni diff`). */
  delivered?: Uint8Array;
  /** The ledger stage's `delivered()` / `consumed()`, when the ledger ran. */
  ledger?: ReaderScope & { hashes: Uint8Array; consumed?: Iterable<string> };
  /** What the reader now holds of a file it read: its content is archived and the view recorded. */
  fileView?: Omit<FileViewRow, 'handle' | 'at'> & { content: Uint8Array };
  now?: number;
}

/** Returns the handles of the traces written (null when absent or over the archive cap). */
export function recordDistillation(store: Store, d: Distillation): { rawHandle: string | null; deliveredHandle: string | null } {
  const now = d.now ?? Date.now();
  const trace = (b?: Uint8Array) => (b && b.byteLength <= ARCHIVE_BLOB_CAP ? putBlob(store, b, { kind: 'raw', now }) : null);
  return store.db.transaction(() => {
    const rawHandle = d.run.rawHandle ?? trace(d.raw);
    const deliveredHandle = trace(d.delivered);
    recordRun(store, { ...d.run, at: d.run.at ?? now, rawHandle, deliveredHandle });
    if (d.ledger) recordDelivered(store, { ...d.ledger, now });
    if (d.fileView) recordHeldView(store, { ...d.fileView, at: now });
    return { rawHandle, deliveredHandle };
  })();
}
