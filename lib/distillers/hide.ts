import type { Transform } from 'node:stream';
import type { Line } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import type { Hit, Recognition, Recogniser } from '../kit/units.js';
import { stageOf } from './engine.js';

/**
 * The one way to hide lines. A distiller declares what its tool's lines are and states no
 * mechanism: its spec's `lines(route)` (lib/kit/spec.ts) says, for one run, which lines are
 * removable noise (`see`), what a marker of them says (`note`), what becomes of the rest
 * (`others`) and the fold unit (lib/kit/units.ts). The registry hands that to `stageFor`, and
 * the one engine (engine.ts) turns it into the distill stage. Every fold asks `foldPays`
 * (lib/kit/marker.ts), never hides a failure line, and puts its marker where its lines stood.
 *
 * Distillers import the hits and helpers below (and runner.ts's), never engine.ts or
 * kit/stage's `batchStage`: test/distillers/one-way.test.ts fails when one does.
 */
export type { Hit, Recogniser, Repeats, Rewriting, Rewrites, LineHandler, Recognition } from '../kit/units.js';

/** A lead-in line (`=== RUN x`): hidden with the run it starts, kept before a kept line. */
export const LEAD: Hit = { noun: '', lead: true };
/** A detail line that belongs to the recognised line before it (a passing test's YAML). */
export const DETAIL: Hit = { noun: '' };
export const PASSED: Hit = { noun: 'passing tests' };

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

/** The distill stage of one run's recognition: the one engine's. Only the registry calls it. */
export function stageFor(run: RunState, rec: Recognition): Transform {
  return stageOf(run, rec);
}
