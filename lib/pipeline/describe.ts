/**
 * The description of one run, resolved by the door before the pipeline is built and never
 * written after: who the run is for (PipelineContext), who distils it (the route, with the
 * rules of one's own read here, once), and how long the streaming doors hold output back.
 * The pipeline reads it; it reads no file and no environment of its own.
 */
import type { DistillerSpec } from '../kit/spec.js';
import type { PipelineContext } from '../kit/types.js';
import type { RuleSet } from '../rules/load.js';
import { routeCommand, specByName, type Route } from '../distillers/registry.js';
import { passthroughRequested } from '../command/passthrough.js';

/** exec and pipe hold output this long before streaming (README: "the hold-back window"). */
export const DEFAULT_HOLD_BYTES = 256 << 10;
export const DEFAULT_HOLD_MS = 2000;
/**
 * …but stop holding sooner once the command has gone quiet this long: a dev server's or a
 * `sleep`ing script's first line shows within about half a second, while a command that is
 * busy printing (npm starting node, a test run) is still judged whole, so its failure can
 * come back verbatim. 500 ms covers npm's own start-up gap on a loaded 2-core machine.
 */
export const DEFAULT_HOLD_IDLE_MS = 500;

/**
 * Output is held (and can still be replaced by the raw bytes) until `bytes` of input or `ms`
 * have passed, or the input was quiet for `idleMs`; after that it streams.
 */
export interface HoldWindow {
  readonly bytes: number;
  readonly ms: number;
  readonly idleMs: number;
}

/** The buffered door's window: held to the end, no timer, so the result never depends on timing. */
export const HELD_TO_END: HoldWindow = Object.freeze({ bytes: Infinity, ms: Infinity, idleMs: Infinity });

/** Who distils the run. */
export type Routing =
  /** A spec the door's route (or the host's Read) names; `distiller` 'none' when nothing owns it. */
  | {
      readonly kind: 'spec';
      readonly spec: DistillerSpec;
      /**
       * The built-in spec whose own lines (failures, signals) classify takes in: the owner's, or
       * where a rule of one's own owns the run, the spec of the tool that printed it. A rule
       * decides what is hidden, never what states a failure.
       */
      readonly tool: DistillerSpec | null;
      readonly argv: string[];
      readonly distiller: string;
      readonly family: string;
      /**
       * Several producers, or one that names no tool (`make test`, `npm test`): the route whose
       * producers a mixed run is read by (lib/distillers/mix.ts; each run builds its own Mix).
       */
      readonly mixed: Route | null;
    }
  /** No command line: the first batch picks the spec (a bare `omni pipe`, an MCP tool's text). */
  | { readonly kind: 'sniff' };

export interface RunDescription extends PipelineContext {
  readonly hold: HoldWindow;
  readonly routing: Routing;
  /** The run goes byte for byte from its first byte: the command line asks for it, or nothing owns it. */
  readonly passthrough: boolean;
}

/** What a door knows about a run; describeRun resolves the rest. */
export interface RunRequest extends PipelineContext {
  /**
   * Rules of one's own (lib/rules/load.ts): the omni home holding the user's rules (default
   * `$OMNI_HOME` of this process), or a set loaded already (`omni rules test`). Read only when
   * the run has a command and a place (cwd or this).
   */
  readonly rules?: { readonly home?: string; readonly set?: RuleSet };
  /** The streaming doors' window; what is not given takes the defaults. */
  readonly hold?: Partial<HoldWindow>;
}

export function describeRun(req: RunRequest): RunDescription {
  const { rules, hold, ...ctx } = req;
  const routed = routingOf(req);
  return Object.freeze({
    ...ctx,
    hold: Object.freeze({ bytes: hold?.bytes ?? DEFAULT_HOLD_BYTES, ms: hold?.ms ?? DEFAULT_HOLD_MS, idleMs: hold?.idleMs ?? DEFAULT_HOLD_IDLE_MS }),
    routing: Object.freeze(routed.routing),
    passthrough: passthroughRequested(req.command) || routed.unowned,
  });
}

/** The same run held to the end (the buffered door). */
export function heldToEnd(run: RunDescription): RunDescription {
  return run.hold === HELD_TO_END ? run : Object.freeze({ ...run, hold: HELD_TO_END });
}

function routingOf(req: RunRequest): { routing: Routing; unowned: boolean } {
  if (req.tool === 'Read') {
    // A host's file read is a file's text, every line of it the answer: the read distiller keeps
    // it as it is (the ledger may still fold a head the reader was shown).
    const spec = specByName('read');
    return { routing: { kind: 'spec', spec, tool: spec, argv: [], distiller: spec.name, family: spec.family, mixed: null }, unowned: false };
  }
  if (!req.command) return { routing: { kind: 'sniff' }, unowned: false };
  // Rules of one's own belong to a place: a door names its cwd (or a set is given). A bare
  // library call with neither stays a pure function of its input.
  const r = req.rules;
  const scope = req.cwd || r ? { cwd: req.cwd, home: r?.home, set: r?.set } : undefined;
  const route = routeCommand(req.command, scope);
  // A program run by its path names no tool: its first lines choose, as with no command.
  if (route.sniff) return { routing: { kind: 'sniff' }, unowned: false };
  const spec = route.spec ?? specByName(route.distiller ?? 'generic');
  const owned = route.distiller !== null;
  // A rule's run: the built-in spec of the tool its producer runs.
  const tool = route.rule ? route.producers?.[0]?.tool ?? null : spec;
  const argv = route.argv ?? [];
  if (owned && route.mixed) {
    // A mixed run is counted as the route's lead (or, naming none, as what its output names first).
    return { routing: { kind: 'spec', spec, tool, argv, distiller: route.distiller!, family: route.family, mixed: route }, unowned: false };
  }
  return {
    routing: { kind: 'spec', spec, tool, argv, distiller: owned ? spec.name : 'none', family: owned ? spec.family : 'none', mixed: null },
    unowned: !owned,
  };
}
