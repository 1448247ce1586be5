/**
 * Raw bytes kept from the start of every run for the archive of a streamed run and the
 * run's trace (8 MiB keeps `omni pipe` on a 1 GB stream under 200 MB RSS).
 */
export const SPOOL_CAP_BYTES = 8 << 20;

/** A head longer than this is kept in one buffer (Spool.joined). */
export const HEAD_JOIN_BYTES = 1 << 20;
/** …when its cap is at most this (a hold window set larger keeps its chunks: no buffer that size up front). */
const HEAD_JOIN_MAX_CAP = 64 << 20;

/** The smallest buffer the bytes past the head are kept in (it doubles as a run needs more). */
const WINDOW_MIN_BYTES = 256 << 10;

/**
 * The tee of a run's raw input. It keeps two things:
 *
 * - the head: the first `cap` bytes, always (the archive of a streamed run names them);
 * - every byte past the head that output has not yet covered. The owner says how far output
 *   got with `release(upTo)`; only then may bytes go. So the verbatim fallback and the
 *   switch to raw bytes can always copy from where output stands: a range they need cannot
 *   have been dropped, by construction. Asking for a released range throws (loudly) rather
 *   than coming back short.
 *
 * Memory is the head plus what is in flight between the write side and the output, which
 * the pipeline's back-pressure bounds. The bytes past the head are copied into one window
 * buffer that the run keeps and reuses, not held as the chunks they came in: a chunk held
 * across two of V8's young-generation collections is promoted, and a long stream whose live
 * data stays small may not collect the old generation again before it ends, so the chunks
 * that waited longest (a few in a hundred) piled up there dead, ~10 MiB per 100 MiB streamed.
 */
export class Spool {
  /** `cap`: bytes kept exactly from the start. A holding run needs at least its hold window. */
  constructor(private readonly cap: number = SPOOL_CAP_BYTES) {}
  private head: Buffer[] = [];
  private headLen = 0;
  /**
   * Past HEAD_JOIN_BYTES the head is copied, as it comes, into one buffer of `cap` bytes: a long
   * run's `all()` then joins nothing at the end, where it would hold the head twice at the
   * run's peak. A short payload (a hook's) keeps its chunks as they came, uncopied.
   */
  private joined: Buffer | null = null;
  /** The kept bytes past the head: raw offsets [winFrom, winFrom + winLen) at win[winAt, winAt + winLen). */
  private win: Buffer = EMPTY;
  private winAt = 0;
  private winLen = 0;
  private winFrom = 0;
  private released = 0;
  total = 0;

  /**
   * `covered`: output already covers this chunk as it comes (a run in direct passthrough), so
   * past the head nothing of it is kept.
   */
  push(chunk: Buffer, covered = false): void {
    if (!chunk.length) return;
    let part = chunk;
    if (this.headLen < this.cap) {
      const room = this.cap - this.headLen;
      const h = chunk.length <= room ? chunk : chunk.subarray(0, room);
      if (!this.joined && this.headLen + h.length > HEAD_JOIN_BYTES && this.cap > HEAD_JOIN_BYTES && this.cap <= HEAD_JOIN_MAX_CAP) {
        this.joined = Buffer.allocUnsafe(this.cap);
        let at = 0;
        for (const c of this.head) at += c.copy(this.joined, at);
        this.head = [];
      }
      if (this.joined) h.copy(this.joined, this.headLen);
      else this.head.push(h);
      this.headLen += h.length;
      part = chunk.subarray(h.length);
    }
    let start = this.total + (chunk.length - part.length);
    this.total += chunk.length;
    if (covered) this.release(this.total);
    // Output may already be past these bytes.
    const skip = Math.min(part.length, Math.max(0, this.released - start));
    if (skip === part.length) return;
    part = part.subarray(skip);
    start += skip;
    if (this.winLen === 0) { this.winAt = 0; this.winFrom = start; }
    this.room(part.length);
    part.copy(this.win, this.winAt + this.winLen);
    this.winLen += part.length;
  }

  /** Room for `n` more bytes after the kept ones: moved to the front, or a buffer twice the size. */
  private room(n: number): void {
    if (this.winAt + this.winLen + n <= this.win.length) return;
    // Grown while the kept bytes would fill more than half of it, so moving them to the front
    // copies at most as many bytes as were pushed since the last move.
    if (2 * (this.winLen + n) > this.win.length) {
      const next = Buffer.allocUnsafe(Math.max(WINDOW_MIN_BYTES, 2 * this.win.length, 2 * (this.winLen + n)));
      this.win.copy(next, 0, this.winAt, this.winAt + this.winLen);
      this.win = next;
    } else this.win.copyWithin(0, this.winAt, this.winAt + this.winLen);
    this.winAt = 0;
  }

  /** Output covers every byte before `upTo`: past the head they need not be kept. */
  release(upTo: number): void {
    if (upTo <= this.released) return;
    this.released = upTo;
    const drop = Math.min(this.winLen, Math.max(0, upTo - this.winFrom));
    this.winAt += drop;
    this.winLen -= drop;
    this.winFrom += drop;
  }

  /** True once the input outgrew the head: `all()` then holds only the first `cap` bytes. */
  get truncated(): boolean {
    return this.total > this.headLen;
  }

  /** Bytes held right now (head and unreleased rest). */
  kept(): number {
    return this.headLen + this.winLen;
  }

  /** The kept head (the whole input unless truncated). */
  all(): Buffer {
    if (this.joined) return this.joined.subarray(0, this.headLen);
    if (this.head.length > 1) {
      const b = Buffer.concat(this.head, this.headLen);
      this.head = [b];
    }
    return this.head[0] ?? Buffer.alloc(0);
  }

  /**
   * Exact bytes [from, to). Throws when part of the range was released. Bytes past the head come
   * back copied: the window they are kept in is written over as the run goes on.
   */
  slice(from: number, to: number): Buffer {
    to = Math.min(to, this.total);
    if (to <= from) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    if (from < this.headLen) {
      // Walk the head's chunks rather than joining them: joining on every slice while the
      // head fills copies it again and again (a streamed run slices it once per blank-line gap).
      const upTo = Math.min(to, this.headLen);
      let s = 0;
      if (this.joined) parts.push(this.joined.subarray(from, upTo));
      else for (const c of this.head) {
        const e = s + c.length;
        if (e > from && s < upTo) parts.push(c.subarray(Math.max(0, from - s), Math.min(c.length, upTo - s)));
        if (e >= upTo) break;
        s = e;
      }
      from = this.headLen;
    }
    if (from < to) {
      if (from < this.winFrom || to > this.winFrom + this.winLen) {
        throw new RangeError(`spool: bytes [${from}, ${to}) were released (kept from ${this.winFrom})`);
      }
      const w = this.win.subarray(this.winAt + (from - this.winFrom), this.winAt + (to - this.winFrom));
      // Joined with the head's part, concat copies it anyway.
      return parts.length ? Buffer.concat([...parts, w]) : Buffer.from(w);
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * How far the bytes delivered so far reach into the raw input. Render notes, for every
 * buffer it writes, the raw offset that buffer brings the output up to; the owner reads
 * back, for the bytes that really left, the raw offset they cover. A fallback resumes
 * there, so output still queued when a stage fails is neither lost nor sent twice.
 */
export class Coverage {
  private outs: number[] = [];
  private raws: number[] = [];
  private first = 0;
  private covered = 0;

  /** Output up to `outBytes` (counted from the start) covers the raw input up to `rawOffset`. */
  note(outBytes: number, rawOffset: number): void {
    this.outs.push(outBytes);
    this.raws.push(rawOffset);
  }

  /** `outBytes` bytes have been delivered: the raw offset they cover. */
  delivered(outBytes: number): number {
    while (this.first < this.outs.length && this.outs[this.first] <= outBytes) {
      this.covered = Math.max(this.covered, this.raws[this.first]);
      this.first++;
    }
    if (this.first > 256 && this.first * 2 > this.outs.length) {
      this.outs = this.outs.slice(this.first);
      this.raws = this.raws.slice(this.first);
      this.first = 0;
    }
    return this.covered;
  }
}
