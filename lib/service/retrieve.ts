/**
 * Retrieve: the exact archived bytes behind a marker's handle. Data only; `omni retrieve` and
 * `omni_retrieve` each say it their own way.
 */
import { getBlob, isHandle, recordRetrieval } from '../store/archive.js';
import type { Store } from '../store/open.js';

/** A handle as a reader copies it (maybe with the marker's closing bracket), or null. */
export function parseHandle(arg: string): string | null {
  const handle = arg.trim().replace(/\]$/, '').toLowerCase();
  return isHandle(handle) ? handle : null;
}

export const unknownHandle = (handle: string): string =>
  `no archived block has handle ${handle} (unknown, or older than the retention period: 30 days, 7 for raw traces)`;

/**
 * The bytes `handle` stands for, or null when nobody archived it (or it was pruned). A
 * successful retrieve is recorded so the next payload containing that run is delivered
 * verbatim once.
 */
export function retrieve(store: Store, handle: string): Buffer | null {
  const data = getBlob(store, handle);
  if (!data) return null;
  try {
    recordRetrieval(store, handle);
  } catch {
    // The bytes matter more than the bookkeeping: a locked store still retrieves.
  }
  return data;
}
