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
 * Stores `data` (unless already there) and returns its handle. `kind: 'raw'` marks a whole
 * run's trace (kept 7 days); `'fold'` a marker's hidden lines (kept 30 days). Content put as
 * both is kept as 'fold'. Throws `BlobTooLarge` over `ARCHIVE_BLOB_CAP`, or the SQLite error.
 */
export function putBlob(store: Store, data: Uint8Array, opts: { kind?: BlobKind; now?: number } = {}): string {
  if (data.byteLength > ARCHIVE_BLOB_CAP) throw new BlobTooLarge(data.byteLength);
  const handle = handleOf(data);
  const now = opts.now ?? Date.now();
  store
    .stmt(
      `INSERT INTO blobs(handle, data, size, kind, created, used) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(handle) DO UPDATE SET used = excluded.used,
         kind = CASE WHEN blobs.kind = 'fold' OR excluded.kind = 'fold' THEN 'fold' ELSE 'raw' END`,
    )
    .run(handle, Buffer.from(data.buffer, data.byteOffset, data.byteLength), data.byteLength, opts.kind ?? 'fold', now, now);
  return handle;
}

/** The exact bytes stored under `handle`, or null when unknown. */
export function getBlob(store: Store, handle: string): Buffer | null {
  if (!isHandle(handle)) return null;
  const row = store.stmt('SELECT data FROM blobs WHERE handle = ?').get(handle) as { data: Buffer } | undefined;
  return row ? row.data : null;
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
