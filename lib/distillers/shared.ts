import type { Batch, Item, Line } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';
import { FOLD_MAX_HIDDEN_BYTES } from './fold.js';
import { analyzeCommand, basename, peelWrappers } from '../command/parse.js';
import { KEEPING_TAILS } from './tails.js';
import { foldPays, lineByteLength } from '../kit/marker.js';

/** What a family distiller does with each line; `out` receives what stays. */
export interface LineHandler {
  line(l: Line, out: Item[]): void;
  /**
   * Flush what the handler held (markers go at the end of what is flushed). `final` is
   * the end of the run; before it, a streaming handler may keep holding hidden lines.
   */
  batchEnd?(out: Item[], final: boolean): void;
}

/** While streaming, hidden lines wait for this many bytes before they get their marker. */
export const STREAM_MARKER_BYTES = 4096;
/** While the run is held, a family distiller keeps at most this many lines before flushing. */
export const HELD_LINES_MAX = 8192;

/**
 * The stage shape every family distiller shares: lines go through `h.line`, markers from
 * earlier stages pass untouched. While render is still holding the output (nothing
 * written yet) the handler's output is kept here too, so a fold or a marker can span
 * the small batches a slow producer writes; it is flushed (`h.batchEnd`) once render
 * streams, every HELD_LINES_MAX lines, and at the end. Meanwhile empty batches carry
 * the raw offset on, so render's hold-back window still sees the bytes go by. In
 * passthrough every batch is forwarded as it is.
 */
export function lineDistiller(run: RunState, h: LineHandler) {
  let pending: Item[] = [];
  const flush = (push: (b: Batch) => void, end: number, final: boolean) => {
    h.batchEnd?.(pending, final);
    if (pending.length) push({ items: pending, end });
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

/** A distiller that recognises nothing and changes nothing (enumerations, reads). */
export function identity(run: RunState) {
  return lineDistiller(run, { line: (l, out) => { out.push(l); } });
}

export const textOf = (l: Line): string => l.plain ?? l.text;

/**
 * Hides runs of lines in place: each contiguous run of hidden input lines becomes one
 * marker exactly where the run stood (rule 5), so expanding every marker with its bytes
 * gives back the input. A run ends at the first line that is kept; it becomes a marker
 * only when it pays for it (`foldPays`), otherwise its lines go back where they were.
 * While streaming a run stays open across batches until a kept line or the end closes
 * it, so a slow producer's run still gets one marker.
 */
export class RunHider {
  private run: Line[] = [];
  private bytes = 0;

  /**
   * `note` says what a run stands for; it may offer shorter fallbacks after it (a log
   * fold without its time range): the first that pays is used.
   */
  constructor(private readonly note: (hidden: Line[]) => string | readonly string[]) {}

  /** Hides the next input line; refuses (returns false) for a failure line, which must stay. */
  hide(l: Line, out: Item[]): boolean {
    if (l.tier === 'failure') return false;
    this.run.push(l);
    this.bytes += lineByteLength(l);
    if (this.bytes >= FOLD_MAX_HIDDEN_BYTES) this.close(out);
    return true;
  }

  /** The next input item stays: the open run ends before it. */
  keep(it: Item, out: Item[]): void {
    this.close(out);
    out.push(it);
  }

  /** True while a run is open (its lines are held here, not yet in any output). */
  get open(): boolean {
    return this.run.length > 0;
  }

  /** Ends the open run: one marker in its place when it pays, else its lines as they were. */
  close(out: Item[]): void {
    const h = this.run;
    if (!h.length) return;
    this.run = [];
    const notes = this.note(h);
    const note = typeof notes === 'string' ? (foldPays(h.length, this.bytes, notes) ? notes : null) : notes.find((n) => foldPays(h.length, this.bytes, n)) ?? null;
    if (note !== null) out.push({ kind: 'marker', note, hidden: h });
    else for (const l of h) out.push(l);
    this.bytes = 0;
  }
}

/** Order of an item in the input: a marker sits where its last hidden line was. */
const orderOf = (it: Item): number => (it.kind === 'line' ? it.index : it.hidden[it.hidden.length - 1]?.index ?? 0);

/**
 * For REWRITTEN forms only (git log's one line per commit, whose output names the whole
 * raw input's handle): the lines a family removed in one batch go behind ONE summary
 * marker at the batch's end. Lines it condensed (`line.out`) are tracked too: when the
 * marker would not pay for itself, every hidden line is put back in input order and
 * every condensed line gets its original text again, so a small output comes back
 * unchanged. Anything that is not a rewritten form hides in place with `RunHider`.
 */
export class BatchHider {
  private hidden: Line[] = [];
  private condensed: Line[] = [];
  private bytes = 0;
  /** Some hidden lines belong to output already flushed (they cannot be put back). */
  private carried = false;

  /** Hides a line; refuses (returns false) for a failure line, which must stay. */
  hide(l: Line): boolean {
    if (l.tier === 'failure') return false;
    this.hidden.push(l);
    this.bytes += lineByteLength(l);
    return true;
  }

  /** Prints `text` instead of the line (the whole raw output is archived by render). */
  condense(l: Line, text: string): void {
    if (l.out !== undefined) return;
    l.out = text;
    this.condensed.push(l);
  }

  /**
   * A blank line right after another blank in the output (hiding lines between two blank
   * lines leaves a pair) is hidden too; returns true when it was.
   */
  squeezeBlank(l: Line, out: Item[]): boolean {
    if (textOf(l).trim() !== '') return false;
    const prev = out[out.length - 1];
    if (!prev || prev.kind !== 'line' || textOf(prev).trim() !== '') return false;
    return this.hide(l);
  }

  get count(): number {
    return this.hidden.length;
  }

  /**
   * Appends one marker for the lines hidden since the last one. Before the end of the run
   * (`final` false) it waits until they are worth a marker (STREAM_MARKER_BYTES), so a slow
   * producer's small batches do not each get one. A marker that does not pay for itself
   * is not made: its lines go back in input order (with their condensed lines restored)
   * when they all belong to this flush.
   */
  flush(out: Item[], note: (hidden: Line[]) => string, minBytes = 0, final = true): void {
    const h = this.hidden;
    if (!h.length) return;
    if (!final && this.bytes < Math.max(minBytes, STREAM_MARKER_BYTES)) { this.carried = true; return; }
    const n = note(h);
    if ((this.bytes >= minBytes && foldPays(h.length, this.bytes, n)) || this.carried) {
      out.push({ kind: 'marker', note: n, hidden: h });
    } else {
      for (const l of this.condensed) l.out = undefined;
      const all: Item[] = [...out, ...h].sort((a, b) => orderOf(a) - orderOf(b));
      out.length = 0;
      for (const it of all) out.push(it);
    }
    this.hidden = [];
    this.condensed = [];
    this.bytes = 0;
    this.carried = false;
  }
}

/**
 * The common family shape: lines a family's patterns recognise as removable (never a
 * failure line) are hidden in place, one marker per contiguous run.
 */
export function hideRecognised(run: RunState, isRemovable: (text: string) => boolean, noun: string) {
  const hider = new RunHider((h) => `${plural(h.length, noun)} hidden`);
  return recognisedInPlace(run, hider, (l) => isRemovable(textOf(l)));
}

/** A line distiller over a `RunHider`: `hides(l)` says which lines go; the rest stay. */
export function recognisedInPlace(run: RunState, hider: RunHider, hides: (l: Line) => boolean) {
  return lineDistiller(run, {
    line(l, out) {
      if (hides(l) && hider.hide(l, out)) return;
      hider.keep(l, out);
    },
    batchEnd(out, final) {
      if (final) hider.close(out);
    },
  });
}

/** `n thing` / `n things`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Git-style global options with a value, skipped to find the subcommand. */
const VALUE_OPTS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

/** The subcommand of `tool [global options] sub …` (git, npm, kubectl, docker, terraform). */
export function subcommand(argv: string[]): string {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTS.has(a)) { i++; continue; }
    if (a.startsWith('-')) continue;
    return a;
  }
  return '';
}

/** argv[0] without its directory or an npx-style `@version` (`yarn@1.22.22` is yarn). */
export function programOf(argv: string[]): string {
  const p = argv[0] ?? '';
  return p.slice(p.lastIndexOf('/') + 1).replace(/(.)@[^@/]*$/, '$1');
}

/** Share of non-blank head lines matching `re` (for sniffing). */
export function shareMatching(head: Line[], re: RegExp): number {
  let n = 0;
  let hit = 0;
  for (const l of head) {
    const t = textOf(l);
    if (!t.trim()) continue;
    n++;
    if (re.test(t)) hit++;
  }
  return n ? hit / n : 0;
}

/**
 * The argv of the producer that owns a command line's output, as the registry routes it.
 * Distillers get it as `create`'s route; this is for readers outside the pipeline (`omni rules`).
 */
export function producerArgv(command: string | undefined): string[] {
  if (!command) return [];
  const a = analyzeCommand(command);
  if (!a.tail) return a.argv;
  const tail = peelWrappers(a.tail);
  // A keeping tail (`| head`) leaves the producer its output; any other tail owns it.
  return KEEPING_TAILS.has(basename(tail[0] ?? '')) ? a.argv : tail;
}
