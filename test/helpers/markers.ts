/**
 * Checkers for the rules as properties (issue 10, P1-P7). Each takes what a door got and what
 * it delivered and returns null when the rule holds, or a one-paragraph reason when it does
 * not. They know nothing about how omni distils: they read markers, ask the store for the
 * bytes a handle names, and compare with the input.
 */
import { isUtf8 } from 'node:buffer';
import stripAnsi from 'strip-ansi';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { classifyLine, ownLines } from '../../lib/pipeline/classify.js';
import { Owner } from '../../lib/pipeline/distill.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { RunState } from '../../lib/kit/stage.js';
import type { Line } from '../../lib/kit/types.js';

/** What a handle retrieves (null: nothing under it). */
export type Retrieve = (handle: string) => Buffer | null;

/** One line of a buffer: its bytes with and without the terminator. */
export interface RawLine {
  /** Bytes without the terminator ('\n' or '\r\n'). */
  body: Buffer;
  /** '\n', '\r\n' or '' (last line without one). */
  eol: string;
  /** Byte offsets in the whole buffer: [start, end) including the terminator. */
  start: number;
  end: number;
}

export function splitLines(buf: Buffer): RawLine[] {
  const out: RawLine[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) {
      out.push({ body: buf.subarray(pos), eol: '', start: pos, end: buf.length });
      break;
    }
    const cr = nl > pos && buf[nl - 1] === 13;
    out.push({ body: buf.subarray(pos, cr ? nl - 1 : nl), eol: cr ? '\r\n' : '\n', start: pos, end: nl + 1 });
    pos = nl + 1;
  }
  return out;
}

/**
 * Any `[omni:` text, well formed or not: what P6 looks at. A note may quote a line holding `]`
 * (`[3569]`, `[0.02ms]`): a marker runs to its handle when it has one, else to its first `]`.
 */
const ANY_MARKER = /\[omni:(?:(?!\[omni:).)*? — omni retrieve [0-9a-f]{16}\]|\[omni:[^\]]*\]?/g;
/** A marker with a handle, anywhere in a line. */
const HANDLED = /\[omni: (.*?) — omni retrieve ([0-9a-f]{16})\]/g;
/** The Read door's head fold: `[omni: lines a-b not shown] <marker>` (a note with no handle). */
const READ_PREFIX = /^(?:\[omni: lines \d+-\d+ not shown\] )+/;

export interface MarkerRef {
  line: number;
  note: string;
  handle: string;
  text: string;
}

/** Every well-formed marker in the output, whole lines and in-line ones. */
export function markersIn(output: Buffer): MarkerRef[] {
  const refs: MarkerRef[] = [];
  splitLines(output).forEach((l, i) => {
    const s = l.body.toString('utf8');
    if (s.indexOf('[omni:') < 0) return;
    for (const m of s.matchAll(HANDLED)) refs.push({ line: i, note: m[1], handle: m[2], text: m[0] });
  });
  return refs;
}

/** The handle a whole output line stands for, when the line is a marker (the Read prefix allowed). */
function lineMarker(body: string): { note: string; handle: string } | null {
  if (body.indexOf('[omni:') < 0) return null;
  const m = MARKER_RE.exec(body.replace(READ_PREFIX, ''));
  return m ? { note: m[1], handle: m[2] } : null;
}

// ---------------------------------------------------------------------------------------------
// P6: every marker names a handle, and the handle retrieves.

export function checkHandles(output: Buffer, retrieve: Retrieve): string | null {
  const problems: string[] = [];
  splitLines(output).forEach((l, i) => {
    const s = l.body.toString('utf8');
    if (s.indexOf('[omni:') < 0) return;
    for (const m of s.matchAll(ANY_MARKER)) {
      const h = /^\[omni: .* — omni retrieve ([0-9a-f]{16})\]$/.exec(m[0]);
      if (!h) problems.push(`line ${i + 1}: marker without a handle: ${JSON.stringify(m[0].slice(0, 160))}`);
      else if (!retrieve(h[1])) problems.push(`line ${i + 1}: handle ${h[1]} retrieves nothing: ${JSON.stringify(m[0].slice(0, 160))}`);
    }
  });
  return problems.length ? problems.slice(0, 5).join('; ') : null;
}

// ---------------------------------------------------------------------------------------------
// P2: never larger.

export function checkNotLarger(input: Buffer, output: Buffer): string | null {
  return output.length > input.length ? `output is ${output.length} B, larger than its ${input.length} B input (+${output.length - input.length} B)` : null;
}

// ---------------------------------------------------------------------------------------------
// P4: untouched.

export function checkIdentical(input: Buffer, output: Buffer): string | null {
  if (output.equals(input)) return null;
  const at = firstDiff(input, output);
  return `output differs from the input at byte ${at} (input ${input.length} B, output ${output.length} B): input ${snippet(input, at)} vs output ${snippet(output, at)}`;
}

export function firstDiff(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function snippet(b: Buffer, at: number): string {
  return JSON.stringify(b.subarray(Math.max(0, at - 40), at + 60).toString('utf8'));
}

// ---------------------------------------------------------------------------------------------
// P1: nothing lost, in place.

/** In-line normalisations P1 allows (with a whole-input handle): the forms a line may be shown in. */
export function lastFrame(s: string): string {
  if (s.indexOf('\r') < 0) return s;
  let last = '';
  for (const seg of s.split('\r')) if (seg.length) last = seg;
  return last;
}

function lineForms(s: string): string[] {
  const f = lastFrame(s);
  return [...new Set([s, f, stripAnsi(s), stripAnsi(f)])];
}

/** `shown` is `raw` with some secret values masked as `***`. */
function maskedEqual(shown: string, raw: string): boolean {
  if (shown.indexOf('***') < 0) return false;
  const parts = shown.split('***').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+?')}$`, 's').test(raw);
}

/**
 * `output` is `input` with some secret values masked as `***` and nothing else changed: the same
 * lines with the same terminators, each one exact or a masked form of its input line.
 */
export function maskedOnly(input: Buffer, output: Buffer): boolean {
  const a = splitLines(input);
  const b = splitLines(output);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].eol !== b[i].eol) return false;
    if (a[i].body.equals(b[i].body)) continue;
    if (!maskedEqual(b[i].body.toString('utf8'), a[i].body.toString('utf8'))) return false;
  }
  return true;
}

/** An output line is an input line as shown (exact, colour removed, redraw reduced, secrets masked). */
export function shownAs(out: string, raw: string): boolean {
  for (const f of lineForms(raw)) if (out === f || maskedEqual(out, f)) return true;
  return false;
}

export interface Expanded {
  /** The output with every marker that retrieves replaced by its bytes. */
  bytes: Buffer;
  /** A marker retrieves the whole input. */
  wholeHandle: string | null;
  /** Markers whose handle retrieves nothing. */
  unknown: string[];
}

/** Replace every marker line (and its terminator) by the bytes its handle retrieves. */
export function expandMarkers(output: Buffer, input: Buffer, retrieve: Retrieve, opts: { skipWhole?: boolean } = {}): Expanded {
  const parts: Buffer[] = [];
  let wholeHandle: string | null = null;
  const unknown: string[] = [];
  for (const l of splitLines(output)) {
    const m = lineMarker(l.body.toString('utf8'));
    const blob = m ? retrieve(m.handle) : null;
    if (!m || !blob) {
      if (m) unknown.push(m.handle);
      parts.push(l.body, Buffer.from(l.eol));
      continue;
    }
    const whole = blob.equals(input);
    if (whole) wholeHandle = m.handle;
    if (whole && opts.skipWhole) continue;
    parts.push(blob);
  }
  return { bytes: Buffer.concat(parts), wholeHandle, unknown };
}

/**
 * P4 for text with bytes that are not UTF-8: every line that is not goes out whole, as it came
 * (an undecodable byte costs its own line, never the rest of the output).
 */
export function checkUndecodableKept(input: Buffer, output: Buffer): string | null {
  const out = new Set(splitLines(output).map((l) => l.body.toString('latin1')));
  for (const l of splitLines(input)) {
    if (isUtf8(l.body)) continue;
    if (!out.has(l.body.toString('latin1'))) return `the line ${JSON.stringify(l.body.toString('latin1').slice(0, 80))} is not valid UTF-8 and is not in the output as it came`;
  }
  return null;
}

/**
 * P1. Expanding every marker in place gives back the input byte for byte; or, when the output
 * names a handle that retrieves the whole input, every fold marker's bytes are a contiguous run
 * of the input standing in order where that run stood (lines between may be shown normalised or
 * rewritten, since the whole input is one retrieve away).
 */
export function checkNothingLost(input: Buffer, output: Buffer, retrieve: Retrieve): string | null {
  const strict = expandMarkers(output, input, retrieve);
  // Secret values masked in place owe no receipt (no marker may hand them back).
  if (strict.bytes.equals(input) || maskedOnly(input, strict.bytes)) return null;
  const noWhole = expandMarkers(output, input, retrieve, { skipWhole: true });
  if (noWhole.bytes.equals(input) || maskedOnly(input, noWhole.bytes)) return null;
  if (strict.unknown.length) return `marker handle(s) ${strict.unknown.join(', ')} retrieve nothing, so their bytes are lost`;
  if (!strict.wholeHandle) {
    const at = firstDiff(input, strict.bytes);
    // Say which fold is out of place when one is: that is what a fixer needs first.
    const fold = alignFolds(input, output, retrieve);
    return `expanding the markers in place does not give back the input and no handle retrieves the whole input${fold ? ` (${fold})` : ''}: first difference at byte ${at} of ${input.length}: input ${snippet(input, at)} vs expanded ${snippet(strict.bytes, at)}`;
  }
  return alignFolds(input, output, retrieve);
}

/** With a whole-input handle: every fold stands, in order, where its contiguous run stood. */
function alignFolds(input: Buffer, output: Buffer, retrieve: Retrieve): string | null {
  const inLines = splitLines(input);
  const inText = inLines.map((l) => l.body.toString('utf8'));
  const lineAt = new Map<number, number>();
  inLines.forEach((l, i) => lineAt.set(l.start, i));
  let p = 0; // next input line not yet accounted for
  const outLines = splitLines(output);
  for (let k = 0; k < outLines.length; k++) {
    const body = outLines[k].body.toString('utf8');
    const m = lineMarker(body);
    const blob = m ? retrieve(m.handle) : null;
    if (m && blob) {
      if (blob.equals(input)) continue;
      // The earliest place at or after p where the blob's bytes start on a line boundary.
      let found = -1;
      for (let j = p; j < inLines.length; j++) {
        const at = inLines[j].start;
        if (at + blob.length > input.length) break;
        if (input.subarray(at, at + blob.length).equals(blob) && (at + blob.length === input.length || lineAt.has(at + blob.length))) { found = j; break; }
      }
      if (found >= 0) {
        p = at2line(inLines, lineAt, inLines[found].start + blob.length);
        continue;
      }
      const elsewhere = input.indexOf(blob) >= 0;
      return elsewhere
        ? `output line ${k + 1}: marker "${m.note}" stands away from the run it hides (its bytes are in the input, but before what the output already showed)`
        : `output line ${k + 1}: marker "${m.note}" hides ${blob.length} B that are not one contiguous run of the input (lines from several places)`;
    }
    // A literal line: consumes the earliest input line it is a form of; otherwise a rewrite.
    for (let j = p; j < inLines.length; j++) {
      if (shownAs(body, inText[j])) { p = j + 1; break; }
    }
  }
  return null;
}

function at2line(lines: RawLine[], lineAt: Map<number, number>, offset: number): number {
  return offset >= (lines.length ? lines[lines.length - 1].end : 0) ? lines.length : lineAt.get(offset)!;
}

/**
 * Every marker stands for one contiguous run of the input, where that run stood: strict, for
 * outputs whose lines are the input's (some condensed, some left out, as a rewritten form does).
 * Walking the output in order, a marker's bytes must be whole input lines that start at or after
 * every input line the output showed before it, and a shown line that is one of the input's must
 * stand at or after every run and line shown before it. A marker that retrieves the whole input
 * (the receipt) stands anywhere; a line no input line reads as is a condensed one.
 */
export function checkInPlace(input: Buffer, output: Buffer, retrieve: Retrieve): string | null {
  const inLines = splitLines(input);
  const inText = inLines.map((l) => l.body.toString('utf8'));
  const lineAt = new Map<number, number>();
  inLines.forEach((l, i) => lineAt.set(l.start, i));
  const known = new Set(inText);
  let p = 0;
  const outLines = splitLines(output);
  for (let k = 0; k < outLines.length; k++) {
    const body = outLines[k].body.toString('utf8');
    const m = lineMarker(body);
    if (m) {
      const blob = retrieve(m.handle);
      if (!blob) return `output line ${k + 1}: marker "${m.note}" retrieves nothing`;
      if (blob.equals(input)) continue;
      let found = -1;
      for (let j = p; j < inLines.length; j++) {
        const at = inLines[j].start;
        if (at + blob.length > input.length) break;
        if (input.subarray(at, at + blob.length).equals(blob) && (at + blob.length === input.length || lineAt.has(at + blob.length))) { found = j; break; }
      }
      if (found < 0) {
        return input.indexOf(blob) >= 0
          ? `output line ${k + 1}: marker "${m.note}" stands away from the run it hides (its bytes come before what the output already showed)`
          : `output line ${k + 1}: marker "${m.note}" hides ${blob.length} B that are not one contiguous run of the input (lines from several places)`;
      }
      p = at2line(inLines, lineAt, inLines[found].start + blob.length);
      continue;
    }
    let j = p;
    while (j < inLines.length && !shownAs(body, inText[j])) j++;
    if (j < inLines.length) { p = j + 1; continue; }
    if (known.has(body)) return `output line ${k + 1} ${JSON.stringify(body.slice(0, 120))} stands after a marker or a line that came after it in the input`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// P3: failures.

/**
 * The input's failure lines (the classifier's own definition of a line that states a failure,
 * with the lines of the spec that owns the run: routed by `command`, else by the first lines),
 * as shown.
 */
export function failureLines(input: Buffer, command?: string): string[] {
  const plains = splitLines(input).map((l) => stripAnsi(lastFrame(l.body.toString('utf8'))));
  const owner = new Owner(describeRun({ door: 'pipe', command }), new RunState());
  const lines = plains.map((plain, index): Line => ({ kind: 'line', text: plain, plain, eol: '\n', tier: 'text', index, end: 0 }));
  owner.choose(lines);
  // A mixed run (a chain, `npm test`): the tools its head names, each one's own lines.
  if (owner.mix) owner.observe(lines);
  const own = ownLines(owner.tool);
  const out: string[] = [];
  let prev: string | null = null;
  plains.forEach((plain, i) => {
    if (classifyLine(plain, prev, owner.mix ? owner.ownAt(i) : own) === 'failure') out.push(plain);
    prev = plain;
  });
  return out;
}

/**
 * Past the hold window: every failure line is present, and a marker appears only if something
 * was removed. `command`: the command line the output came from, when known.
 */
export function checkFailuresKept(input: Buffer, output: Buffer, retrieve: Retrieve, command?: string): string | null {
  const outText = splitLines(output).map((l) => l.body.toString('utf8'));
  const shown = new Set<string>();
  for (const o of outText) { shown.add(o); shown.add(stripAnsi(o)); }
  const missing = failureLines(input, command).filter((f) => !shown.has(f) && !outText.some((o) => maskedEqual(stripAnsi(o), f)));
  if (missing.length) {
    const glued = outText.find((o) => stripAnsi(o).includes(missing[0]));
    return glued !== undefined
      ? `failure line ${JSON.stringify(missing[0].slice(0, 200))} is not a whole line of the output: it is part of ${JSON.stringify(glued.slice(0, 300))}`
      : `${missing.length} failure line(s) missing from the output, e.g. ${JSON.stringify(missing[0].slice(0, 200))}`;
  }
  return checkNoFalseMarker(input, output, retrieve);
}

/**
 * A marker only when something was removed: deleting the markers that retrieve the whole input
 * (the streaming receipts) must not leave exactly the raw bytes. A fold marker always stands for
 * removed lines, so it is never false.
 */
export function checkNoFalseMarker(input: Buffer, output: Buffer, retrieve: Retrieve): string | null {
  const kept: Buffer[] = [];
  let receipt: string | null = null;
  for (const l of splitLines(output)) {
    const m = lineMarker(l.body.toString('utf8'));
    if (m && retrieve(m.handle)?.equals(input)) { receipt = l.body.toString('utf8'); continue; }
    kept.push(l.body, Buffer.from(l.eol));
  }
  const rest = Buffer.concat(kept);
  // A receipt after a last line with no newline brings its own separator.
  const same = rest.equals(input) || (!input.subarray(-1).equals(Buffer.from('\n')) && rest.equals(Buffer.concat([input, Buffer.from('\n')])));
  if (receipt !== null && same) return `a marker (${JSON.stringify(receipt.slice(0, 160))}) was added though nothing was removed: without it the output is the raw bytes`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// P7: ledger truth.

/**
 * How the ledger compares lines: trimmed, without colour, and a `\r` redraw as its last
 * non-empty frame (what a terminal, and omni's delivery, show of it; P1 allows the same).
 */
export function ledgerKey(s: string): string {
  const body = s.replace(/\r$/, '');
  const frames = body.includes('\r') ? body.split('\r').filter((f) => f.length > 0) : [body];
  return stripAnsi(frames[frames.length - 1] ?? '').trim();
}

export function shownKeys(delivered: Buffer | string): Set<string> {
  const s = new Set<string>();
  for (const l of (typeof delivered === 'string' ? delivered : delivered.toString('utf8')).split('\n')) {
    const k = ledgerKey(l.replace(/\r$/, ''));
    if (k) s.add(k);
  }
  return s;
}

/**
 * "N lines already shown" folds only lines `seen` holds (what earlier deliveries to this reader
 * contained, as delivered); "not shown here (seen in another session)" only lines `elsewhere` holds.
 */
export function checkLedger(output: Buffer, retrieve: Retrieve, seen: Set<string>, elsewhere: Set<string>): string | null {
  for (const m of markersIn(output)) {
    const own = /lines already shown/.test(m.note);
    const other = /not shown here/.test(m.note);
    if (!own && !other) continue;
    const blob = retrieve(m.handle);
    if (!blob) return `marker "${m.note}" retrieves nothing`;
    const set = own ? seen : elsewhere;
    const never = splitLines(blob).map((l) => ledgerKey(l.body.toString('utf8'))).filter((k) => k && !set.has(k));
    if (never.length) return `marker "${m.note}" folds ${never.length} line(s) the reader was never delivered, e.g. ${JSON.stringify(never[0].slice(0, 120))}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The Read door: the host numbers the reply's lines from its startLine, so every line that is
// not a marker must be the file's line of that number.

export function checkReadNumbering(content: string, startLine: number, reply: string, replyStart: number): string | null {
  const file = content.split('\n');
  const lines = reply.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const n = replyStart + k;
    if (lines[k].startsWith('[omni:')) continue;
    const idx = n - startLine;
    if (idx < 0 || idx >= file.length) return `reply line ${k + 1} is numbered ${n}, a line the read (lines ${startLine}-${startLine + file.length - 1}) does not have`;
    if (file[idx] !== lines[k]) return `reply line ${k + 1} is numbered ${n} but the file's line ${n} is ${JSON.stringify(file[idx].slice(0, 80))}, not ${JSON.stringify(lines[k].slice(0, 80))}`;
  }
  return null;
}
