/**
 * What every state of render writes with: the output (bytes out, the raw offset they cover), a
 * line as shown and as it came, the raw bytes with the secrets masked, and the archive that must
 * take removed bytes before a marker may name them.
 */
import type { Transform } from 'node:stream';
import type { Archive, Item, Line, Marker } from '../kit/types.js';
import type { Coverage } from './spool.js';
import { formatMarker, lineByteLength, runBytes } from '../kit/marker.js';
import { redrawSegments } from './frame.js';
import { utf8Length } from '../base/utf8-length.js';

/** What the render stage learned, for the door (stats, the hook's reply decision). */
export interface RenderReport {
  rawBytes: number;
  outBytes: number;
  /** True when the output is not byte-identical to the input. */
  changed: boolean;
  /** Why the raw bytes went out, when they did. */
  verbatim: string | null;
  streamed: boolean;
  /** Handle of the whole raw input when it was archived. */
  rawHandle: string | null;
  /** Raw offset already accounted for by bytes written (the fail-open resume point). */
  rawCovered: number;
}

/**
 * The output side of a run: every byte render writes goes through `write`, which counts it and
 * notes the raw offset it covers (`rawEmitted`), so a fail-open resumes exactly there.
 */
export class Output {
  /** Raw offset already covered by output. */
  rawEmitted = 0;
  /**
   * Whether the output so far ends a line: a closing receipt after a last line with no newline
   * starts a line of its own instead of being glued onto (and cutting) that line.
   */
  endsLine = true;

  constructor(private readonly report: RenderReport, private readonly coverage?: Coverage) {}

  /** Bytes written so far. */
  get written(): number {
    return this.report.outBytes;
  }

  write(t: Transform, s: string | Buffer): void {
    if (!s.length) return;
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    this.report.outBytes += b.length;
    this.endsLine = b[b.length - 1] === 0x0a;
    this.report.rawCovered = this.rawEmitted;
    this.coverage?.note(this.report.outBytes, this.rawEmitted);
    t.push(b);
  }
}

/** The archive as render uses it: a failed write is a null handle, never an exception. */
export class Receipts {
  constructor(private readonly archive: Archive | undefined) {}

  /** Whether removed bytes can be archived at all (without, nothing may be removed). */
  get available(): boolean {
    return this.archive !== undefined;
  }

  put(data: Buffer): string | null {
    if (!this.archive) return null;
    try {
      return this.archive.put(data);
    } catch {
      return null;
    }
  }

  /** The handles of the batch's markers, in order (one write for all when the archive can). */
  markers(items: Item[]): Array<string | null> {
    return this.markersOf([items])[0];
  }

  /**
   * The handles of several batches' markers, batch by batch, in one write: a write (one SQLite
   * transaction) costs far more than the rows in it, so a fast stream's batches are archived
   * together.
   */
  markersOf(batches: readonly Item[][]): Array<Array<string | null>> {
    const raws: Buffer[] = [];
    const counts = batches.map((items) => {
      let n = 0;
      for (const i of items) if (i.kind === 'marker') { raws.push(runBytes(i.hidden)); n++; }
      return n;
    });
    const handles = this.putAll(raws);
    let k = 0;
    return counts.map((n) => handles.slice(k, (k += n)));
  }

  private putAll(raws: Buffer[]): Array<string | null> {
    if (!raws.length) return [];
    const a = this.archive;
    if (!a) return raws.map(() => null);
    if (!a.putMany) return raws.map((r) => this.put(r));
    try {
      return a.putMany(raws);
    } catch {
      return raws.map(() => null);
    }
  }
}

/** A line as render prints it by default (a line that is not UTF-8: its exact bytes). */
export function shown(l: Line): string | Buffer {
  return l.bytes ? asCame(l) : (l.out ?? l.plain ?? l.text) + l.eol;
}

/**
 * A line as it came, with its secret values masked: what goes out wherever the raw line would.
 * A line that is not UTF-8 is its exact bytes.
 */
export function asCame(l: Line): string | Buffer {
  if (l.bytes && l.masked === undefined) return Buffer.concat([l.bytes, Buffer.from(l.eol, 'latin1')]);
  return (l.masked ?? l.raw ?? l.text) + l.eol;
}

/**
 * The bytes `asCame(l)` is, without building it: a line frame cut knows its size as it came
 * (what `asCame` gives back unless the line was masked).
 */
export function cameBytes(l: Line): number {
  if (l.masked !== undefined) return utf8Length(l.masked) + l.eol.length;
  return l.size !== undefined ? l.size : sizeOf(asCame(l));
}

/**
 * Output text in which some lines are their exact bytes (not UTF-8): strings are joined as
 * strings, and a buffer only where such a line stands.
 */
export class Chunks {
  private parts: Buffer[] = [];
  private s = '';
  private last = -1;

  add(x: string | Buffer): void {
    if (!x.length) return;
    if (typeof x === 'string') { this.s += x; this.last = x.charCodeAt(x.length - 1); return; }
    if (this.s) { this.parts.push(Buffer.from(this.s)); this.s = ''; }
    this.parts.push(x);
    this.last = x[x.length - 1];
  }

  /** Something was added, and it does not end a line. */
  get open(): boolean {
    return this.last >= 0 && this.last !== 0x0a;
  }

  toBuffer(): Buffer {
    if (!this.parts.length) return Buffer.from(this.s);
    return Buffer.concat(this.s ? [...this.parts, Buffer.from(this.s)] : this.parts);
  }
}

/** Bytes of a string or buffer as it goes out. */
export const sizeOf = (x: string | Buffer): number => (typeof x === 'string' ? Buffer.byteLength(x) : x.length);

/** The line is printed other than as it came (colour stripped, redraw folded, condensed, masked). */
export function changedInPlace(l: Line): boolean {
  return l.raw !== undefined || l.out !== undefined || (l.plain !== undefined && l.plain !== l.text);
}

/** Which count a line changed in place adds to: colour codes, or a condensed line (or neither: a mask alone). */
export function changeKind(l: Line): 'colour' | 'condensed' | null {
  if (l.plain !== undefined && l.plain !== l.text && (l.out === undefined || l.redacted)) return 'colour';
  if (l.out !== undefined && !(l.redacted && l.raw !== undefined)) return 'condensed';
  return null;
}

/**
 * `raw` (the input from raw offset `base` on) with every line the redact stage masked (shown or
 * hidden in a marker) replaced by its masked form: the raw bytes, secrets masked, nothing else
 * changed. Never larger than `raw`.
 */
export function maskedRaw(raw: Buffer, items: readonly Item[], base = 0): Buffer {
  const spans: Array<{ start: number; end: number; text: string }> = [];
  const note = (l: Line) => {
    if (l.masked === undefined) return;
    const start = l.end - lineByteLength(l);
    if (start >= base && l.end <= base + raw.length) spans.push({ start, end: l.end, text: l.masked + l.eol });
  };
  for (const it of items) {
    if (it.kind === 'line') note(it);
    else for (const h of it.hidden) note(h);
  }
  if (!spans.length) return raw;
  spans.sort((a, b) => a.start - b.start);
  const parts: Buffer[] = [];
  let pos = base;
  for (const sp of spans) {
    if (sp.start < pos) continue; // the same line twice (a rewritten form): masked once
    parts.push(raw.subarray(pos - base, sp.start - base), Buffer.from(sp.text));
    pos = sp.end;
  }
  parts.push(raw.subarray(pos - base));
  return Buffer.concat(parts);
}

/** `a\rb\rc`: the segments drawn over (frame keeps the last non-empty one). */
export function redrawsIn(raw: string): number {
  return Math.max(0, redrawSegments(raw).n - 1);
}

export function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n || 1;
}

/**
 * A marker as a line of the output. After a line with no terminator (`dangling`: only the
 * input's last line can be one) it starts a line of its own, or it would glue onto that line
 * and a failure line such as `Killed` would no longer be a line of the output.
 */
export function markerLine(note: string, handle: string, eol: string | undefined, dangling: boolean): string {
  return (dangling ? '\n' : '') + formatMarker(note, handle) + (eol || '\n');
}

/** The most a rewritten form's phrases may take in a receipt (the receipt reserve counts on it). */
export const REWRITE_NOTES_MAX_BYTES = 200;

/**
 * A rewritten form's phrases for its receipt ("one line per commit"), as many as fit in
 * REWRITE_NOTES_MAX_BYTES. A rewritten form says what it did; its own counts would only repeat it.
 */
export function rewriteNotes(rewrites: readonly string[]): string[] {
  const out: string[] = [];
  let n = 0;
  for (const r of rewrites) {
    n += Buffer.byteLength(r) + 2;
    if (n > REWRITE_NOTES_MAX_BYTES) break;
    out.push(r);
  }
  return out;
}
