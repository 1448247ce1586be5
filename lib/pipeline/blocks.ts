/**
 * The input of a streaming run cut into blocks at fixed offsets of the stream, whatever sizes
 * its chunks came in. Once a run streams, each batch goes out as the stages saw it, and a fold,
 * a redraw or the end of the hold window falls where a batch ends: with batches cut where a
 * child's writes happened to arrive, the same command gave different bytes from run to run. Cut
 * at offsets k × BLOCK_BYTES, a producer faster than the flush delays below gives the same
 * batches, and so the same bytes, every time (a file read by `omni pipe` already came in such
 * blocks, so its output does not change). What a slow producer printed still goes on after
 * FLUSH_IDLE_MS of quiet, or FLUSH_MAX_MS after its first byte waited: a live stream's output
 * depends on its pauses, as a reader watching it would want.
 */
export const BLOCK_BYTES = 64 * 1024;
export const FLUSH_IDLE_MS = 50;
export const FLUSH_MAX_MS = 250;

/**
 * Pure: the pieces a chunk completes, given the bytes already waiting; the rest waits. A piece
 * ends at an offset k × BLOCK_BYTES of the stream, or where `take` flushed what waited: the
 * block's end stays where it was, so the cuts after a pause fall where they would have.
 */
export class BlockCutter {
  private parts: Buffer[] = [];
  private waiting = 0;
  /** Bytes of the current block already seen, flushed or waiting. */
  private seen = 0;

  /** The pieces this chunk completes, in order; what is left of it waits for the next. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    while (this.seen + (chunk.length - at) >= BLOCK_BYTES) {
      const take = BLOCK_BYTES - this.seen;
      const piece = chunk.subarray(at, at + take);
      at += take;
      out.push(this.parts.length ? Buffer.concat([...this.parts, piece], this.waiting + take) : piece);
      this.parts = [];
      this.waiting = 0;
      this.seen = 0;
    }
    if (at < chunk.length) {
      this.parts.push(chunk.subarray(at));
      this.waiting += chunk.length - at;
      this.seen += chunk.length - at;
    }
    return out;
  }

  /** Bytes waiting for their block to end. */
  get pending(): number {
    return this.waiting;
  }

  /** What waits, as one chunk (null: nothing); the block it belongs to still ends where it would have. */
  take(): Buffer | null {
    if (!this.waiting) return null;
    const b = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.waiting);
    this.parts = [];
    this.waiting = 0;
    return b;
  }
}
