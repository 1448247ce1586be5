import { Transform } from 'node:stream';
import type { Batch, Item, Line, Marker, PipelineContext } from './types.js';
import { BATCH_QUEUE, type RunState } from './stage.js';
import type { Spool } from './spool.js';
import { formatMarker, HANDLE_PLACEHOLDER, lineBytes, runBytes } from './marker.js';

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

function shown(l: Line): string {
  return (l.out ?? l.plain ?? l.text) + l.eol;
}

/**
 * render and the final gate: Item batches -> bytes.
 *
 * While holding, nothing is written; at the end the gate picks the distilled or the raw
 * bytes (a failing exit, a lost failure line, or too little saved means raw). Past the
 * hold window it streams: every marker is archived before it is written, and a failing
 * exit ends with a marker naming the full raw output.
 */
export function render(ctx: PipelineContext, run: RunState, spool: Spool, report: RenderReport): Transform {
  const holdBytes = ctx.holdBytes ?? DEFAULT_HOLD_BYTES;
  let held: Item[] = [];
  let mode: 'held' | 'streaming' | 'raw' = 'held';
  let rawEmitted = 0; // raw offset already covered by output (streaming/raw)
  let lastEnd = 0;
  let removedOther = 0; // bytes removed without a marker (colour codes, redraws, blank lines, condensed lines)
  const tally = { colourLines: 0, condensedLines: 0 };

  const out = (t: Transform, s: string | Buffer) => {
    if (!s.length) return;
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    report.outBytes += b.length;
    report.rawCovered = rawEmitted;
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

  /** Render items; markers are archived first and expand to their lines if that fails. */
  const renderItems = (items: Item[]): string => {
    // Archive every marker's lines first, in one write, then print.
    const markers = items.filter((i): i is Marker => i.kind === 'marker');
    const raws = markers.map((m) => runBytes(m.hidden));
    const handles = !ctx.archive ? raws.map(() => null)
      : ctx.archive.putMany ? safe(() => ctx.archive!.putMany!(raws), raws.map(() => null))
      : raws.map((r) => archive(r));
    let k = 0;
    let s = '';
    for (const it of items) {
      if (it.kind === 'line') {
        const vis = shown(it);
        s += vis;
        if (it.raw !== undefined || it.out !== undefined || (it.plain !== undefined && it.plain !== it.text)) {
          removedOther += Math.max(0, Buffer.byteLength(lineBytes(it)) - Buffer.byteLength(vis));
          if (it.redacted) { /* counted by run.redactions */ }
          else if (it.out !== undefined) tally.condensedLines++;
          else if (it.plain !== undefined && it.plain !== it.text) tally.colourLines++;
        }
        if (it.end > rawEmitted) rawEmitted = it.end;
        continue;
      }
      const handle = handles[k++];
      const last = it.hidden[it.hidden.length - 1];
      if (last && last.end > rawEmitted) rawEmitted = last.end;
      if (!handle) {
        s += it.hidden.map(lineBytes).join('');
        continue;
      }
      s += formatMarker(it.note, handle) + (last?.eol || '\n');
    }
    return s;
  };

  const switchToRaw = (t: Transform, upTo: number) => {
    mode = 'raw';
    const b = spool.slice(rawEmitted, upTo);
    if (b) out(t, b);
    rawEmitted = upTo;
  };

  const startStreaming = (t: Transform) => {
    if (mode !== 'held') return;
    mode = 'streaming';
    report.streamed = true;
    run.startStreaming();
    if (run.passthrough) return switchToRaw(t, lastEnd);
    const items = held;
    held = [];
    out(t, renderItems(items));
  };

  const t: Transform = new Transform({
    writableObjectMode: true,
    writableHighWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc, cb) {
      try {
        lastEnd = batch.end;
        report.rawBytes = batch.end;
        if (mode === 'raw') { switchToRaw(t, batch.end); return cb(); }
        if (run.passthrough) {
          if (mode === 'held') { held = []; rawEmitted = 0; }
          switchToRaw(t, batch.end);
          return cb();
        }
        if (mode === 'streaming') { out(t, renderItems(batch.items)); return cb(); }
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
        if (mode === 'raw' || run.passthrough) {
          if (mode === 'held') rawEmitted = 0;
          switchToRaw(t, spool.total);
          report.verbatim ??= run.passthrough ?? 'passthrough';
          return cb();
        }
        if (mode === 'streaming') {
          removedOther += run.droppedBytes;
          // A condensed line (git log's one line per commit) is a rewritten form: it needs the
          // whole raw output's handle even when its new text is no shorter than the old.
          if (removedOther > 0 || tally.condensedLines > 0 || run.redactions > 0 || failed) {
            const raw = spool.all();
            const handle = archive(raw);
            const capped = spool.truncated ? ` (first ${raw.length} bytes)` : '';
            if (handle) {
              report.rawHandle = handle;
              if (failed) out(t, formatMarker(`exit ${ctx.exitCode}: output was condensed while streaming; full output${capped}`, handle) + '\n');
              else out(t, footer(run, tally, handle, '', capped));
            } else if (failed) {
              out(t, `[omni: exit ${ctx.exitCode}: output was condensed while streaming; the raw output could not be archived]\n`);
            }
          }
          report.changed = true;
          return cb();
        }
        // Held to the end: the final gate.
        const raw = spool.all();
        const verdict = gate(ctx, run, held, raw.length, failed);
        if (verdict) {
          report.verbatim = verdict;
          rawEmitted = 0;
          return switchToRaw(t, spool.total), cb();
        }
        removedOther = run.droppedBytes;
        let text = renderItems(held);
        if (removedOther > 0 || tally.condensedLines > 0 || run.redactions > 0) {
          const handle = archive(raw);
          if (!handle) {
            report.verbatim = 'archive-failed';
            rawEmitted = 0;
            return switchToRaw(t, spool.total), cb();
          }
          report.rawHandle = handle;
          text += footer(run, tally, handle, text, '');
        }
        const outBuf = Buffer.from(text);
        // A redaction is worth delivering even when it saves little (the secret stays out of
        // the agent's context), but never at the price of a larger output.
        const tooLittle = run.redactions ? outBuf.length > raw.length : outBuf.length >= raw.length || raw.length - outBuf.length < GATE_MIN_SAVED_BYTES;
        if (tooLittle) {
          report.verbatim = 'too-little-saved';
          rawEmitted = 0;
          return switchToRaw(t, spool.total), cb();
        }
        report.changed = !outBuf.equals(raw);
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

function safe<T>(fn: () => T, fallback: T): T {
  try { return fn(); } catch { return fallback; }
}

/** The receipt for removals no marker covers: it names the whole raw output's handle. */
function footer(run: RunState, tally: { colourLines: number; condensedLines: number }, handle: string, text: string, capped: string): string {
  const what: string[] = [];
  const secrets = run.redactions ? `${run.redactions} secret${run.redactions === 1 ? '' : 's'} redacted` : '';
  if (tally.colourLines) what.push(`colour codes on ${tally.colourLines} lines`);
  if (run.redraws) what.push(`${run.redraws} progress redraws`);
  if (run.droppedLines) what.push(`${run.droppedLines} blank lines`);
  const removed = what.length ? `${what.join(', ')} removed` : '';
  const condensed = tally.condensedLines ? `${tally.condensedLines} lines condensed` : '';
  const note = [secrets, removed, condensed].filter(Boolean).join('; ') || 'output condensed';
  const sep = text.length && !text.endsWith('\n') ? '\n' : '';
  // Kept short when only secrets were masked: a redaction must fit in the bytes it saved
  // (the output is never larger than the input), and "whole output" goes without saying.
  const scope = removed || condensed ? `; whole output${capped}` : capped;
  return sep + formatMarker(`${note}${scope}`, handle) + '\n';
}
/** Pure: why the distilled form must not go out, or null when it may. */
export function gate(ctx: PipelineContext, run: RunState, items: Item[], rawBytes: number, failed: boolean): string | null {
  if (failed) return `exit ${ctx.exitCode}`;
  let failures = 0;
  let est = 0;
  for (const it of items) {
    if (it.kind === 'line') {
      if (it.tier === 'failure') failures++;
      est += (it.out ?? it.plain ?? it.text).length + it.eol.length;
    } else {
      for (const h of (it as Marker).hidden) if (h.tier === 'failure') return 'a failure line was hidden';
      est += formatMarker(it.note, HANDLE_PLACEHOLDER).length + 1;
    }
  }
  // Stages may raise a line to `failure` (a failure block's context), never lower one.
  if (failures < run.failureLines) return 'a failure line was lost';
  const saved = rawBytes - est;
  if (!run.redactions && (saved < GATE_MIN_SAVED_BYTES || saved < rawBytes * GATE_MIN_SAVED_RATIO)) return 'too-little-saved';
  return null;
}
