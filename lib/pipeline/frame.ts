import type { Transform } from 'node:stream';
import { transform } from '../kit/streams.js';
import { isUtf8 } from 'node:buffer';
import type { Batch, Line } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';

/** A line longer than this is cut into pieces (eol ''), so memory stays bounded. */
export const MAX_LINE_BYTES = 1 << 20;

/**
 * frame: raw bytes -> batches of lines. Lines keep their exact terminators; carriage-return
 * redraws (progress bars, spinners) fold to their final visible segment, with the original
 * kept in `raw` so the archive stays exact. A line that is not valid UTF-8 keeps its exact
 * bytes (`bytes`) and goes out as it came; the lines around it are distilled as ever. A NUL
 * byte (binary) switches the run to passthrough: from then on only byte offsets travel, until
 * render hands the run over and createPipeline copies the raw chunks straight through.
 */
export function frame(run: RunState): Transform {
  const f = new Framer(run);
  return transform({
    readableObjectMode: true,
    readableHighWaterMark: BATCH_QUEUE,
    transform(chunk: Buffer, _enc, cb) {
      f.chunk(chunk, (b) => this.push(b));
      cb();
    },
    flush(cb) {
      f.flush((b) => this.push(b));
      cb();
    },
  });
}

/** One run's framing state: the bytes of a line not yet ended, and where the next chunk starts. */
class Framer {
  private pending: Buffer | null = null;
  private offset = 0; // raw offset of the first byte of `pending` (or of the next chunk)
  private index = 0;

  constructor(private readonly run: RunState) {}

  chunk(chunk: Buffer, push: (b: Batch) => void): void {
    const { run } = this;
    if (run.passthrough) {
      this.offset += chunk.length;
      push({ items: [], end: this.offset });
      return;
    }
    const pending = this.pending;
    // A line begun in the last chunk is joined with its own end only: joining the whole chunk
    // behind it copied every byte of the stream once more.
    const nl = pending ? chunk.indexOf(10) : -1;
    if (pending && nl >= 0) {
      const first = Buffer.concat([pending, chunk.subarray(0, nl + 1)]);
      const rest = chunk.subarray(nl + 1);
      const cut = rest.lastIndexOf(10) + 1;
      this.pending = cut < rest.length ? Buffer.from(rest.subarray(cut)) : null;
      this.emit([first, rest.subarray(0, cut)], false, push);
      return;
    }
    const buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    let cut = buf.lastIndexOf(10) + 1;
    if (cut === 0 && buf.length > MAX_LINE_BYTES) {
      cut = MAX_LINE_BYTES;
      // Not inside a UTF-8 sequence (at most 3 bytes back: bytes that are not UTF-8 may be anything).
      while (cut > MAX_LINE_BYTES - 3 && (buf[cut] & 0xc0) === 0x80) cut--;
    }
    if (cut === 0) { this.pending = buf; return; }
    this.pending = cut < buf.length ? Buffer.from(buf.subarray(cut)) : null;
    this.emit([buf.subarray(0, cut)], buf[cut - 1] !== 10, push);
  }

  flush(push: (b: Batch) => void): void {
    const region = this.pending;
    if (!region || !region.length) return;
    this.pending = null;
    if (!this.run.passthrough) return this.emit([region], true, push);
    this.offset += region.length;
    push({ items: [], end: this.offset });
  }

  /**
   * Pushes the batch of these consecutive regions (each ends a line, but for a `final` one): a
   * NUL byte in any of them (binary) passes the run through from their start.
   */
  private emit(regions: Buffer[], final: boolean, push: (b: Batch) => void): void {
    const base = this.offset;
    for (const r of regions) this.offset += r.length;
    if (regions.some((r) => r.indexOf(0) >= 0)) {
      this.run.passthrough = 'binary';
      this.offset += this.pending ? this.pending.length : 0;
      this.pending = null;
      push({ items: [], end: this.offset });
      return;
    }
    let items: Line[] = [];
    let at = base;
    for (const r of regions) {
      if (r.length) {
        const lines = this.toLines(r, at, final, isUtf8(r));
        items = items.length ? items.concat(lines) : lines;
      }
      at += r.length;
    }
    push({ items, end: this.offset });
  }

  private toLines(region: Buffer, base: number, final: boolean, valid: boolean): Line[] {
    // Each line is decoded on its own, between the native scan's newlines (0x0A never occurs
    // inside a UTF-8 sequence, so this is the region's text cut at its newlines): a line of
    // ASCII then becomes a one-byte string even when its neighbours are not, which every
    // later regex and the output's encoding read faster than a slice of a two-byte whole.
    const lines: Line[] = [];
    const n = region.length;
    let bpos = 0;
    for (;;) {
      const bnl = region.indexOf(10, bpos);
      if (bnl < 0) {
        if (final && bpos < n) {
          const body = region.toString('utf8', bpos, n);
          const line = newLine(body, '', this.index++, base + n, n - bpos);
          if (!valid && !isUtf8(region.subarray(bpos, n))) line.bytes = Buffer.from(region.subarray(bpos, n));
          else if (body.indexOf('\r') >= 0) foldRedraw(line, this.run);
          lines.push(line);
        }
        break;
      }
      const crlf = bnl > bpos && region[bnl - 1] === 13;
      const stop = crlf ? bnl - 1 : bnl;
      const body = region.toString('utf8', bpos, stop);
      const line = newLine(body, crlf ? '\r\n' : '\n', this.index++, base + bnl + 1, bnl + 1 - bpos);
      // Only a region that is not valid UTF-8 as a whole has lines that are not: each is checked.
      if (!valid && !isUtf8(region.subarray(bpos, stop))) line.bytes = Buffer.from(region.subarray(bpos, stop));
      else if (body.indexOf('\r') >= 0) foldRedraw(line, this.run);
      lines.push(line);
      bpos = bnl + 1;
    }
    return lines;
  }
}

/**
 * A line as frame cuts it, with every field a later stage may set present from the start: the
 * lines of a run then share one object shape, so the property reads of every stage after frame
 * stay monomorphic instead of meeting a shape per combination of fields set.
 */
function newLine(text: string, eol: string, index: number, end: number, size: number): Line {
  return { kind: 'line', text, eol, raw: undefined, bytes: undefined, plain: undefined, prefix: undefined, tier: 'text', out: undefined, redacted: undefined, masked: undefined, index, end, size };
}

/**
 * The non-empty segments of `a\rb\rc` and the bounds of the last one, in one walk over the CRs
 * (no array of segments). Render counts redraws with it too.
 */
export function redrawSegments(t: string): { n: number; lastFrom: number; lastTo: number } {
  let n = 0;
  let lastFrom = 0;
  let lastTo = 0;
  let from = 0;
  for (;;) {
    const cr = t.indexOf('\r', from);
    const to = cr < 0 ? t.length : cr;
    if (to > from) { n++; lastFrom = from; lastTo = to; }
    if (cr < 0) break;
    from = cr + 1;
  }
  return { n, lastFrom, lastTo };
}

/** `a\rb\rc` shows as `c` on a terminal; keep the last non-empty segment. */
function foldRedraw(line: Line, run: RunState): void {
  const t = line.text;
  const { n, lastFrom, lastTo } = redrawSegments(t);
  // Only bare CRs around one segment (or none): nothing was redrawn over.
  if (n === 0) return;
  if (n > 1) run.redraws += n - 1;
  line.raw = t;
  line.text = t.slice(lastFrom, lastTo);
}
