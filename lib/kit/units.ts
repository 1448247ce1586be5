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
 *                    a search's paths grouped): lines condensed in place or left out (taken
 *                    into a condensed line), said in the closing receipt that names the whole
 *                    raw output; a contiguous run may still fold behind a marker in its place
 */

/** What a recogniser says about one line. Module constants: no per-line allocation. */
export interface Hit {
  /** Counted in the marker note ("412 passing tests"). '' = hidden but not counted. */
  readonly noun: string;
  /** The noun for a count of one ("1 compile command"), where it differs; absent: `noun` whatever the count. */
  readonly one?: string;
  /**
   * A lead-in (`=== RUN x`, `# Subtest: x`) or blank line: hidden inside a run, but when
   * it ends a run (what follows is kept) it stays, so a failure keeps its heading.
   */
  readonly lead?: boolean;
  /**
   * A line of a heading several lines long (Catch2's rules, test case and section names and
   * location before an assertion): hidden inside a run like a lead-in, but when the run ends on
   * heading lines (what follows is kept: a failure) they all stay, not only the nearest.
   */
  readonly heading?: boolean;
  /**
   * A section's first line (`opens`) or its last (`closes`): a cargo test binary's `Running x`
   * heading and its `test result:` verdict. Such a line is hidden only with its whole section:
   * the lines between are held until the closing line, and join the run then when every one of
   * them was recognised; a line nothing recognised (or a failure) ends the section instead, and
   * its lines go on as if it never opened, its opening line (and a closing line outside a
   * section) staying. What a section is can only be told at its end.
   */
  readonly section?: 'opens' | 'closes';
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

/**
 * What the engine lends a 'rewrite' unit. A rewritten form changes lines in place (`condense`)
 * and leaves lines out (`leave`): render's closing receipt names the whole raw output and says
 * what was done (`say`). A marker never gathers lines from several places: `fold` hides one
 * contiguous run of input lines behind one marker standing where the run stood.
 */
export interface Rewrites {
  /** Prints `text` instead of the line; refuses (returns false) a failure line or one that is not UTF-8, which stays as it is. */
  condense(l: Line, text: string): boolean;
  /**
   * Leaves the line out of the output: its content is in a condensed line (git log's `Author:`
   * line in the commit's one line) or it is git's own bookkeeping (an `index` line). The closing
   * receipt counts it. Refuses (returns false) a failure line or one that is not UTF-8, which must stay.
   */
  leave(l: Line): boolean;
  /**
   * Hides consecutive input lines (nothing between them left out) behind one marker where they
   * stood, when it pays (`foldPays`); otherwise, and around a failure line, the lines go out as
   * they are. `note` says what the run is.
   */
  fold(run: Line[], note: (hidden: Line[]) => string, out: Item[]): void;
  /** A phrase for the closing receipt saying what the rewritten form did ("one line per commit"). */
  say(what: string): void;
  /**
   * Whether this reader was already shown `key`, a text the form shows whole (one file's patch),
   * in this context: recorded by `show` in an earlier run. Always false without a reader.
   */
  shownBefore(key: string): boolean;
  /** This run shows `key` whole: recorded for the reader once the delivery reached it. */
  show(key: string): void;
  /** The run has a reader whose shown texts are on record: `shownBefore` can be true. */
  readonly remembers: boolean;
}

/** A rewriting handler's hooks: `line` gets every input line, `batchEnd` what was held. */
export interface LineHandler {
  line(l: Line, out: Item[]): void;
  /**
   * Flush what the handler held. `final` is the end of the run; before it, a streaming
   * handler may keep holding lines it has not decided yet.
   */
  batchEnd?(out: Item[], final: boolean): void;
}

/** The 'rewrite' unit: a handler over lines, given the engine's `Rewrites` to condense, leave out and fold with. */
export interface Rewriting {
  unit: 'rewrite';
  lines(rewrites: Rewrites): LineHandler;
}

/** What one run of a distiller recognises: one of the units. */
export type Recognition = Recogniser | Repeats | Rewriting;
