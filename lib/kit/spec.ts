import type { Transform } from 'node:stream';
import type { Line, PipelineContext } from './types.js';
import type { RunState } from './stage.js';
import type { CommandAnalysis } from '../command/parse.js';
import type { Runner } from '../command/runners.js';

/** What the registry read off the command line, handed to `create` so no distiller parses it again. */
export interface ProducerRoute {
  /**
   * argv of the producer that owns the output: wrappers and env prefixes peeled, `cd` chains
   * resolved, a keeping tail (`| head`) skipped, an owning tail (`| grep x`) taken instead.
   * Empty when the distiller was chosen by sniffing (no command line).
   */
  argv: string[];
}

/**
 * One entry per distiller. The registry is the only place that decides which distiller
 * owns a command; nothing else may test "does this command look like X". What a spec owns
 * is read off it by the registry's `owns` (lib/distillers/registry.ts), in this order:
 * `producers` through `runners`, then `scripts` through `runners`, then `matches`.
 */
export interface DistillerSpec {
  name: string;
  /** Family for stats and the savings table: test, build, install, git, log, … */
  family: string;
  /**
   * Programs whose output it owns, by basename, once lib/command peeled the shell's wrappers
   * (`env`, `time`, `npx` …) and one of `runners` (if it declares any) peeled: `jest`, `pytest`.
   */
  producers?: readonly string[];
  /**
   * The runners that may stand in front of one of `producers` (`pnpm vitest`, `npm exec tsc`,
   * `uv run pytest`, `python -m pytest`) or run one of `scripts` (`npm test`, `yarn build`)
   * and still route here, and every runner its `matches` reads (install's `python -m pip`).
   * Their syntax is lib/command/runners.ts; a runner no spec names routes nowhere
   * (test/distillers/runners.test.ts).
   */
  runners?: readonly Runner[];
  /** Package scripts it owns, by name, when one of `runners` runs them: `npm test`, `npm run build`. */
  scripts?: RegExp;
  /**
   * Owns output of this producer (argv after wrappers are peeled), for what a name cannot
   * say: a subcommand (`go test`), a flag (`node --test`), an argument (`cat x.log`).
   */
  matches?: (argv: string[], a: CommandAnalysis) => boolean;
  /** For `omni pipe` without --command: do these first lines look like this tool's? */
  sniff?: (head: Line[]) => boolean;
  /**
   * Every line of its output is the answer (a file's contents, a listing, search matches, git
   * history): no rule of the user's or the project's outranks it (registry.ts, routeCommand).
   */
  answer?: boolean;
  /** May the pre-hook rewrite this command into `omni exec`? (a noisy family) */
  rewrite?: boolean;
  /** Builds the distill stage. `route` is the command line as the registry already read it. */
  create: (ctx: PipelineContext, run: RunState, route: ProducerRoute) => Transform;
  /** Its own test file, when it is not test/distillers/<name>.test.ts (test/distillers/own-case.test.ts checks). */
  test?: string;
}
