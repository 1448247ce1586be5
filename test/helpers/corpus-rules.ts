/**
 * The corpus half of the rule properties (corpus.test.ts, corpus-exec.test.ts): P1, P2, P6 on
 * every run of a door, P4 on its structured ones, one tap assertion per rule and door.
 */
import type { Test } from 'tap';
import { STRUCTURED_KINDS, type CorpusCase } from './corpus.js';
import { checkHandles, checkIdentical, checkNotLarger, checkNothingLost, type Retrieve } from './markers.js';
import { sweep, type SweepFailure } from './property.js';

export const utf8 = (b: Buffer) => { try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; } };
export const structured = (c: CorpusCase) => STRUCTURED_KINDS.has(c.kind) || !utf8(c.output);

/** `held`: a Read of a file the reader already holds (structured content still comes back whole). */
export interface Run { c: CorpusCase; input: Buffer; output: Buffer; retrieve: Retrieve; held?: boolean }

/** P1, P2, P6 on every run of a door, P4 on its structured ones. */
export function rules(t: Test, door: string, runs: Run[]): void {
  const f = { p1: [] as SweepFailure[], p2: [] as SweepFailure[], p4: [] as SweepFailure[], p6: [] as SweepFailure[] };
  let nStructured = 0;
  for (const r of runs) {
    const add = (k: keyof typeof f, why: string | null) => { if (why) f[k].push({ case: r.c.name, reason: why }); };
    add('p1', checkNothingLost(r.input, r.output, r.retrieve));
    add('p2', checkNotLarger(r.input, r.output));
    add('p6', checkHandles(r.output, r.retrieve));
    if (structured(r.c)) { nStructured++; add('p4', checkIdentical(r.input, r.output)); }
  }
  sweep(t, `P1 nothing lost, in place (${door})`, runs.length, f.p1);
  sweep(t, `P2 never larger (${door})`, runs.length, f.p2);
  if (nStructured) sweep(t, `P4 untouched (${door})`, nStructured, f.p4);
  sweep(t, `P6 handles (${door})`, runs.length, f.p6);
}


