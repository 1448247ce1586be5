/**
 * The receipt budget of a streamed run (P2 never larger, P1 every normalisation has its receipt):
 *
 *   bank = raw bytes the output covers − bytes written. A fold marker goes out only when it is
 *   no larger than the lines it hides (it names its own handle and owes no receipt). A batch's
 *   lines go out in their short form (colour stripped, redraw folded, condensed, secret masked),
 *   and its squeezed blank lines stay out, only when the bank after the batch still holds
 *   RECEIPT_RESERVE_BYTES, the most a closing receipt can cost; otherwise that batch's lines go
 *   out raw (blank lines and all) and owe no receipt. So after every batch written <= covered,
 *   once a receipt is owed the bank never falls below the reserve, and the receipt at the end
 *   always fits in it: a streamed output is never larger than its input. The bank starts empty,
 *   so the first batch (what was held) must itself save the reserve. With nothing changed in
 *   place and nothing folded there is no receipt and no marker at all: the output is the raw
 *   bytes, failing exit or not (defect 6).
 */
import { isUtf8 } from 'node:buffer';
import type { Item, Line, Marker } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import type { Spool } from './spool.js';
import { formatMarker, HANDLE_PLACEHOLDER, lineByteLength } from '../kit/marker.js';
import { maskSecrets } from './redact.js';
import {
  asCame, cameBytes, changedInPlace, Chunks, markerLine, changeKind, countLines, maskedRaw, redrawsIn, REWRITE_NOTES_MAX_BYTES, rewriteNotes, shown, sizeOf,
  type Output, type Receipts,
} from './render-output.js';
import { utf8Length } from '../base/utf8-length.js';

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

const noTally = (): StreamTally => ({ colourLines: 0, condensedLines: 0, redraws: 0, blankLines: 0, leftOut: 0, markers: 0 });

/**
 * One batch built one of two ways: short (`asIs` false: lines changed in place, squeezed blank
 * lines left out) or as the lines came (`asIs` true). The short form is built first; the other
 * only when the budget turns the short one down, which a stream whose bank holds the reserve
 * never does: most batches are built once.
 */
interface BatchForms {
  asIs: boolean;
  out: Chunks;
  /** The bytes of the short form (counted in either build). */
  shortBytes: number;
  /** Something in `short` differs from `asIs`. */
  differs: boolean;
  /**
   * No item stands before raw bytes already covered. A rewritten form (git log's one line per
   * commit) leaves lines out; its receipt names the whole raw output, and without the budget for
   * that receipt the batch's raw bytes go out instead, since `asIs` would lack the lines left out.
   */
  inOrder: boolean;
  /** The raw offset the batch reaches. */
  at: number;
  tally: StreamTally;
}

export class StreamBudget {
  private readonly tally = noTally();
  /** Something went out changed in place: the closing receipt names the whole raw output. */
  private receiptOwed = false;
  /** Raw offset up to which a reordered batch went out as its raw bytes (secrets masked). */
  private rawCut = 0;
  /** True while the last thing rendered is a line with no terminator (markerLine, ./render-output.ts). */
  private dangling = false;

  constructor(private readonly spool: Spool, private readonly output: Output, private readonly receipts: Receipts, private readonly run: RunState) {}

  /** Streaming: one batch's bytes under the budget (`handles`: its markers', archived already). */
  batch(items: Item[], handles: Array<string | null> = this.receipts.markers(items)): Buffer {
    const from = this.output.rawEmitted;
    const dangling = this.dangling;
    const f = this.forms(items, handles, from, false);
    if (f.at > this.output.rawEmitted) this.output.rawEmitted = f.at;
    // The batch changes lines in place only when the bank, with what this batch saves, still
    // holds the receipt's reserve afterwards; otherwise those lines go out as they came.
    // Without an archive no receipt can be written, so nothing changes in place.
    if (!f.differs || !this.receipts.available || this.output.rawEmitted - this.output.written - f.shortBytes < RECEIPT_RESERVE_BYTES) {
      // Nothing differs: the short form is the form as the lines came.
      if (f.inOrder && !f.differs) return f.out.toBuffer();
      if (f.inOrder) return this.asCameForm(items, handles, from, dangling);
      // Later batches skip what this covers (a hider may still owe a marker for these lines).
      this.rawCut = f.at;
      return maskedRaw(this.spool.slice(from, f.at), items, from);
    }
    this.receiptOwed = true;
    const t = this.tally;
    t.colourLines += f.tally.colourLines;
    t.condensedLines += f.tally.condensedLines;
    t.redraws += f.tally.redraws;
    t.blankLines += f.tally.blankLines;
    t.leftOut += f.tally.leftOut;
    return f.out.toBuffer();
  }

  /**
   * The batch as its lines came, built again from where the short form started: the same walk
   * from the same state (so the same markers, each counted once).
   */
  private asCameForm(items: Item[], handles: Array<string | null>, from: number, dangling: boolean): Buffer {
    const markers = this.tally.markers;
    this.dangling = dangling;
    const g = this.forms(items, handles, from, true);
    this.tally.markers = markers;
    return g.out.toBuffer();
  }

  /**
   * The end of the input: the bytes past the last item (squeezed trailing blank lines, under the
   * same budget as any other gap; anything else a stage kept back goes out raw, never lost),
   * then the closing receipt when one is owed or a failing exit asks for one and it fits.
   * Returns the handle of the whole raw output when the receipt named it.
   */
  close(write: (s: string | Buffer) => void, exitCode: number | null): { changed: boolean; rawHandle: string | null } {
    const { spool, output } = this;
    if (output.rawEmitted < spool.total) {
      const rest = spool.slice(output.rawEmitted, spool.total);
      const text = rest.toString('utf8');
      const bank = spool.total - output.written;
      output.rawEmitted = spool.total;
      if (text.trim() === '' && bank >= RECEIPT_RESERVE_BYTES) { this.receiptOwed = true; this.tally.blankLines += countLines(text); }
      else write(isUtf8(rest) ? Buffer.from(maskSecrets(text)) : rest);
    }
    const changed = this.receiptOwed || this.tally.markers > 0;
    if (!changed) return { changed, rawHandle: null };
    const failed = exitCode !== null && exitCode !== 0;
    const raw = spool.all();
    const capped = spool.truncated ? ` (first ${raw.length} bytes)` : '';
    const bank = output.rawEmitted - output.written;
    const sep = output.endsLine ? '' : '\n';
    if (!this.receiptOwed && !(failed && receiptBytes(this.tally, false, exitCode, capped, sep, []) <= bank)) return { changed, rawHandle: null };
    const handle = this.receipts.put(raw);
    if (handle) write(streamReceipt(this.tally, this.receiptOwed, failed ? exitCode : null, handle, capped, sep, this.run.rewrites));
    return { changed, rawHandle: handle };
  }

  private forms(items: Item[], handles: Array<string | null>, from: number, asIs: boolean): BatchForms {
    const f: BatchForms = { asIs, out: new Chunks(), shortBytes: 0, differs: false, inOrder: true, at: from, tally: noTally() };
    let k = 0;
    for (const it of items) {
      if (it.kind === 'line') this.line(f, it);
      else this.marker(f, it, handles[k++]);
    }
    return f;
  }

  /**
   * Squeezed blank lines leave a gap, and so do the lines a rewritten form left out: the short
   * form goes without them and owes the receipt that names the whole raw output.
   */
  private gapBefore(f: BatchForms, start: number): void {
    if (start <= f.at) return;
    const text = this.spool.slice(f.at, start).toString('utf8');
    if (text.trim() !== '') { f.inOrder = false; f.differs = true; f.tally.leftOut += countLines(text); return; }
    f.differs = true;
    f.tally.blankLines += countLines(text);
    if (f.asIs) f.out.add(text);
  }

  /** Where an item's raw bytes start, against what the batch covered so far. */
  private place(f: BatchForms, start: number, end: number): void {
    if (start > f.at) this.gapBefore(f, start);
    else if (start < f.at) f.inOrder = false;
    if (end > f.at) f.at = end;
  }

  private line(f: BatchForms, it: Line): void {
    const rawLen = lineByteLength(it);
    if (it.end <= this.rawCut) return; // already out as raw bytes
    this.place(f, it.end - rawLen, it.end);
    this.dangling = it.eol === '';
    if (!changedInPlace(it) && it.bytes === undefined) {
      f.out.add(it.text + it.eol);
      f.shortBytes += rawLen;
      return;
    }
    const vis = shown(it);
    const came = asCame(it);
    if (it.bytes || vis === came) {
      // Only masked (or bytes that are not UTF-8): it goes out so either way and owes no receipt.
      f.out.add(came);
      f.shortBytes += sizeOf(came);
      return;
    }
    // `vis` is its shown text and its (ASCII) line ending: counted apart, not as the joined string.
    f.shortBytes += utf8Length(it.out ?? it.plain ?? it.text) + it.eol.length;
    f.differs = true;
    f.out.add(f.asIs ? came : vis);
    const kind = changeKind(it);
    if (kind === 'colour') f.tally.colourLines++;
    else if (kind === 'condensed') f.tally.condensedLines++;
    if (it.raw !== undefined) f.tally.redraws += redrawsIn(it.raw);
  }

  private marker(f: BatchForms, it: Marker, handle: string | null): void {
    const first = it.hidden[0];
    const last = it.hidden[it.hidden.length - 1];
    if (last && last.end <= this.rawCut) return; // already out as raw bytes
    if (first) {
      const start = first.end - lineByteLength(first);
      if (start > f.at) this.gapBefore(f, start);
      else if (start < f.at) f.inOrder = false;
    }
    if (last && last.end > f.at) f.at = last.end;
    const marker = handle ? markerLine(it.note, handle, last?.eol, this.dangling) : '';
    // A fold that does not pay for its marker is not made. The hidden lines are counted as
    // they came without being built: most folds pay, and then they are never needed.
    const markerBytes = Buffer.byteLength(marker);
    let hiddenBytes = 0;
    for (const x of it.hidden) hiddenBytes += cameBytes(x);
    if (handle && markerBytes <= hiddenBytes) {
      this.dangling = false;
      this.tally.markers++;
      f.shortBytes += markerBytes;
      f.out.add(marker);
      return;
    }
    if (last) this.dangling = last.eol === '';
    f.shortBytes += hiddenBytes;
    // Unfolded, the hidden lines go out as they came, secrets masked.
    for (const x of it.hidden) f.out.add(asCame(x));
  }
}

/**
 * The closing receipt of a streamed run. `inPlace`: lines went out changed in place, so it
 * names the whole raw output (P1). Otherwise only a failing exit asks for one, and only
 * when something was folded.
 */
function streamReceipt(st: StreamTally, inPlace: boolean, exitCode: number | null, handle: string, capped: string, sep: string, rewrites: readonly string[]): string {
  const what: string[] = [];
  if (st.colourLines) what.push(`colour codes on ${st.colourLines} lines`);
  if (st.redraws) what.push(`${st.redraws} progress redraws`);
  if (st.blankLines) what.push(`${st.blankLines} blank lines`);
  const parts: string[] = [];
  if (exitCode !== null) parts.push(`exit ${exitCode}: output was condensed while streaming`);
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

function receiptBytes(st: StreamTally, inPlace: boolean, exitCode: number | null, capped: string, sep: string, rewrites: readonly string[]): number {
  return Buffer.byteLength(streamReceipt(st, inPlace, exitCode, HANDLE_PLACEHOLDER, capped, sep, rewrites));
}

/** The most a closing receipt can cost: every count at ten digits, a failing exit, a cap, a rewritten form's phrases. */
export const RECEIPT_RESERVE_BYTES = (() => {
  const n = 9_999_999_999;
  const all: StreamTally = { colourLines: n, condensedLines: n, redraws: n, blankLines: n, leftOut: n, markers: n };
  return receiptBytes(all, true, n, ` (first ${n} bytes)`, '\n', ['x'.repeat(REWRITE_NOTES_MAX_BYTES - 2)]);
})();
