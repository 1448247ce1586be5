/**
 * The final gate: a run held to its end is judged whole. The distilled form goes out only when
 * no failure line was hidden or lost, the exit was not a failure, every removal has its receipt
 * in the archive, and it saves enough; otherwise the raw bytes go out (their secrets masked).
 */
import type { Item, Marker } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import type { RunDescription } from './describe.js';
import { formatMarker, HANDLE_PLACEHOLDER } from '../kit/marker.js';
import { asCame, changedInPlace, Chunks, markerLine, changeKind, rewriteNotes, shown, sizeOf, type Receipts } from './render-output.js';

/** A distillation must save at least this many bytes… */
export const GATE_MIN_SAVED_BYTES = 100;
/** …and this share of the input, or the raw bytes go out instead. */
export const GATE_MIN_SAVED_RATIO = 0.1;

/** What the gate lets out of a held run. */
export type Verdict =
  /** The distilled bytes; `rawHandle` names the whole raw output when a receipt was owed. */
  | { kind: 'distilled'; out: Buffer; rawHandle: string | null }
  /** The raw bytes, for `verbatim`'s reason (`failedExit`: byte for byte, a failure is never cut). */
  | { kind: 'as-came'; verbatim: string; failedExit: boolean; rawHandle: string | null };

/**
 * Judges the held items against the raw input they came from. Archives what a marker or the
 * receipt names (so a Verdict's handles are real); writes nothing.
 */
export function judgeHeld(desc: RunDescription, run: RunState, held: Item[], raw: Buffer, exitCode: number | null, receipts: Receipts): Verdict {
  const failed = exitCode !== null && exitCode !== 0;
  const verdict = gate(desc, run, held, raw.length, failed, exitCode);
  if (verdict) return { kind: 'as-came', verbatim: verdict, failedExit: failed, rawHandle: null };
  const r = renderHeld(held, receipts);
  const text = r.text;
  let rawHandle: string | null = null;
  // Masked secrets alone owe no receipt: a mask is no removal, and no marker may name a handle
  // that hands the value back. Lines a rewritten form left out are removed bytes.
  if (run.droppedBytes + run.leftOutBytes + r.removed > 0 || r.condensedLines > 0) {
    rawHandle = receipts.put(raw);
    if (!rawHandle) return { kind: 'as-came', verbatim: 'archive-failed', failedExit: false, rawHandle: null };
    text.add(footer(r.colourLines, r.condensedLines, run, rawHandle, text.open));
  }
  const out = text.toBuffer();
  // Every branch that gives up on the distilled form sends the raw bytes with the secrets masked,
  // which are never larger than the input, so no held output is.
  if (out.length >= raw.length || raw.length - out.length < GATE_MIN_SAVED_BYTES) return { kind: 'as-came', verbatim: 'too-little-saved', failedExit: false, rawHandle };
  return { kind: 'distilled', out, rawHandle };
}

/** Pure: why the distilled form must not go out, or null when it may. */
export function gate(desc: Pick<RunDescription, 'tool'>, run: RunState, items: Item[], rawBytes: number, failed: boolean, exitCode: number | null): string | null {
  if (failed) return `exit ${exitCode}`;
  // A host's Read is a file's text, not a tool's report: a source line that looks like a
  // failure (`raise ValueError(…)`) states none, and the ledger may fold a head the reader holds.
  const fileText = desc.tool === 'Read';
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

/**
 * The held items as output: every marker archived first (unarchived, its lines go out as they
 * came); a line that is not UTF-8 goes out as its exact bytes.
 */
function renderHeld(items: Item[], receipts: Receipts): { text: Chunks; removed: number; colourLines: number; condensedLines: number } {
  const handles = receipts.markers(items);
  const r = { text: new Chunks(), removed: 0, colourLines: 0, condensedLines: 0 };
  // True while the last thing rendered is a line with no terminator (markerLine, ./render-output.ts).
  let dangling = false;
  let k = 0;
  for (const it of items) {
    if (it.kind === 'line') {
      const vis = shown(it);
      r.text.add(vis);
      dangling = it.eol === '';
      if (!it.bytes && changedInPlace(it)) {
        // Compared with the line as it came, secrets masked: a mask alone is no removal and
        // owes no receipt.
        const came = asCame(it);
        if (vis !== came) {
          r.removed += Math.max(0, sizeOf(came) - sizeOf(vis));
          const kind = changeKind(it);
          if (kind === 'colour') r.colourLines++;
          else if (kind === 'condensed') r.condensedLines++;
        }
      }
      continue;
    }
    const handle = handles[k++];
    const last = it.hidden[it.hidden.length - 1];
    if (!handle) {
      for (const h of it.hidden) r.text.add(asCame(h));
      if (last) dangling = last.eol === '';
      continue;
    }
    r.text.add(markerLine(it.note, handle, last?.eol, dangling));
    dangling = false;
  }
  return r;
}

/**
 * The receipt for removals no marker covers: it names the whole raw output's handle. Masked
 * secrets are not among them (`omni retrieve` masks them again; a person reads them with
 * `omni retrieve --reveal`).
 */
function footer(colourLines: number, condensedLines: number, run: RunState, handle: string, open: boolean): string {
  const what: string[] = [];
  if (colourLines) what.push(`colour codes on ${colourLines} lines`);
  if (run.redraws) what.push(`${run.redraws} progress redraws`);
  if (run.droppedLines) what.push(`${run.droppedLines} blank lines`);
  const removed = what.length ? `${what.join(', ')} removed` : '';
  // A rewritten form says what it did; its own counts would only repeat it.
  const said = rewriteNotes(run.rewrites);
  const left = !said.length && run.leftOutLines ? `${run.leftOutLines} lines left out` : '';
  const condensed = !said.length && condensedLines ? `${condensedLines} lines condensed` : '';
  const note = [...said, removed, left, condensed].filter(Boolean).join('; ') || 'output condensed';
  const sep = open ? '\n' : '';
  return sep + formatMarker(`${note}; whole output`, handle) + '\n';
}
