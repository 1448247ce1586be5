/**
 * omni_run's reading of the exec child's output, in bounded memory.
 *
 * A tool result is one message the host cuts anyway (Claude Code 2.1.332 keeps about
 * MAX_MCP_OUTPUT_TOKENS × 4 = 100,000 characters of an MCP result and drops the rest), so the
 * server never holds more than it could hand on: the first half of the cap (the head), the
 * last half (the tail, a ring), and the first `keepCut` bytes of what falls between, for the
 * archive. A 160 MB output costs the server the cap plus `keepCut`, not 160 MB.
 *
 * An output within the cap comes back whole, byte for byte (a failure too). Past it, the head
 * and the tail come back verbatim, cut at line ends, with one marker between them naming the
 * archived cut (`omni retrieve`), as the exec door names the first 8 MiB of a long stream.
 */
import { SPOOL_CAP_BYTES } from '../pipeline/spool.js';

/** What the host takes of one MCP result by default: 25,000 tokens at its 4 characters per token. */
export const HOST_RESULT_CHARS = 25_000 * 4;
/** Room left under the host's limit for the marker, the `exit code: N` item and omni's own complaints. */
export const RESULT_RESERVE_BYTES = 2048;

/**
 * The bytes of output one omni_run result carries: what the host takes (MAX_MCP_OUTPUT_TOKENS,
 * which Claude Code also hands its MCP servers, raises it) less the reserve. Bytes, so never
 * more characters than the host counts.
 */
export function resultCapBytes(env: NodeJS.ProcessEnv): number {
  const tokens = /^\d{1,9}$/.test(env.MAX_MCP_OUTPUT_TOKENS ?? '') ? Number(env.MAX_MCP_OUTPUT_TOKENS) : 0;
  const chars = tokens > 0 ? tokens * 4 : HOST_RESULT_CHARS;
  return Math.max(4096, chars - RESULT_RESERVE_BYTES);
}

export interface CappedResult {
  /** The whole output (within the cap), or the head. */
  head: Buffer;
  /** Past the cap: the tail; else empty. */
  tail: Buffer;
  /** Past the cap: the bytes between head and tail. */
  cut: null | {
    bytes: number;
    /** The first of them, kept for the archive (all of them when `kept.length === bytes`). */
    kept: Buffer;
  };
  total: number;
}

/** Where to cut a head: after its last newline, else at a UTF-8 character boundary. */
function headEnd(b: Buffer): number {
  const nl = b.lastIndexOf(0x0a);
  if (nl >= b.length / 2) return nl + 1;
  let i = b.length;
  while (i > 0 && i > b.length - 4 && (b[i - 1] & 0xc0) === 0x80) i--;
  // b[i-1] is the lead byte of the last character (or ASCII): keep that character only if whole.
  const lead = i > 0 ? b[i - 1] : 0;
  const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i > 0 && i - 1 + len > b.length ? i - 1 : b.length;
}

/** Where a tail starts: after its first newline, else at a UTF-8 character boundary. */
function tailStart(b: Buffer): number {
  const nl = b.indexOf(0x0a);
  if (nl >= 0 && nl < b.length / 2) return nl + 1;
  let i = 0;
  while (i < b.length && i < 4 && (b[i] & 0xc0) === 0x80) i++;
  return i;
}

export class CappedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private cutKept: Buffer[] = [];
  private cutKeptLen = 0;
  private cutBytes = 0;
  total = 0;

  /** `cap`: the most bytes of output a result carries; `keepCut`: the most of the cut kept for the archive. */
  constructor(readonly cap: number, private readonly keepCut: number = SPOOL_CAP_BYTES) {
    this.headCap = Math.floor(cap / 2);
    this.tailCap = cap - this.headCap;
  }

  push(chunk: Buffer): void {
    if (!chunk.length) return;
    this.total += chunk.length;
    let part = chunk;
    if (this.headLen < this.headCap) {
      const h = part.subarray(0, this.headCap - this.headLen);
      this.head.push(h);
      this.headLen += h.length;
      part = part.subarray(h.length);
    }
    if (!part.length) return;
    this.tail.push(part);
    this.tailLen += part.length;
    while (this.tailLen > this.tailCap) {
      const over = this.tailLen - this.tailCap;
      const first = this.tail[0];
      const gone = over >= first.length ? (this.tail.shift() as Buffer) : first.subarray(0, over);
      if (gone !== first) this.tail[0] = first.subarray(over);
      this.tailLen -= gone.length;
      this.toCut(gone);
    }
  }

  private toCut(b: Buffer): void {
    this.cutBytes += b.length;
    const room = this.keepCut - this.cutKeptLen;
    if (room <= 0) return;
    // A copy: the kept part must not pin the pipe's whole chunk in memory.
    const k = Buffer.from(b.subarray(0, room));
    this.cutKept.push(k);
    this.cutKeptLen += k.length;
  }

  /** Held now: what the server's memory pays for this run's output. */
  held(): number {
    return this.headLen + this.tailLen + this.cutKeptLen;
  }

  finish(): CappedResult {
    const head = Buffer.concat(this.head, this.headLen);
    const tail = Buffer.concat(this.tail, this.tailLen);
    if (this.cutBytes === 0) return { head: Buffer.concat([head, tail]), tail: Buffer.alloc(0), cut: null, total: this.total };
    // Cut at line ends: the head's broken last line and the tail's broken first line join the cut.
    const h = headEnd(head);
    const s = tailStart(tail);
    const whole = this.cutKeptLen === this.cutBytes;
    const kept = Buffer.concat([head.subarray(h), ...this.cutKept, ...(whole ? [tail.subarray(0, s)] : [])]);
    const bytes = head.length - h + this.cutBytes + s;
    return { head: head.subarray(0, h), tail: tail.subarray(s), cut: { bytes, kept: whole ? kept : kept.subarray(0, Math.min(kept.length, this.keepCut)) }, total: this.total };
  }
}
