import type { Transform } from 'node:stream';
import type { Line, PipelineContext } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import type { ProducerRoute } from '../kit/spec.js';
import { stageOf, type Hit, type Recognition, type Recogniser } from './engine.js';

/**
 * The one way to hide lines. A distiller declares what its tool's lines are and states no
 * mechanism: a `Family` whose `recogniser(route)` says, for one run, which lines are
 * removable noise (`see`), what a marker of them says (`note`), what becomes of the rest
 * (`others`) and the fold unit. `hiding(family)` is the distill stage: the one engine
 * (engine.ts) turns the declaration into it. Every fold asks `foldPays` (lib/kit/marker.ts),
 * never hides a failure line, and puts its marker where its lines stood.
 *
 * Units (engine.ts says how each works):
 *   'run' (default)  each contiguous run of recognised lines -> one marker in its place;
 *                    failure lines, verdicts and everything unrecognised stay
 *   'repeat'         log records: a record whose template was seen earlier between two
 *                    barriers is hidden in place; the first of each stays
 *   'rewrite'        rewritten forms (git log one line per commit, diff hunks renumbered,
 *                    a search's paths grouped): lines condensed in place, removed lines behind
 *                    one summary marker, beside the whole raw output render names
 *
 * Distillers import this file (and runner.ts's `familySpec`), never engine.ts or
 * kit/stage's `batchStage`: test/distillers/one-way.test.ts fails when one does.
 */
export type { Hit, Recogniser, Repeats, Rewriting, Rewrites, LineHandler, Recognition } from './engine.js';

/** A lead-in line (`=== RUN x`): hidden with the run it starts, kept before a kept line. */
export const LEAD: Hit = { noun: '', lead: true };
/** A detail line that belongs to the recognised line before it (a passing test's YAML). */
export const DETAIL: Hit = { noun: '' };
export const PASSED: Hit = { noun: 'passing tests' };

/** What a distiller declares: its name, how its output looks (sniff), what one run recognises. */
export interface Family<R extends Recognition = Recogniser> {
  name: string;
  /** True when this plain line is characteristic of the tool (for sniffing). Absent: never sniffed. */
  detect?(plain: string): boolean;
  /** What one run recognises (it may keep state over the run's lines); `route` is the command line as routed. */
  recogniser(route: ProducerRoute): R;
}

/** Recognises nothing: every line stays as it is (enumerations, reads). */
export const NOTHING: Recogniser = { others: 'keep' };

const NOISE: Hit = { noun: '' };

/**
 * A 'run' recogniser for a tool whose patterns alone say what goes (`others: 'keep'`: no
 * generic fold, no tier changed): each contiguous run of lines `isNoise` recognised is one
 * marker in its place, worded by `note`. `isNoise` sees every line in order.
 */
export function onlyWhere(isNoise: (l: Line) => boolean, note: (hidden: Line[]) => string): Recogniser {
  return { see: (l) => (isNoise(l) ? NOISE : null), note, others: 'keep' };
}

type Create = (ctx: PipelineContext, run: RunState, route: ProducerRoute) => Transform;
const MADE = new WeakSet<Create>();

/** The distill stage of a declaration: the `create` of its spec. */
export function hiding(f: Family<Recognition>): Create {
  const create: Create = (_ctx, run, route) => stageOf(run, f.recogniser(route));
  MADE.add(create);
  return create;
}

/** Was this `create` made by `hiding` (the one way)? For test/distillers/one-way.test.ts. */
export function isDeclared(create: Create): boolean {
  return MADE.has(create);
}

/** Sniff over the first lines: does any line look like this family's? */
export function sniffFamily(f: Family<Recognition>, head: Line[]): boolean {
  if (!f.detect) return false;
  for (const l of head) if (f.detect(l.plain ?? l.text)) return true;
  return false;
}
