/**
 * Fast 64-bit line hashes for the ledger, and a bounded set of them.
 *
 * `crypto.createHash` per line costs ~1.8 µs and an unbounded `Set` grows
 * ~100 B per unique line. So lines are hashed with cyrb53's mixing kept at its full two
 * 32-bit halves (64 bits: a false "already shown" needs a collision among at most
 * `SHOWN_SET_CAP` entries, ~2^-46), and sets are typed-array open-addressing tables.
 *
 * A hash is a pair (hi, lo) of uint32. (0, 0) is reserved as the empty slot: a line that
 * hashes to it is moved to (0, 1).
 */

/** Hashes a (trimmed) line into `out[0]` (hi) and `out[1]` (lo). */
export function lineHash(s: string, out: Uint32Array): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  out[0] = h1 >>> 0;
  out[1] = h2 >>> 0;
  if (out[0] === 0 && out[1] === 0) out[1] = 1;
}

/**
 * The most hashes one reader's set holds. 32768 lines is more than a 200k-token context can
 * hold (≈ 25k lines at ~8 tokens a line), so older lines are ones the reader has lost to
 * compaction anyway. Measured (bench/store.mjs): building a 100k set cost 9-40 ms on a busy
 * 2-core machine; 32k keeps loadShown within a few ms. Table: 512 KiB.
 */
export const SHOWN_SET_CAP = 1 << 15;

/**
 * A bounded set of 64-bit hashes: open addressing with linear probing in one Uint32Array
 * of (hi, lo) pairs, load factor ≤ 1/2. `add` past `capacity` is refused (returns false),
 * so memory is fixed at construction.
 */
export class ShownSet {
  readonly capacity: number;
  private table: Uint32Array;
  private mask: number;
  size = 0;

  constructor(capacity: number = 1024) {
    this.capacity = Math.max(1, Math.min(capacity, SHOWN_SET_CAP));
    let slots = 16;
    while (slots < this.capacity * 2) slots <<= 1;
    this.table = new Uint32Array(slots * 2);
    this.mask = slots - 1;
  }

  has(hi: number, lo: number): boolean {
    const t = this.table;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const a = t[i * 2];
      const b = t[i * 2 + 1];
      if (a === 0 && b === 0) return false;
      if (a === hi && b === lo) return true;
      i = (i + 1) & this.mask;
    }
  }

  /** Adds; returns true when the hash was new and fitted. */
  add(hi: number, lo: number): boolean {
    const t = this.table;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const a = t[i * 2];
      const b = t[i * 2 + 1];
      if (a === 0 && b === 0) break;
      if (a === hi && b === lo) return false;
      i = (i + 1) & this.mask;
    }
    if (this.size >= this.capacity) return false;
    t[i * 2] = hi;
    t[i * 2 + 1] = lo;
    this.size++;
    return true;
  }

  /** Adds every (hi, lo) pair of a packed hash blob (see `packHashes`). Stops when full. */
  addPacked(buf: Uint8Array): void {
    const n = buf.byteLength >>> 3;
    // A 4-byte-aligned view reads ~3x faster than a DataView; SQLite's buffers usually are.
    const u =
      (buf.byteOffset & 3) === 0
        ? new Uint32Array(buf.buffer, buf.byteOffset, n * 2)
        : new Uint32Array(Uint8Array.prototype.slice.call(buf, 0, n * 8).buffer);
    for (let k = 0; k < n && this.size < this.capacity; k++) this.add(u[k * 2], u[k * 2 + 1]);
  }
}

/**
 * Packs a list of (hi, lo) pairs (flat Uint32Array, length 2n) into an 8n-byte little-endian
 * blob. `addPacked` reads it through a Uint32Array view, which assumes a little-endian host
 * (x64 and arm64: every platform Node 20 ships for).
 */
export function packHashes(pairs: Uint32Array, n: number): Buffer {
  const buf = Buffer.allocUnsafe(n * 8);
  for (let k = 0; k < n; k++) {
    buf.writeUInt32LE(pairs[k * 2], k * 8);
    buf.writeUInt32LE(pairs[k * 2 + 1], k * 8 + 4);
  }
  return buf;
}

/** What the ledger stage asks of a shown-set. */
export interface HashLookup {
  readonly size: number;
  has(hi: number, lo: number): boolean;
}

/**
 * A read-only set built from packed hash blobs: concatenated, sorted natively as 64-bit
 * integers, searched by bisection over a Uint32Array view (no BigInt per probe).
 * Chosen over building the open-addressing table in a hook process because the hook's JS
 * is always cold: measured on a loaded 2-core machine, inserting 32k hashes one by one took
 * 8-20 ms before the JIT warmed up, the native sort ~1-2 ms (bench/store.mjs).
 */
export class SortedHashSet implements HashLookup {
  readonly size: number;
  private readonly u: Uint32Array;

  /** `blobs` newest first; at most `cap` hashes are taken, from the newest. */
  constructor(blobs: readonly Uint8Array[], cap: number = SHOWN_SET_CAP) {
    let total = 0;
    for (const b of blobs) total += b.byteLength >>> 3;
    const n = Math.min(total, cap);
    const bytes = new Uint8Array(n * 8);
    let off = 0;
    for (const b of blobs) {
      if (off >= bytes.length) break;
      const take = Math.min(b.byteLength & ~7, bytes.length - off);
      bytes.set(b.subarray(0, take), off);
      off += take;
    }
    // Each 8-byte entry is (hi LE, lo LE): as a little-endian u64 it is lo * 2^32 + hi, so
    // the sort orders by lo, then hi.
    new BigUint64Array(bytes.buffer, 0, n).sort();
    this.u = new Uint32Array(bytes.buffer, 0, n * 2);
    this.size = n;
  }

  has(hi: number, lo: number): boolean {
    const u = this.u;
    let a = 0;
    let b = this.size - 1;
    while (a <= b) {
      const m = (a + b) >>> 1;
      const mlo = u[m * 2 + 1];
      const mhi = u[m * 2];
      if (mlo < lo || (mlo === lo && mhi < hi)) a = m + 1;
      else if (mlo === lo && mhi === hi) return true;
      else b = m - 1;
    }
    return false;
  }
}

/** The pairs of a packed hash blob that `keep` accepts, packed again (order kept). */
export function filterPacked(packed: Uint8Array, keep: HashLookup): Buffer {
  const n = packed.byteLength >>> 3;
  const buf = Buffer.from(packed.buffer, packed.byteOffset, n * 8);
  const out = Buffer.allocUnsafe(n * 8);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const hi = buf.readUInt32LE(k * 8);
    const lo = buf.readUInt32LE(k * 8 + 4);
    if (!keep.has(hi, lo)) continue;
    out.writeUInt32LE(hi, m * 8);
    out.writeUInt32LE(lo, m * 8 + 4);
    m++;
  }
  return out.subarray(0, m * 8);
}
