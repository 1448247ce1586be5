/**
 * The archive: content-addressed blobs, the receipts for every byte omni removes.
 *
 * handle = first 16 hex chars of SHA-256 of the exact bytes, so identical content is stored
 * once and renders the same marker. Blobs are binary-safe (stored as SQLite BLOBs).
 */
import { sha256Hex } from '../base/sha256.js';
import type { Store } from './open.js';

/**
 * The largest block archived whole. Bigger blocks are not archived (`putBlob` throws
 * `BlobTooLarge`); the caller prints them verbatim or says in its marker that the cap
 * applied. 64 MiB keeps one hook's write under ~100 ms on this machine's disk.
 */
export const ARCHIVE_BLOB_CAP = 64 * 1024 * 1024;

export type BlobKind = 'fold' | 'raw';

export class BlobTooLarge extends Error {
  readonly size: number;
  constructor(size: number) {
    super(`block of ${size} bytes is over the archive cap of ${ARCHIVE_BLOB_CAP} bytes`);
    this.name = 'BlobTooLarge';
    this.size = size;
  }
}

/** The handle `putBlob` would return for `data`; no store needed. */
export function handleOf(data: Uint8Array): string {
  return sha256Hex(data).slice(0, 16);
}

/** A handle: exactly 16 lower-case hex characters. */
export function isHandle(s: string): boolean {
  return /^[0-9a-f]{16}$/.test(s);
}

/**
 * A blob is written in pieces of at most this many bytes. SQLite copies a bound value and then
 * builds the row's record from it, so one row holding a run's 8 MiB head would cost the process
 * two more copies of it at once: the peak RSS of a long `omni pipe` was that final write.
 */
export const BLOB_PART_BYTES = 1 << 20;

/**
 * Stores `data` (unless already there) and returns its handle. `kind: 'raw'` marks a whole
 * run's trace (kept 7 days); `'fold'` a marker's hidden lines (kept 30 days). Content put as
 * both is kept as 'fold'. Throws `BlobTooLarge` over `ARCHIVE_BLOB_CAP`, or the SQLite error.
 * Past `BLOB_PART_BYTES`, `blobs.data` takes the first piece and `blob_parts` the rest.
 */
export function putBlob(store: Store, data: Uint8Array, opts: { kind?: BlobKind; now?: number } = {}): string {
  if (data.byteLength > ARCHIVE_BLOB_CAP) throw new BlobTooLarge(data.byteLength);
  const handle = handleOf(data);
  const now = opts.now ?? Date.now();
  const kind = opts.kind ?? 'fold';
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length <= BLOB_PART_BYTES) {
    upsertBlob(store, handle, bytes, bytes.length, kind, now);
    return handle;
  }
  store.db.transaction(() => {
    // Content already stored (whole, by an older omni, or in pieces) only has its clock refreshed.
    const known = store.stmt('SELECT 1 FROM blobs WHERE handle = ?').get(handle) !== undefined;
    upsertBlob(store, handle, bytes.subarray(0, BLOB_PART_BYTES), bytes.length, kind, now);
    if (known) return;
    const part = store.stmt('INSERT INTO blob_parts(handle, seq, data) VALUES (?, ?, ?)');
    for (let at = BLOB_PART_BYTES, seq = 1; at < bytes.length; at += BLOB_PART_BYTES, seq++) {
      part.run(handle, seq, bytes.subarray(at, at + BLOB_PART_BYTES));
    }
  })();
  return handle;
}

/** The blob's row; `data` is the whole content or, for a blob in pieces, its first piece. */
function upsertBlob(store: Store, handle: string, data: Buffer, size: number, kind: BlobKind, now: number): void {
  store
    .stmt(
      `INSERT INTO blobs(handle, data, size, kind, created, used) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(handle) DO UPDATE SET used = excluded.used,
         kind = CASE WHEN blobs.kind = 'fold' OR excluded.kind = 'fold' THEN 'fold' ELSE 'raw' END`,
    )
    .run(handle, data, size, kind, now, now);
}

/**
 * The exact bytes stored under `handle`, or null when unknown. A blob in pieces whose pieces do
 * not add up to its size reads as unknown: never bytes other than the ones stored.
 */
export function getBlob(store: Store, handle: string): Buffer | null {
  if (!isHandle(handle)) return null;
  const row = store.stmt('SELECT data, size FROM blobs WHERE handle = ?').get(handle) as { data: Buffer; size: number } | undefined;
  if (!row) return null;
  if (row.data.length === row.size) return row.data;
  const parts = store.stmt('SELECT data FROM blob_parts WHERE handle = ? ORDER BY seq').all(handle) as Array<{ data: Buffer }>;
  const all = [row.data, ...parts.map((p) => p.data)];
  const total = all.reduce((n, b) => n + b.length, 0);
  return total === row.size ? Buffer.concat(all, total) : null;
}

/**
 * Records that a reader pulled `handle` with `omni retrieve`: the next payload containing
 * that run is delivered verbatim once (see `loadShown().retrieved`). Also refreshes the
 * blob's retention clock.
 */
export function recordRetrieval(store: Store, handle: string, now: number = Date.now()): void {
  store.stmt('INSERT INTO retrievals(handle, at) VALUES (?, ?)').run(handle, now);
  store.stmt('UPDATE blobs SET used = ? WHERE handle = ?').run(now, handle);
}
