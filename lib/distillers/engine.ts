import type { Transform } from 'node:stream';
import type { Batch, Item, Line } from '../kit/types.js';
import type { Hit, LineHandler, Recognition, Recogniser, Repeats, Rewrites } from '../kit/units.js';
import { batchStage, type RunState } from '../kit/stage.js';
import { FOLD_MIN_LINES, foldPays, lineByteLength, mustStay } from '../kit/marker.js';
import { bodyOf } from '../kit/prefix.js';
import { countsNote, hasWords, quoteOf, sameTemplate, saysFailureOrWarning, textOf } from './shared.js';
import { isBlank } from '../base/blank.js';

/**
 * The one engine that turns a declaration (a spec's `lines`, in lib/kit/units.ts's terms) into
 * the distill stage. Distillers never import this file: they declare what their tool's lines
 * are, and the registry hands the declaration here through hide.ts's `stageFor`. Nothing in it
 * is exported for a distiller to instantiate; test/distillers/one-way.test.ts checks that none does.
 *
 * Units, each one way of turning recognised lines into markers, all asking `foldPays`:
 *   'run'     each contiguous run of recognised lines -> one marker where it stood; the lines
 *             nothing recognised are left as they are (`others: 'keep'`) or folded like generic
 *             output (`others: 'fold'`: blank runs squeezed, runs of lines sharing one template
 *             -> first line, a marker quoting one of them, last line; `foldKey` groups lines
 *             for that fold instead)
 *   'repeat'  between barriers, a record whose template was seen earlier in the segment is
 *             hidden in place (the first of each template stays): logs
 *   'rewrite' rewritten forms (git log's one line per commit, a diff's renumbered hunks, a
 *             search's grouped paths): lines condensed in place or left out, counted for the
 *             closing receipt that names the whole raw output; a contiguous run may fold behind
 *             a marker in its place
 */

const BLANK: Hit = { noun: '', lead: true };
/** A blank line the recogniser was not shown ('fold' recognisers are not). */
const UNSEEN_BLANK = Symbol('unseen blank');
type Seen = Hit | null | typeof UNSEEN_BLANK;
/**
 * A section longer than this is not held for its end: its lines go on as if it never opened. A
 * section worth hiding whole is a few lines (a test binary that ran no test); a long one holds
 * output back from a streaming reader for nothing.
 */
const SECTION_MAX_LINES = 64;

/** A run still growing past this is cut, so memory stays bounded on endless repeats. */
const FOLD_MAX_HIDDEN_BYTES = 1 << 20;
/** While the run is held, a distiller keeps at most this many lines before flushing. */
const HELD_LINES_MAX = 8192;
/** While streaming, a log segment without a barrier is folded and written every this many lines. */
const STREAM_SEGMENT_LINES = 256;


/** The distill stage for one run's recognition. */
export function stageOf(run: RunState, rec: Recognition): Transform {
  if (rec.unit === 'repeat') return holding(run, repeatUnit(rec));
  if (rec.unit === 'rewrite') return holding(run, rec.lines(new Rewriter(run)));
  return holding(run, runUnit(run, rec));
}

/**
 * The stage shape every unit shares: lines go through `h.line`, markers from earlier
 * stages pass untouched. While render is still holding the output (nothing written yet)
 * the handler's output is kept here too, so a fold or a marker can span the small batches
 * a slow producer writes; it is flushed (`h.batchEnd`) once render streams, every
 * HELD_LINES_MAX lines, and at the end. Every input batch gets an answer, empty while
 * the unit still holds its lines (an open run, a segment): it carries the raw offset on, so
 * render's hold-back window and the stages after it still see the bytes go by. In
 * passthrough every batch is forwarded as it is.
 */
function holding(run: RunState, h: LineHandler): Transform {
  let pending: Item[] = [];
  /** Every input batch is answered by one, empty or not: later stages see the raw offset move. */
  const flush = (push: (b: Batch) => void, end: number, final: boolean) => {
    h.batchEnd?.(pending, final);
    if (pending.length || !final) push({ items: pending, end });
    pending = [];
  };
  return batchStage(
    run,
    (batch, push) => {
      if (run.passthrough) {
        if (pending.length) { push({ items: pending, end: batch.end }); pending = []; }
        return push(batch);
      }
      for (const it of batch.items) {
        if (it.kind === 'line') h.line(it, pending);
        else pending.push(it);
      }
      if (run.streaming || pending.length >= HELD_LINES_MAX) flush(push, batch.end, false);
      else push({ items: [], end: batch.end });
    },
    (push, end) => {
      if (run.passthrough) { if (pending.length) push({ items: pending, end }); pending = []; return; }
      flush(push, end, true);
    },
  );
}

/** Kept lines fold like generic output, or, with `rec.foldKey`, by the key it gives the line at hand (`key()`). */
function keptFolder(run: RunState, rec: Recogniser, key: () => string | null): Folder {
  return new Folder(
    run,
    rec.foldNoun ?? 'similar lines',
    rec.foldKey ? (l) => key() !== null || l.tier === 'noise' : undefined,
    rec.foldKey ? (l) => key() ?? template(l.plain ?? l.text) : undefined,
  );
}

/**
 * Pure: how many of a closed run's lines hide behind its marker, and the marker's note (null:
 * the fold does not pay, every line stays). Trailing lead-ins stay (only the nearest one: `===
 * RUN a`, `=== RUN b`, output of b keeps `=== RUN b`; every trailing heading line), and so do
 * trailing blank lines.
 */
function closing(hidden: Line[], hits: Hit[], rec: Recogniser): { keep: number; note: string | null } {
  let keep = hidden.length;
  while (keep > 0 && hits[keep - 1] === BLANK) keep--;
  if (keep > 0 && hits[keep - 1].heading) {
    // A failure's whole heading stays with it (test case, section, location), blank lines too.
    while (keep > 0 && (hits[keep - 1].heading || hits[keep - 1] === BLANK)) keep--;
  } else if (keep > 0 && hits[keep - 1].lead) keep--;
  let bytes = 0;
  for (let i = 0; i < keep; i++) bytes += lineByteLength(hidden[i]);
  const shown = keep === hidden.length ? hidden : hidden.slice(0, keep);
  const notes = keep < FOLD_MIN_LINES ? '' : rec.note ? rec.note(shown) : countsNote(hits.slice(0, keep));
  const note = typeof notes === 'string' ? (foldPays(keep, bytes, notes) ? notes : null) : notes.find((n) => foldPays(keep, bytes, n)) ?? null;
  return { keep: note === null ? 0 : keep, note };
}

/** The 'run' unit: contiguous runs of recognised lines, each one marker where it stood. */
function runUnit(run: RunState, rec: Recogniser): LineHandler {
  const strict = rec.others === 'keep';
  const see = rec.see;
  let hidden: Line[] = [];
  let hits: Hit[] = [];
  let hiddenBytes = 0;
  let inFailure = false;
  let curKey: string | null = null;
  /** The lines of an open section (Hit.section) and what the recogniser said of each. */
  let section: Array<{ l: Line; seen: Seen }> | null = null;
  const folder = strict ? null : keptFolder(run, rec, () => curKey);

  /** Ends the open run: its recognised lines become a marker, trailing lead-ins stay. */
  const close = (out: Item[]) => {
    if (!hidden.length) return;
    const { keep, note } = closing(hidden, hits, rec);
    if (note !== null) out.push({ kind: 'marker', note, hidden: keep === hidden.length ? hidden : hidden.slice(0, keep) });
    for (let i = keep; i < hidden.length; i++) out.push(hidden[i]);
    hidden = [];
    hits = [];
    hiddenBytes = 0;
  };

  /** Hides one recognised line: it joins the open run. */
  const hide = (l: Line, h: Hit, out: Item[]) => {
    if (!hidden.length) folder?.close(out);
    if (h !== BLANK && !strict) {
      inFailure = false;
      if (l.tier === 'text') l.tier = 'noise';
    }
    hidden.push(l);
    hits.push(h);
    hiddenBytes += lineByteLength(l);
    if (hiddenBytes >= FOLD_MAX_HIDDEN_BYTES) close(out);
  };

  /** One line as the recogniser saw it, outside a section: hidden, or kept (and folded like generic output). */
  const step = (l: Line, seen: Seen, out: Item[]) => {
    const plain = bodyOf(l);
    // A blank line the recogniser was not shown is hidden inside a run; a section's own line
    // stays unless its whole section is hidden; a failure line is never hidden.
    const h = mustStay(l) ? null : seen === UNSEEN_BLANK ? (hidden.length ? BLANK : null) : seen?.section ? null : seen;
    if (h) { hide(l, h, out); return; }
    close(out);
    if (!folder) { out.push(l); return; }
    if (see) {
      if (l.tier === 'failure') inFailure = true;
      else if (inFailure && (l.tier === 'text' || l.tier === 'noise') && !isBlank(plain)) l.tier = 'signal';
    }
    curKey = rec.foldKey && l.tier !== 'failure' ? rec.foldKey(l, plain) : null;
    folder.push(l, out);
    curKey = null;
  };

  /** A section that will not be hidden whole: its lines go on as if it never opened. */
  const abandon = (out: Item[]) => {
    if (!section) return;
    const held = section;
    section = null;
    for (const x of held) step(x.l, x.seen, out);
  };

  return {
    line(l, out) {
      // A prefixed line (`@web:test: ✓ …`) is shown as its producer printed it.
      const plain = bodyOf(l);
      // Every line is shown to the recogniser (its state and detection need them all), but a
      // failure line is never hidden. Outside 'keep' a blank line is not shown: it goes with the run.
      const seen: Seen = !see ? null : strict || !isBlank(plain) ? see(l, plain) : UNSEEN_BLANK;
      if (section) {
        const h = mustStay(l) ? null : seen === UNSEEN_BLANK ? BLANK : seen;
        if (h && h.section !== 'opens') {
          section.push({ l, seen });
          if (h.section === 'closes') {
            const whole = section;
            section = null;
            for (const x of whole) hide(x.l, x.seen === UNSEEN_BLANK ? BLANK : x.seen!, out);
          } else if (section.length >= SECTION_MAX_LINES) abandon(out);
          return;
        }
        abandon(out);
      }
      if (seen !== UNSEEN_BLANK && seen?.section === 'opens' && !mustStay(l)) { section = [{ l, seen }]; return; }
      step(l, seen, out);
    },
    batchEnd(out, final) {
      // While streaming, an open run (and an open section) waits for the line that ends it.
      if (!final) return;
      abandon(out);
      close(out);
      folder?.close(out);
    },
  };
}

const TEMPLATE_VARIABLE = /\d+/g;

/** Digits become placeholders: the key `foldKey` groups are compared under. */
function template(plain: string): string {
  return plain.replace(TEMPLATE_VARIABLE, '#');
}

/**
 * A template run hides at least this many lines: a marker standing for one line of text saves
 * a few bytes at best and costs the reader a retrieve for what the line itself would have said.
 */
const TEMPLATE_MIN_HIDDEN = 2;
/** A diagnostic's headline (`src/x.c:12:5: …`, `a.py:3: note`): an answer, never folded as one of many. */
const DIAGNOSTIC = /^\s*[\w./\\@+-]+\.[A-Za-z]{1,5}[:(]\d+/;

/**
 * The notes of one template fold, most telling first (the first that pays is used): it quotes
 * a real hidden line (the shortest: what the others look like, at the least cost), else it
 * says "like the one above". Never a line that could read as a marker.
 */
export function templateNotes(hidden: readonly Line[]): string[] {
  const n = hidden.length;
  const q = quoteOf(hidden);
  const plain = `${n} more lines like the one above folded`;
  return q === null ? [plain] : [`${n} lines like "${q}" folded`, plain];
}

/**
 * The generic fold of the lines a recogniser left: one blank line survives a run of them, and
 * runs of lines that share one template (the same words, numbers and ids aside: `sameTemplate`)
 * keep their first and last line, the middle becomes one marker that quotes one of them. Only
 * lines that carry nothing fold: noise, or text holding no word of a failure or a warning and
 * no diagnostic location; failure and signal lines end a run and are never hidden. With a
 * `foldKey`, lines group by that key instead (cargo's `Compiling x`). The first line of a run
 * goes out at once so a slow producer's lines are not held back.
 */
class Folder {
  private anchor: string | null = null; // the run's first line (or its custom key)
  /**
   * Whether the anchor line may fold (`noisy`), asked only once a line shares its template
   * (null: not asked yet), and its tier when it came. Most lines share no template with the line
   * before them, so most lines are never asked: the words, location and table tests cost more
   * than the template comparison that fails at the first differing char. Only the default fold
   * (no `keyOf`) waits; its answer is a pure function of the line's text and tier as they came,
   * so asking later says what asking at once would have said.
   */
  private anchorNoisy: boolean | null = null;
  private anchorTier: Line['tier'] = 'text';
  private hidden: Line[] = [];
  private hiddenBytes = 0;
  private lastBlank = false;

  constructor(
    private run: RunState,
    private readonly noun = 'similar lines',
    /** Which lines may fold; default: noise, and text that states nothing (above). */
    private readonly isNoise: (l: Line) => boolean = foldable,
    /** How lines group into runs; default: one template (`sameTemplate`). */
    private readonly keyOf?: (l: Line) => string,
  ) {}

  push(l: Line, out: Item[]): void {
    const plain = l.plain ?? l.text;
    // Squeeze blank lines: one survives a run of them. Blank as typed, not blank once its
    // escape codes are gone: a reporter's erase-line sequences redraw the screen, and
    // dropping them would lose bytes no receipt stands for while streaming.
    if (isBlank(l.text) && l.tier !== 'failure') {
      if (this.lastBlank) {
        this.run.droppedLines++;
        this.run.droppedBytes += lineByteLength(l);
        return;
      }
      this.close(out);
      this.lastBlank = true;
      this.anchor = null;
      out.push(l);
      return;
    }
    this.lastBlank = false;
    if (this.keyOf) return this.pushKeyed(l, plain, out);
    // A failure or a signal never folds, nor starts a run.
    if (mustStay(l) || l.tier === 'signal') { this.keep(l, null, out); return; }
    if (this.anchor !== null && sameTemplate(plain, this.anchor)) {
      this.anchorNoisy ??= noisyText(this.anchorTier, this.anchor);
      if (this.anchorNoisy) {
        if (noisyText(l.tier, plain)) { this.hide(l, out); return; }
        this.keep(l, null, out);
        return;
      }
    }
    // It may start a run: whether it may fold is asked when a line shares its template.
    this.keep(l, plain, out);
    this.anchorNoisy = null;
    this.anchorTier = l.tier;
  }

  /** With a custom key (`foldKey`): whether a line may fold is asked of every line, while its key is current. */
  private pushKeyed(l: Line, plain: string, out: Item[]): void {
    const noisy = !mustStay(l) && l.tier !== 'signal' && this.isNoise(l) && !saysFailureOrWarning(plain);
    const key = noisy ? this.keyOf!(l) : null;
    if (noisy && key === this.anchor) { this.hide(l, out); return; }
    this.keep(l, key, out);
  }

  /** The line joins the open run, hidden. */
  private hide(l: Line, out: Item[]): void {
    this.hidden.push(l);
    this.hiddenBytes += lineByteLength(l);
    if (this.hiddenBytes >= FOLD_MAX_HIDDEN_BYTES) this.close(out, true);
  }

  /** The line stays: the open run ends before it, and `anchor` (null: none) starts the next. */
  private keep(l: Line, anchor: string | null, out: Item[]): void {
    this.close(out);
    this.anchor = anchor;
    out.push(l);
  }

  /** Ends the current run: its middle becomes a marker, its last line stays. */
  close(out: Item[], keepRunning = false): void {
    const h = this.hidden;
    if (h.length) {
      const last = keepRunning ? null : h.pop()!;
      const bytes = this.hiddenBytes - (last ? lineByteLength(last) : 0);
      const notes = this.keyOf ? [`${h.length} ${this.noun} folded`] : h.length >= TEMPLATE_MIN_HIDDEN ? templateNotes(h) : [];
      const note = notes.find((n) => foldPays(h.length, bytes, n));
      if (note !== undefined) {
        out.push({ kind: 'marker', note, hidden: h });
      } else {
        for (const x of h) out.push(x);
      }
      if (last) out.push(last);
    }
    this.hidden = [];
    this.hiddenBytes = 0;
    if (!keepRunning) this.anchor = null;
  }
}

/** A table's row (`  12 | sku-0012 | 444 | in stock`, `│ a │ b │`): rows are answers, however alike. */
const TABLE_ROW = /[|│┃].*[|│┃]/;

/**
 * May this line fold as one of many alike? Noise; or text with words of its own, no diagnostic
 * location and no table columns. (Whatever the line, a word of a failure or a warning keeps it:
 * `Folder.push`.)
 */
function foldable(l: Line): boolean {
  return foldableText(l.tier, textOf(l));
}

/** `foldable` of a line with this tier and text. */
function foldableText(tier: Line['tier'], t: string): boolean {
  if (tier === 'noise') return true;
  if (tier !== 'text') return false;
  return hasWords(t) && !DIAGNOSTIC.test(t) && !TABLE_ROW.test(t);
}

/** May a line that neither states a failure nor is a signal fold as one of many alike (the default fold)? */
function noisyText(tier: Line['tier'], plain: string): boolean {
  return foldableText(tier, plain) && !saysFailureOrWarning(plain);
}


/**
 * Hides runs of lines in place: each contiguous run of hidden input lines becomes one
 * marker exactly where the run stood, so expanding every marker with its bytes
 * gives back the input. A run ends at the first line that is kept; it becomes a marker
 * only when it pays for it (`foldPays`), otherwise its lines go back where they were.
 */
class InPlace {
  private lines: Line[] = [];
  private bytes = 0;

  /**
   * `note` says what a run stands for, most telling first: the first that pays is used. `above`
   * is the line the marker would follow.
   */
  constructor(private readonly note: (hidden: Line[], above: Line | undefined) => readonly string[]) {}

  /** Hides the next input line; refuses (returns false) for a line that must stay. */
  hide(l: Line, out: Item[]): boolean {
    if (mustStay(l)) return false;
    this.lines.push(l);
    this.bytes += lineByteLength(l);
    if (this.bytes >= FOLD_MAX_HIDDEN_BYTES) this.close(out);
    return true;
  }

  /** The next input item stays: the open run ends before it. */
  keep(it: Item, out: Item[]): void {
    this.close(out);
    out.push(it);
  }

  /** Ends the open run: one marker in its place when it pays, else its lines as they were. */
  close(out: Item[]): void {
    const h = this.lines;
    if (!h.length) return;
    this.lines = [];
    const prev = out[out.length - 1];
    const note = this.note(h, prev?.kind === 'line' ? prev : undefined).find((n) => foldPays(h.length, this.bytes, n)) ?? null;
    if (note !== null) out.push({ kind: 'marker', note, hidden: h });
    else for (const l of h) out.push(l);
    this.bytes = 0;
  }
}

/** The 'repeat' unit: log segments between barriers, folded by template. */
function repeatUnit(rec: Repeats): LineHandler {
  let seg: Line[] = [];
  return {
    line(l, out) {
      if (rec.barrier(l)) {
        foldSegment(rec, seg, out);
        seg = [];
        out.push(l);
        return;
      }
      seg.push(l);
    },
    batchEnd(out, final) {
      // Streaming: a segment keeps growing (and folding) until a barrier or STREAM_SEGMENT_LINES.
      if (final) { foldSegment(rec, seg, out, true); seg = []; return; }
      if (seg.length < STREAM_SEGMENT_LINES) return;
      // Its last line waits for the next batch: it may be the output's last.
      const last = seg.pop()!;
      foldSegment(rec, seg, out);
      seg = [last];
    },
  };
}

/** A record and the lines that continue it. */
interface Record {
  lines: Line[];
  key: string | null;
}

/**
 * Folds one segment (the lines between two barriers) by template: a group's first record
 * stays where it was; its later records are hidden where they stand, each contiguous run
 * of hidden lines (records of any folded group, with their continuation lines) behind one
 * marker in its place. Records without a key stay and end a run. With `atEnd` (the segment
 * ends the output) its last record stays too: a marker never ends the output, whose last line
 * is the one a reader looks for (nginx's master's closing `exit` after its workers' says the
 * server stopped).
 */
function foldSegment(rec: Repeats, seg: Line[], out: Item[], atEnd = false): void {
  if (seg.length <= FOLD_MIN_LINES) { for (const l of seg) out.push(l); return; }
  const records: Record[] = [];
  for (const l of seg) {
    const cur = records[records.length - 1];
    if (cur && rec.continues(l)) { cur.lines.push(l); continue; }
    records.push({ lines: [l], key: null });
  }
  for (const r of records) r.key = rec.key(r.lines);
  const groups = new Map<string, number>();
  for (const r of records) if (r.key !== null) groups.set(r.key, (groups.get(r.key) ?? 0) + 1);
  const seen = new Set<string>();
  const hide = records.map((r) => {
    const k = r.key;
    const h = k !== null && groups.get(k)! - 1 >= FOLD_MIN_LINES && seen.has(k);
    if (k !== null) seen.add(k);
    return h;
  });
  if (atEnd && hide.length) hide[hide.length - 1] = false;
  const keys = new WeakMap<Line, string>();
  const hider = new InPlace((h, above) => rec.note(h, (l) => keys.get(l), above));
  records.forEach((r, i) => {
    // Whether a hidden run is worth its marker is decided per marker, where it stands.
    for (const l of r.lines) {
      if (r.key !== null) keys.set(l, r.key);
      if (!hide[i] || !hider.hide(l, out)) hider.keep(l, out);
    }
  });
  hider.close(out);
}

/** Past this many bytes a fold's run is cut, so a rewritten form's fold stays bounded too. */
const REWRITE_FOLD_MAX_BYTES = FOLD_MAX_HIDDEN_BYTES;

/**
 * For REWRITTEN forms (git log's one line per commit, a diff's renumbered hunks): lines
 * condensed in place and lines left out are counted on the run, for render's closing receipt,
 * which names the whole raw output and says what was done. A marker here only ever stands for
 * one contiguous run of input lines, in its place: `fold` checks that the lines it is given
 * follow one another in the input and splits the run wherever they do not (or at a failure
 * line, which stays), so a handler cannot make a marker gather lines from several places.
 */
class Rewriter implements Rewrites {
  constructor(private readonly run: RunState) {}

  condense(l: Line, text: string): boolean {
    if (mustStay(l) || l.out !== undefined) return false;
    l.out = text;
    return true;
  }

  leave(l: Line): boolean {
    if (mustStay(l)) return false;
    this.run.leftOutLines++;
    this.run.leftOutBytes += lineByteLength(l);
    return true;
  }

  fold(lines: Line[], note: (hidden: Line[]) => string, out: Item[]): void {
    let cur: Line[] = [];
    let bytes = 0;
    const close = () => {
      if (!cur.length) return;
      const n = note(cur);
      if (foldPays(cur.length, bytes, n)) out.push({ kind: 'marker', note: n, hidden: cur });
      else for (const l of cur) out.push(l);
      cur = [];
      bytes = 0;
    };
    for (const l of lines) {
      if (mustStay(l)) { close(); out.push(l); continue; }
      if (cur.length && (l.index !== cur[cur.length - 1].index + 1 || bytes >= REWRITE_FOLD_MAX_BYTES)) close();
      cur.push(l);
      bytes += lineByteLength(l);
    }
    close();
  }

  say(what: string): void {
    if (!this.run.rewrites.includes(what)) this.run.rewrites.push(what);
  }

  get remembers(): boolean {
    return this.run.shownWhole !== null;
  }

  shownBefore(key: string): boolean {
    return this.run.shownWhole !== null && this.run.shownWhole(key);
  }

  show(key: string): void {
    if (this.run.shownWhole !== null) this.run.shownKeys.push(key);
  }
}
