/**
 * Raw bytes kept in memory for the verbatim fallback and the archive of a streamed run
 * (8 MiB keeps `omni pipe` on a 1 GB stream under 200 MB RSS: the archive copies it twice).
 */
export const SPOOL_CAP_BYTES = 8 << 20;
/** After the cap, the most recent bytes still kept so a late fallback can copy them. */
export const SPOOL_TAIL_BYTES = 4 << 20;

/**
 * The bounded tee of a run's raw input. It keeps the first SPOOL_CAP_BYTES exactly, and
 * after that a rolling window of the most recent SPOOL_TAIL_BYTES, so memory stays flat
 * on a 1 GB stream.
 */
export class Spool {
  /** `cap`: bytes kept exactly from the start. A holding run needs at least its hold window. */
  constructor(private readonly cap: number = SPOOL_CAP_BYTES) {}
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailStart = 0; // raw offset of tail[0]
  private tailLen = 0;
  total = 0;

  push(chunk: Buffer): void {
    if (this.headLen < this.cap) {
      const room = this.cap - this.headLen;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.head.push(part);
      this.headLen += part.length;
      if (part.length < chunk.length) this.pushTail(chunk.subarray(part.length), this.total + part.length);
    } else {
      this.pushTail(chunk, this.total);
    }
    this.total += chunk.length;
  }

  private pushTail(chunk: Buffer, offset: number): void {
    if (!this.tail.length) this.tailStart = offset;
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    while (this.tailLen - this.tail[0].length >= SPOOL_TAIL_BYTES) {
      const dropped = this.tail.shift()!;
      this.tailLen -= dropped.length;
      this.tailStart += dropped.length;
    }
  }

  /** True once bytes were dropped: `all()` then holds only the first SPOOL_CAP_BYTES. */
  get truncated(): boolean {
    return this.total > this.headLen;
  }

  /** The kept head (the whole input unless truncated). */
  all(): Buffer {
    if (this.head.length > 1) {
      const b = Buffer.concat(this.head, this.headLen);
      this.head = [b];
    }
    return this.head[0] ?? Buffer.alloc(0);
  }

  /** Exact bytes [from, to), or null when they are no longer kept. */
  slice(from: number, to: number): Buffer | null {
    if (to <= from) return Buffer.alloc(0);
    if (to <= this.headLen) return this.all().subarray(from, to);
    if (from >= this.tailStart && to <= this.tailStart + this.tailLen) {
      const t = Buffer.concat(this.tail, this.tailLen);
      this.tail = [t];
      return t.subarray(from - this.tailStart, to - this.tailStart);
    }
    return null;
  }
}
