import type { Item, Line } from './types.js';

/**
 * The units a distiller's `lines` declare (DistillerSpec, spec.ts): what one run of its tool's
 * output recognises, stated without a mechanism. The one engine (lib/distillers/engine.ts)
 * turns each into the distill stage:
 *
 *   'run' (default)  each contiguous run of recognised lines -> one marker in its place;
 *                    failure lines, verdicts and everything unrecognised stay
 *   'repeat'         log records: a record whose template was seen earlier between two
 *                    barriers is hidden in place; the first of each stays
 *   'rewrite'        rewritten forms (git log one line per commit, diff hunks renumbered,
 *                    a search's paths grouped): lines condensed in place, removed lines behind
 *                    one summary marker, beside the whole raw output render names
 */

/** What a recogniser says about one line. Module constants: no per-line allocation. */
export interface Hit {
  /** Counted in the marker note ("412 passing tests"). '' = hidden but not counted. */
  readonly noun: string;
  /**
   * A lead-in (`=== RUN x`, `# Subtest: x`) or blank line: hidden inside a run, but when
   * it ends a run (what follows is kept) it stays, so a failure keeps its heading.
   */
  readonly lead?: boolean;
}

/** The 'run' unit: what a tool's lines are, one line at a time, in order. */
export interface Recogniser {
  unit?: 'run';
  /**
   * Noise: a Hit when a pattern for this tool positively recognised the line as removable,
   * else null (it stays). Shown every line in order (state may depend on them); a failure
   * line is never hidden whatever it says. Absent: the tool has no noise of its own.
   */
  see?(l: Line, plain: string): Hit | null;
  /**
   * What the marker of one hidden run says; it may give shorter fallbacks after it (the first
   * that pays is used). Default: the counts of the run's nouns ("400 passing tests folded").
   */
  note?(hidden: Line[]): string | readonly string[];
  /**
   * What becomes of the lines `see` did not recognise. 'fold' (default): they are folded like
   * generic output, and the lines after a failure line (its message, diff, stack) up to the
   * next recognised one are raised to `signal`, so nothing downstream folds them (without a
   * `see`, as in generic, nothing would end such a block, so there is none). 'keep': they
   * stay exactly as they are, tiers too, and a blank line is hidden only when `see` says so
   * (a rule, an installer: only what the patterns say goes).
   */
  others?: 'fold' | 'keep';
  /**
   * For lines that are not hidden: a key under which consecutive lines fold to first line,
   * marker, last line (e.g. cargo's `Compiling x`), or null.
   */
  foldKey?(l: Line, plain: string): string | null;
  /** Noun for lines folded by `foldKey` or the generic fold ("crates compiled"). */
  foldNoun?: string;
}

/** The 'repeat' unit: log records that say the same thing again. */
export interface Repeats {
  unit: 'repeat';
  /** A line that stays verbatim and ends every fold (a severity word, a failure). */
  barrier(l: Line): boolean;
  /** A line that belongs to the record above it (an indented continuation). */
  continues(l: Line): boolean;
  /**
   * The record's template (its first line and the lines that continue it): records with the same
   * one fold; null = it stays where it is.
   */
  key(record: readonly Line[]): string | null;
  /**
   * The notes of one hidden run, most telling first; `keyOf` names each hidden record's template
   * (and a kept record's); `above` is the line the marker follows.
   */
  note(hidden: Line[], keyOf: (l: Line) => string | undefined, above?: Line): readonly string[];
}

/** What the engine lends a 'rewrite' unit: lines hidden and condensed into one summary marker. */
export interface Rewrites {
  /** Hides a line; refuses (returns false) for a failure line, which must stay. */
  hide(l: Line): boolean;
  /** Prints `text` instead of the line (the whole raw output is archived by render). */
  condense(l: Line, text: string): void;
  /** Lines hidden since the last marker. */
  readonly count: number;
  /**
   * Appends one marker for the lines hidden since the last one. Before the end of the run
   * (`final` false) it waits until they are worth a marker, so a slow producer's small
   * batches do not each get one. A marker that does not pay (or hides fewer than
   * `minBytes`) is not made: its lines go back in input order, condensed lines restored.
   */
  flush(out: Item[], note: (hidden: Line[]) => string, minBytes?: number, final?: boolean): void;
}

/** A rewriting handler's hooks: `line` gets every input line, `batchEnd` what was held. */
export interface LineHandler {
  line(l: Line, out: Item[]): void;
  /**
   * Flush what the handler held (markers go at the end of what is flushed). `final` is
   * the end of the run; before it, a streaming handler may keep holding hidden lines.
   */
  batchEnd?(out: Item[], final: boolean): void;
}

/** The 'rewrite' unit: a handler over lines, given the engine's `Rewrites` to hide and condense with. */
export interface Rewriting {
  unit: 'rewrite';
  /** `rewrites()` opens one summary marker's collection (a form inside a form gets its own). */
  lines(rewrites: () => Rewrites): LineHandler;
}

/** What one run of a distiller recognises: one of the units. */
export type Recognition = Recogniser | Repeats | Rewriting;
