import type { Transform } from 'node:stream';
import type { Line, PipelineContext } from './types.js';
import type { RunState } from './stage.js';
import type { CommandAnalysis } from '../command/parse.js';

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
 * owns a command; nothing else may test "does this command look like X".
 */
export interface DistillerSpec {
  name: string;
  /** Family for stats and the savings table: test, build, install, git, log, … */
  family: string;
  /** Owns output of this producer (argv after wrappers are peeled). */
  matches?: (argv: string[], a: CommandAnalysis) => boolean;
  /** For `omni pipe` without --command: do these first lines look like this tool's? */
  sniff?: (head: Line[]) => boolean;
  /** May the pre-hook rewrite this command into `omni exec`? (a noisy family) */
  rewrite?: boolean;
  /** Builds the distill stage. `route` is the command line as the registry already read it. */
  create: (ctx: PipelineContext, run: RunState, route: ProducerRoute) => Transform;
  /** Its own test file, when it is not test/distillers/<name>.test.ts (test/distillers/own-case.test.ts checks). */
  test?: string;
}
