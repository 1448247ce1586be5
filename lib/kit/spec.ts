import type { Line } from './types.js';
import type { Recognition } from './units.js';
import type { CommandAnalysis } from '../command/parse.js';
import type { Runner } from '../command/runners.js';

/** What the registry read off the command line, handed to `lines` so no distiller parses it again. */
export interface ProducerRoute {
  /**
   * argv of the producer that owns the output: wrappers and env prefixes peeled, `cd` chains
   * resolved, a keeping tail (`| head`) skipped, an owning tail (`| grep x`) taken instead.
   * Empty when the distiller was chosen by its lines (no command line, or a script's output).
   */
  argv: string[];
}

/**
 * One example that proves a spec: this command's output `input`, through the real pipeline
 * (the pipe door: command known, exit code not), gives `output`, a marker's handle written
 * `<handle>`. Small and real: cut from a corpus case. test/distillers/examples.test.ts runs
 * every example of every registered spec, as `omni rules test` runs a rule's.
 */
export interface SpecExample {
  readonly command: string;
  readonly input: string;
  readonly output: string;
}

/**
 * A distiller, declared: one object literal, the default export of lib/distillers/<name>.ts,
 * tested by test/distillers/<name>.test.ts, listed once in lib/distillers/registry.ts. Nothing is
 * set on it after it is written (every field is readonly) and nothing is implied: what it owns,
 * what its lines are and whether the pre-hook may rewrite it are all stated here.
 *
 * What it owns is read off it by the registry's `owns` (lib/distillers/registry.ts), in this
 * order: `producers` through `runners`, then `scripts` through `runners`, then `matches`.
 * Which spec wins a line two specs own is stated in the registry's COLLISIONS, never left to
 * the order of the list.
 */
export interface DistillerSpec {
  /** Its name: the file lib/distillers/<name>.ts, the test test/distillers/<name>.test.ts. */
  readonly name: string;
  /** Family for stats and the savings table (the run row stores it): test, build, install, git, log, … */
  readonly family: string;

  // What it owns.

  /**
   * Programs whose output it owns, by basename, once lib/command peeled the shell's wrappers
   * (`env`, `time`, `npx` …) and one of `runners` (if it declares any) peeled: `jest`, `pytest`.
   */
  readonly producers?: readonly string[];
  /**
   * The runners that may stand in front of one of `producers` (`pnpm vitest`, `npm exec tsc`,
   * `uv run pytest`, `python -m pytest`, `bundle exec rspec`) or run one of `scripts` (`npm
   * test`, `yarn build`) and still route here, and every runner its `matches` reads (install's
   * `python -m pip`). Their syntax is lib/command/runners.ts; a runner no spec names routes
   * nowhere (test/distillers/runners.test.ts).
   */
  readonly runners?: readonly Runner[];
  /** Package scripts it owns, by name, when one of `runners` runs them: `npm test`, `npm run build`. */
  readonly scripts?: RegExp;
  /**
   * Owns output of this producer (argv after wrappers are peeled), for what a name cannot
   * say: a subcommand (`go test`), a flag (`node --test`), an argument (`cat x.log`).
   */
  readonly matches?: (argv: string[], a: CommandAnalysis) => boolean;
  /**
   * A tool that runs a program and prints its own lines among the program's bare ones
   * (valgrind): the program's argv. The spec that owns that program reads the run too, as a
   * chain's second producer would (registry.ts, routeCommand); none owns it: nothing is added.
   */
  readonly runs?: (argv: string[]) => string[] | null;
  /**
   * Every line of its output is the answer (a file's contents, a listing, search matches, git
   * history): no rule of the user's or the project's outranks it (registry.ts, routeCommand).
   */
  readonly answer?: boolean;
  /** The pre-hook may rewrite its commands into `omni exec` (a noisy tool). Absent: it may not. */
  readonly rewrite?: boolean;

  // What its lines are.

  /**
   * A line only this tool prints. `omni pipe` without a command picks the spec when one of the
   * first lines is one, and a package script's output (`npm test`) is handed to it from the
   * first such line on (`delegate`).
   */
  readonly detect?: (plain: string) => boolean;
  /** For a tool no one line tells (a log: most lines timestamped): do these first lines look like its output? */
  readonly sniff?: (head: Line[]) => boolean;
  /**
   * What one run of its output recognises, in one of the units (lib/kit/units.ts): the noise it
   * positively recognises (`see`), the marker's words (`note`), what becomes of the rest, the
   * unit. It may keep state over the run's lines. The one engine turns it into the stage.
   */
  readonly lines?: (route: ProducerRoute) => Recognition;
  /**
   * Instead of `lines`: a command that names no tool (`npm test`). Its output is read by the
   * registered spec of this stats family whose `detect` recognises a line first.
   */
  readonly delegate?: string;
  /**
   * Lines that state a failure of this tool, which classify's FAILURE list does not know
   * (RSpec's `Failure/Error:`): a failure, never hidden, whenever this spec owns the run.
   * classify's derived gate (lib/pipeline/prefilter.ts) takes them in.
   */
  readonly failures?: readonly RegExp[];
  /**
   * Lines of this tool that classify's lists misread: a retry warning that reads as a failure,
   * a closing summary that reads as a transfer. A signal (kept) whenever this spec owns the
   * run, before the global lists are asked; its own `failures` are asked first.
   */
  readonly signals?: readonly RegExp[];

  // What proves it.

  /** Inline examples, run by test/distillers/examples.test.ts over every registered spec. */
  readonly examples: readonly SpecExample[];
}
