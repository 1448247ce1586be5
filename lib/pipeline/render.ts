import type { Transform } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { transform } from '../kit/streams.js';
import type { Batch, Item, Line, Marker, PipelineContext } from './types.js';
import { BATCH_QUEUE, type RunState } from './stage.js';
import type { Coverage, Spool } from './spool.js';
import { redrawSegments } from './frame.js';
import { formatMarker, HANDLE_PLACEHOLDER, lineByteLength, runBytes } from './marker.js';
import { bytesMasker, maskSecrets } from './redact.js';

/** exec and pipe hold output this long before streaming (README: "the hold-back window"). */
export const DEFAULT_HOLD_BYTES = 256 << 10;
export const DEFAULT_HOLD_MS = 2000;
/**
 * …but stops holding sooner once the command has gone quiet this long: a dev server's or a
 * `sleep`ing script's first line shows within about half a second, while a command that is
 * busy printing (npm starting node, a test run) is still judged whole, so its failure can
 * come back verbatim. 500 ms covers npm's own start-up gap on a loaded 2-core machine.
 */
export const DEFAULT_HOLD_IDLE_MS = 500;
/** OMNI_MASK=all over passthrough text: a line longer than this goes out masked in pieces. */
const PASS_MASK_LINE_MAX = 1 << 20;
/** A distillation must save at least this many bytes… */
export const GATE_MIN_SAVED_BYTES = 100;
/** …and this share of the input, or the raw bytes go out instead. */
export const GATE_MIN_SAVED_RATIO = 0.1;

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

function shown(l: Line): string | Buffer {
  return l.bytes ? asCame(l) : (l.out ?? l.plain ?? l.text) + l.eol;
}

/**
 * A line as it came, with its secret values masked: what goes out wherever the raw line would.
 * A line that is not UTF-8 is its exact bytes.
 */
function asCame(l: Line): string | Buffer {
  if (l.bytes && l.masked === undefined) return Buffer.concat([l.bytes, Buffer.from(l.eol, 'latin1')]);
  return (l.masked ?? l.raw ?? l.text) + l.eol;
}

/**
 * Output text in which some lines are their exact bytes (not UTF-8): strings are joined as
 * strings, and a buffer only where such a line stands.
 */
class Chunks {
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
const sizeOf = (x: string | Buffer): number => (typeof x === 'string' ? Buffer.byteLength(x) : x.length);

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

/** What the closing receipt of a streamed run counts: only what really went out changed. */
interface StreamTally {
  colourLines: number;
  condensedLines: number;
  redraws: number;
  blankLines: number;
  /** Lines a rewritten form left out (a gap in the raw order that is not blank). */
  leftOut: number;
  /** Fold markers printed with a handle. */
  markers: number;
}

/** Optional hooks from createPipeline. */
export interface RenderHooks {
  /** Notes, per buffer written, the raw offset the output then covers. */
  coverage?: Coverage;
  /**
   * The run is passthrough and output covers the raw input up to `covered`: from here the
   * caller copies raw chunks straight to the output, and render writes nothing more.
   */
  handOver?: (covered: number) => void;
}

/**
 * render and the final gate: Item batches -> bytes.
 *
 * While holding, nothing is written; at the end the gate picks the distilled or the raw
 * bytes (a failing exit, a lost failure line, or too little saved means raw). Past the
 * hold window it streams: every marker is archived before it is written, and a closing
 * receipt names the whole raw output when something went out changed in place.
 *
 * The streaming budget (P2 never larger, P1 every normalisation has its receipt):
 *   bank = raw bytes the output covers − bytes written. A fold marker goes out only when
 *   it is no larger than the lines it hides (it names its own handle and owes no receipt).
 *   A batch's lines go out in their short form (colour stripped, redraw folded, condensed,
 *   secret masked), and its squeezed blank lines stay out, only when the bank after the
 *   batch still holds RECEIPT_RESERVE_BYTES, the most a closing receipt can cost; otherwise
 *   that batch's lines go out raw (blank lines and all) and owe no receipt. So after every
 *   batch written <= covered, once a receipt is owed the bank never falls below the reserve,
 *   and the receipt at the end always fits in it: a streamed output is never larger than
 *   its input. The bank starts empty, so the first batch (what was held) must itself save
 *   the reserve. With nothing changed in place and nothing folded there is no receipt and no
 *   marker at all: the output is the raw bytes, failing exit or not (defect 6).
 */
export function render(ctx: PipelineContext, run: RunState, spool: Spool, report: RenderReport, hooks: RenderHooks = {}): Transform {
  const holdBytes = ctx.holdBytes ?? DEFAULT_HOLD_BYTES;
  let held: Item[] = [];
  let mode: 'held' | 'streaming' | 'raw' | 'handed' = 'held';
  let rawEmitted = 0; // raw offset already covered by output (streaming/raw)
  let lastEnd = 0;
  let removedOther = 0; // bytes removed without a marker (colour codes, redraws, blank lines, condensed lines)
  const tally = { colourLines: 0, condensedLines: 0 };
  const st: StreamTally = { colourLines: 0, condensedLines: 0, redraws: 0, blankLines: 0, leftOut: 0, markers: 0 };
  let receiptOwed = false;

  // Whether the output so far ends a line: a closing receipt after a last line with no
  // newline starts a line of its own instead of being glued onto (and cutting) that line.
  let endsLine = true;
  const out = (t: Transform, s: string | Buffer) => {
    if (!s.length) return;
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    report.outBytes += b.length;
    endsLine = b[b.length - 1] === 0x0a;
    report.rawCovered = rawEmitted;
    hooks.coverage?.note(report.outBytes, rawEmitted);
    t.push(b);
  };

  const archive = (data: Buffer): string | null => {
    if (!ctx.archive) return null;
    try {
      return ctx.archive.put(data);
    } catch {
      return null;
    }
  };

  const archiveMarkers = (items: Item[]): Array<string | null> => {
    const markers = items.filter((i): i is Marker => i.kind === 'marker');
    if (!markers.length) return [];
    const raws = markers.map((m) => runBytes(m.hidden));
    return !ctx.archive ? raws.map(() => null)
      : ctx.archive.putMany ? safe(() => ctx.archive!.putMany!(raws), raws.map(() => null))
      : raws.map((r) => archive(r));
  };

  /**
   * True while the last thing rendered is a line with no terminator (only the input's last line
   * can be one): a marker after it starts a line of its own, or it would glue onto that line
   * and a failure line such as `Killed` would no longer be a line of the output.
   */
  let dangling = false;
  const markerLine = (note: string, handle: string, eol: string | undefined): string => {
    const line = (dangling ? '\n' : '') + formatMarker(note, handle) + (eol || '\n');
    dangling = false;
    return line;
  };

  /** Held to the end: render everything; the gate then judges the whole. */
  const renderItems = (items: Item[]): Chunks => {
    const handles = archiveMarkers(items);
    let k = 0;
    const s = new Chunks();
    for (const it of items) {
      if (it.kind === 'line') {
        const vis = shown(it);
        s.add(vis);
        dangling = it.eol === '';
        if (!it.bytes && (it.raw !== undefined || it.out !== undefined || (it.plain !== undefined && it.plain !== it.text))) {
          // Compared with the line as it came, secrets masked: a mask alone is no removal and
          // owes no receipt.
          const came = asCame(it);
          if (vis !== came) {
            removedOther += Math.max(0, sizeOf(came) - sizeOf(vis));
            if (it.plain !== undefined && it.plain !== it.text && (it.out === undefined || it.redacted)) tally.colourLines++;
            else if (it.out !== undefined && !(it.redacted && it.raw !== undefined)) tally.condensedLines++;
          }
        }
        if (it.end > rawEmitted) rawEmitted = it.end;
        continue;
      }
      const handle = handles[k++];
      const last = it.hidden[it.hidden.length - 1];
      if (last && last.end > rawEmitted) rawEmitted = last.end;
      if (!handle) {
        for (const h of it.hidden) s.add(asCame(h));
        if (last) dangling = last.eol === '';
        continue;
      }
      s.add(markerLine(it.note, handle, last?.eol));
    }
    return s;
  };

  /** Raw offset up to which a reordered batch went out as its raw bytes (secrets masked). */
  let rawCut = 0;
  /** Streaming: render one batch under the budget described above. */
  const renderStream = (items: Item[]): Buffer => {
    const handles = archiveMarkers(items);
    // One pass builds the batch both ways: `short` with lines changed in place and squeezed
    // blank lines left out, `asIs` with those lines as they came (folds in both).
    const short = new Chunks();
    const asIs = new Chunks();
    let shortBytes = 0;
    let differs = false;
    const from = rawEmitted;
    let at = rawEmitted;
    // A rewritten form (git log's one line per commit) leaves lines out; its receipt names the
    // whole raw output. Without the budget for that receipt the batch's raw bytes go out
    // instead, since `asIs` would lack the lines left out.
    let inOrder = true;
    const b: StreamTally = { colourLines: 0, condensedLines: 0, redraws: 0, blankLines: 0, leftOut: 0, markers: 0 };
    const gapBefore = (start: number) => {
      if (start <= at) return;
      const text = spool.slice(at, start).toString('utf8');
      // Squeezed blank lines leave a gap, and so do the lines a rewritten form left out: the
      // short form goes without them and owes the receipt that names the whole raw output.
      if (text.trim() !== '') { inOrder = false; differs = true; b.leftOut += countLines(text); return; }
      differs = true;
      b.blankLines += countLines(text);
      asIs.add(text);
    };
    let k = 0;
    for (const it of items) {
      if (it.kind === 'line') {
        const rawLen = lineByteLength(it);
        if (it.end <= rawCut) continue; // already out as raw bytes (see below)
        if (it.end - rawLen > at) gapBefore(it.end - rawLen);
        else if (it.end - rawLen < at) inOrder = false;
        if (it.end > at) at = it.end;
        dangling = it.eol === '';
        if (it.raw === undefined && it.out === undefined && it.bytes === undefined && (it.plain === undefined || it.plain === it.text)) {
          const x = it.text + it.eol;
          short.add(x);
          asIs.add(x);
          shortBytes += rawLen;
          continue;
        }
        const vis = shown(it);
        const came = asCame(it);
        if (it.bytes || vis === came) {
          // Only masked (or bytes that are not UTF-8): it goes out so either way and owes no receipt.
          short.add(came);
          asIs.add(came);
          shortBytes += sizeOf(came);
          continue;
        }
        shortBytes += sizeOf(vis);
        differs = true;
        short.add(vis);
        asIs.add(came);
        if (it.plain !== undefined && it.plain !== it.text && (it.out === undefined || it.redacted)) b.colourLines++;
        else if (it.out !== undefined && !(it.redacted && it.raw !== undefined)) b.condensedLines++;
        if (it.raw !== undefined) b.redraws += redrawsIn(it.raw);
        continue;
      }
      const handle = handles[k++];
      const first = it.hidden[0];
      const last = it.hidden[it.hidden.length - 1];
      if (last && last.end <= rawCut) continue; // already out as raw bytes
      if (first && first.end - lineByteLength(first) > at) gapBefore(first.end - lineByteLength(first));
      else if (first && first.end - lineByteLength(first) < at) inOrder = false;
      if (last && last.end > at) at = last.end;
      // Unfolded, the hidden lines go out as they came, secrets masked.
      const hidden = it.hidden.map(asCame);
      const glue = dangling;
      const marker = handle ? markerLine(it.note, handle, last?.eol) : '';
      // A fold that does not pay for its marker is not made.
      const markerBytes = Buffer.byteLength(marker);
      const hiddenBytes = hidden.reduce((n, x) => n + sizeOf(x), 0);
      if (handle && markerBytes <= hiddenBytes) {
        dangling = false;
        st.markers++;
        shortBytes += markerBytes;
        short.add(marker);
        asIs.add(marker);
      } else {
        dangling = last ? last.eol === '' : glue;
        shortBytes += hiddenBytes;
        for (const x of hidden) { short.add(x); asIs.add(x); }
      }
    }
    if (at > rawEmitted) rawEmitted = at;
    // The batch changes lines in place only when the bank, with what this batch saves, still
    // holds the receipt's reserve afterwards; otherwise those lines go out as they came.
    // Without an archive no receipt can be written, so nothing changes in place.
    if (!differs || !ctx.archive || rawEmitted - report.outBytes - shortBytes < RECEIPT_RESERVE_BYTES) {
      if (inOrder) return asIs.toBuffer();
      // Later batches skip what this covers (a hider may still owe a marker for these lines).
      rawCut = at;
      return maskedRaw(spool.slice(from, at), items, from);
    }
    receiptOwed = true;
    st.colourLines += b.colourLines;
    st.condensedLines += b.condensedLines;
    st.redraws += b.redraws;
    st.blankLines += b.blankLines;
    st.leftOut += b.leftOut;
    return short.toBuffer();
  };

  /**
   * OMNI_MASK=all: a passthrough run of text (structured data, an error, OMNI_PASSTHROUGH) is
   * masked too, whole lines at a time; binary and invalid UTF-8 never are.
   */
  const maskPassthrough = () => ctx.maskAll === true && run.passthrough !== null && run.passthrough !== 'binary' && run.passthrough !== 'invalid-utf8';
  let passMasker: ((data: Buffer) => Buffer) | null = null;

  /** Copies the raw bytes from what output covers up to `upTo` (`last`: the input ends there). */
  const switchToRaw = (t: Transform, upTo: number, last = false) => {
    if (mode !== 'handed') mode = 'raw';
    const from = rawEmitted;
    if (!maskPassthrough()) {
      rawEmitted = Math.max(rawEmitted, upTo);
      out(t, spool.slice(from, upTo));
      return;
    }
    // Whole lines only, so a secret is never cut between two pieces; a line longer than the
    // spool's hold goes out in pieces rather than holding the stream.
    let to = upTo;
    if (!last) {
      const nl = spool.slice(from, upTo).lastIndexOf(10);
      if (nl < 0 && upTo - from < PASS_MASK_LINE_MAX) return;
      if (nl >= 0) to = from + nl + 1;
    }
    if (to <= from) return;
    passMasker ??= bytesMasker();
    rawEmitted = Math.max(rawEmitted, to);
    out(t, passMasker(spool.slice(from, to)));
  };

  /**
   * The raw bytes instead of the distilled form (the final gate said no): a failing exit goes
   * out byte for byte (rule 2) unless OMNI_MASK=all; otherwise the raw bytes with every secret
   * the redact stage found masked, so masking never depends on what the distillation saved.
   */
  const sendAsCame = (t: Transform, failedExit: boolean) => {
    rawEmitted = 0;
    if (failedExit && !ctx.maskAll) return switchToRaw(t, spool.total, true);
    if (mode !== 'handed') mode = 'raw';
    const raw = spool.all();
    const masked = maskedRaw(raw, held);
    rawEmitted = spool.total;
    report.changed = !masked.equals(raw);
    out(t, masked);
  };

  const startStreaming = (t: Transform) => {
    if (mode !== 'held') return;
    mode = 'streaming';
    report.streamed = true;
    run.startStreaming();
    if (run.passthrough) return switchToRaw(t, lastEnd);
    const items = held;
    held = [];
    out(t, renderStream(items));
  };

  /** Passthrough mid-run: output is raw up to `end`; from there the caller may copy directly. */
  const goRaw = (t: Transform, end: number) => {
    switchToRaw(t, end);
    // Masking passthrough text needs every byte to come through here.
    if (hooks.handOver && !maskPassthrough()) { mode = 'handed'; hooks.handOver(rawEmitted); }
  };

  const t: Transform = transform({
    writableObjectMode: true,
    writableHighWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc, cb) {
      try {
        if (mode === 'handed') return cb();
        lastEnd = batch.end;
        report.rawBytes = batch.end;
        if (mode === 'raw') { goRaw(t, batch.end); return cb(); }
        if (run.passthrough) {
          if (mode === 'held') { held = []; rawEmitted = 0; }
          goRaw(t, batch.end);
          return cb();
        }
        if (mode === 'streaming') { out(t, renderStream(batch.items)); return cb(); }
        for (const it of batch.items) held.push(it);
        if (batch.end > holdBytes) startStreaming(t);
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
    flush(cb) {
      try {
        ended = true;
        report.rawBytes = Math.max(report.rawBytes, spool.total);
        const failed = ctx.exitCode !== undefined && ctx.exitCode !== null && ctx.exitCode !== 0;
        if (mode === 'handed') {
          // The caller copies the rest: nothing more from here.
          report.verbatim ??= run.passthrough ?? 'passthrough';
          return cb();
        }
        if (mode === 'raw' || run.passthrough) {
          if (mode === 'held') rawEmitted = 0;
          switchToRaw(t, spool.total, true);
          report.verbatim ??= run.passthrough ?? 'passthrough';
          return cb();
        }
        if (mode === 'streaming') {
          // Bytes past the last item: squeezed trailing blank lines, under the same budget as
          // any other gap; anything else a stage kept back goes out raw (never lost).
          if (rawEmitted < spool.total) {
            const rest = spool.slice(rawEmitted, spool.total);
            const text = rest.toString('utf8');
            const bank = spool.total - report.outBytes;
            rawEmitted = spool.total;
            if (text.trim() === '' && bank >= RECEIPT_RESERVE_BYTES) { receiptOwed = true; st.blankLines += countLines(text); }
            else out(t, isUtf8(rest) ? Buffer.from(maskSecrets(text)) : rest);
          }
          report.changed = receiptOwed || st.markers > 0;
          if (!report.changed) return cb();
          const raw = spool.all();
          const capped = spool.truncated ? ` (first ${raw.length} bytes)` : '';
          const bank = rawEmitted - report.outBytes;
          const sep = endsLine ? '' : '\n';
          if (receiptOwed || (failed && receiptBytes(st, false, ctx.exitCode, capped, sep, []) <= bank)) {
            const handle = archive(raw);
            if (handle) {
              report.rawHandle = handle;
              out(t, streamReceipt(st, receiptOwed, failed ? ctx.exitCode : null, handle, capped, sep, run.rewrites));
            }
          }
          return cb();
        }
        // Held to the end: the final gate.
        const raw = spool.all();
        const verdict = gate(ctx, run, held, raw.length, failed);
        if (verdict) {
          report.verbatim = verdict;
          return sendAsCame(t, failed), cb();
        }
        removedOther = run.droppedBytes + run.leftOutBytes;
        const text = renderItems(held);
        // Masked secrets alone owe no receipt: a mask is no removal, and no marker may name a
        // handle that hands the value back.
        if (removedOther > 0 || tally.condensedLines > 0) {
          const handle = archive(raw);
          if (!handle) {
            report.verbatim = 'archive-failed';
            return sendAsCame(t, false), cb();
          }
          report.rawHandle = handle;
          text.add(footer(tally, run, handle, text.open, ''));
        }
        const outBuf = text.toBuffer();
        // Every branch that gives up on the distilled form sends the raw bytes with the secrets
        // masked, which are never larger than the input, so no held output is.
        if (outBuf.length >= raw.length || raw.length - outBuf.length < GATE_MIN_SAVED_BYTES) {
          report.verbatim = 'too-little-saved';
          return sendAsCame(t, false), cb();
        }
        report.changed = !outBuf.equals(raw);
        rawEmitted = spool.total;
        out(t, outBuf);
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
  });
  // The hold timer (started by createPipeline at the first raw byte) ends holding.
  let ended = false;
  run.onStreaming(() => { if (!ended) startStreaming(t); });
  return t;
}

/** `a\rb\rc`: the segments drawn over (frame keeps the last non-empty one). */
function redrawsIn(raw: string): number {
  return Math.max(0, redrawSegments(raw).n - 1);
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n || 1;
}

/**
 * The closing receipt of a streamed run. `inPlace`: lines went out changed in place, so it
 * names the whole raw output (P1). Otherwise only a failing exit asks for one, and only
 * when something was folded.
 */
function streamReceipt(st: StreamTally, inPlace: boolean, exitCode: number | null | undefined, handle: string, capped: string, sep: string, rewrites: readonly string[]): string {
  const what: string[] = [];
  if (st.colourLines) what.push(`colour codes on ${st.colourLines} lines`);
  if (st.redraws) what.push(`${st.redraws} progress redraws`);
  if (st.blankLines) what.push(`${st.blankLines} blank lines`);
  const parts: string[] = [];
  if (exitCode !== null && exitCode !== undefined) parts.push(`exit ${exitCode}: output was condensed while streaming`);
  if (inPlace) {
    // A rewritten form says what it did; its own counts would only repeat it.
    const said = rewriteNotes(rewrites);
    parts.push(...said);
    if (what.length) parts.push(`${what.join(', ')} removed`);
    if (!said.length && st.leftOut) parts.push(`${st.leftOut} lines left out`);
    if (!said.length && st.condensedLines) parts.push(`${st.condensedLines} lines condensed`);
    if (!parts.length) parts.push('output condensed');
  }
  const scope = inPlace ? `whole output${capped}` : `full output${capped}`;
  return sep + formatMarker(`${parts.join('; ')}; ${scope}`, handle) + '\n';
}

function receiptBytes(st: StreamTally, inPlace: boolean, exitCode: number | null | undefined, capped: string, sep: string, rewrites: readonly string[]): number {
  return Buffer.byteLength(streamReceipt(st, inPlace, exitCode, HANDLE_PLACEHOLDER, capped, sep, rewrites));
}

/** The most a rewritten form's phrases may take in a receipt (the reserve below counts on it). */
const REWRITE_NOTES_MAX_BYTES = 200;

/** A rewritten form's phrases for its receipt, as many as fit in REWRITE_NOTES_MAX_BYTES. */
function rewriteNotes(rewrites: readonly string[]): string[] {
  const out: string[] = [];
  let n = 0;
  for (const r of rewrites) {
    n += Buffer.byteLength(r) + 2;
    if (n > REWRITE_NOTES_MAX_BYTES) break;
    out.push(r);
  }
  return out;
}

/** The most a closing receipt can cost: every count at ten digits, a failing exit, a cap. */
export const RECEIPT_RESERVE_BYTES = (() => {
  const n = 9_999_999_999;
  const all: StreamTally = { colourLines: n, condensedLines: n, redraws: n, blankLines: n, leftOut: n, markers: n };
  return receiptBytes(all, true, n, ` (first ${n} bytes)`, '\n', ['x'.repeat(REWRITE_NOTES_MAX_BYTES - 2)]);
})();

function safe<T>(fn: () => T, fallback: T): T {
  try { return fn(); } catch { return fallback; }
}

/**
 * The receipt for removals no marker covers: it names the whole raw output's handle. Masked
 * secrets are not among them (`omni retrieve` masks them again; a person reads them with
 * `omni retrieve --reveal`).
 */
function footer(tally: { colourLines: number; condensedLines: number }, run: RunState, handle: string, open: boolean, capped: string): string {
  const what: string[] = [];
  if (tally.colourLines) what.push(`colour codes on ${tally.colourLines} lines`);
  if (run.redraws) what.push(`${run.redraws} progress redraws`);
  if (run.droppedLines) what.push(`${run.droppedLines} blank lines`);
  const removed = what.length ? `${what.join(', ')} removed` : '';
  // A rewritten form says what it did; its own counts would only repeat it.
  const said = rewriteNotes(run.rewrites);
  const left = !said.length && run.leftOutLines ? `${run.leftOutLines} lines left out` : '';
  const condensed = !said.length && tally.condensedLines ? `${tally.condensedLines} lines condensed` : '';
  const note = [...said, removed, left, condensed].filter(Boolean).join('; ') || 'output condensed';
  const sep = open ? '\n' : '';
  return sep + formatMarker(`${note}; whole output${capped}`, handle) + '\n';
}
/** Pure: why the distilled form must not go out, or null when it may. */
export function gate(ctx: PipelineContext, run: RunState, items: Item[], rawBytes: number, failed: boolean): string | null {
  if (failed) return `exit ${ctx.exitCode}`;
  // A host's Read is a file's text, not a tool's report: a source line that looks like a
  // failure (`raise ValueError(…)`) states none, and the ledger may fold a head the reader holds.
  const fileText = ctx.tool === 'Read';
  let failures = 0;
  let est = 0;
  for (const it of items) {
    if (it.kind === 'line') {
      if (it.tier === 'failure') failures++;
      est += (it.out ?? it.plain ?? it.text).length + it.eol.length;
    } else {
      if (!fileText) for (const h of (it as Marker).hidden) if (h.tier === 'failure') return 'a failure line was hidden';
      est += formatMarker(it.note, HANDLE_PLACEHOLDER).length + 1;
    }
  }
  // Stages may raise a line to `failure` (a failure block's context), never lower one.
  if (!fileText && failures < run.failureLines) return 'a failure line was lost';
  const saved = rawBytes - est;
  if (saved < GATE_MIN_SAVED_BYTES || saved < rawBytes * GATE_MIN_SAVED_RATIO) return 'too-little-saved';
  return null;
}
