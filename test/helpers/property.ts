/**
 * fast-check inside tap for the rule properties: a fixed seed (OMNI_PROPERTY_SEED, default a
 * constant, so CI runs the same inputs every time) and OMNI_PROPERTY_RUNS for deeper local runs.
 * A failing property's tap assertion carries fast-check's report: the seed, the path, the shrunk
 * counterexample and the checker's reason.
 */
import fc from 'fast-check';
import type { Test } from 'tap';

export const SEED = Number(process.env.OMNI_PROPERTY_SEED ?? 20261201);
const DEEP = process.env.OMNI_PROPERTY_RUNS ? Number(process.env.OMNI_PROPERTY_RUNS) : null;

/** numRuns: the default, or OMNI_PROPERTY_RUNS scaled by the door's cost (exec spawns a child per run). */
export function runs(defaultRuns: number, cost: 'cheap' | 'slow' = 'cheap'): number {
  if (DEEP === null || !Number.isFinite(DEEP) || DEEP < 1) return defaultRuns;
  return cost === 'slow' ? Math.max(1, Math.ceil(DEEP / 5)) : DEEP;
}

/** Thrown by a checker's wrapper so fast-check reports the rule's own reason. */
export class Broken extends Error {}

/**
 * Checks `rule` on `numRuns` generated values; `rule` returns null when the property holds or
 * a reason. One tap assertion; on failure its message names the shrunk counterexample.
 */
export async function holds<T>(
  t: Test,
  name: string,
  arb: fc.Arbitrary<T>,
  rule: (v: T) => Promise<string | null> | string | null,
  /** timeLimitMs: the budget for shrinking a failure (default 10 s). */
  opts: { numRuns: number; timeLimitMs?: number },
): Promise<void> {
  const prop = fc.asyncProperty(arb, async (v) => {
    const why = await rule(v);
    if (why) throw new Broken(why);
  });
  // Every run is made whatever the machine's load (the seed fixes which inputs); only the
  // shrinking of a failure has a time budget, so a slow door cannot stall the suite.
  const first = await fc.check(prop, { seed: SEED, numRuns: opts.numRuns, endOnFailure: true });
  let d = first;
  if (first.failed && first.counterexamplePath) {
    const shrunk = await fc.check(prop, {
      seed: SEED,
      numRuns: opts.numRuns,
      path: first.counterexamplePath,
      interruptAfterTimeLimit: opts.timeLimitMs ?? 10_000,
      markInterruptAsFailure: false,
    });
    if (shrunk.failed) d = shrunk;
  }
  if (!d.failed) {
    t.pass(`${name}: holds on ${d.numRuns} generated inputs (seed ${SEED})`);
    return;
  }
  const report = fc.defaultReportMessage(d) ?? 'failed';
  const reason = d.errorInstance instanceof Error ? d.errorInstance.message : String(d.errorInstance);
  const example = fc.stringify(d.counterexample?.[0]);
  t.comment(`${name} FAILED\n${report}`);
  t.fail(`${name}: ${reason.slice(0, 600)} | counterexample (after ${d.numShrinks} shrinks, seed ${SEED}): ${example.slice(0, 1500)}`, {
    counterexample: example,
    reason,
    seed: d.seed,
    path: d.counterexamplePath,
  });
}

export interface SweepFailure { case: string; reason: string }

/** One assertion for a rule over a set of named runs (the corpus sweep): lists every case that breaks it. */
export function sweep(t: Test, name: string, total: number, failures: SweepFailure[]): void {
  if (!failures.length) {
    t.pass(`${name}: holds on all ${total} cases`);
    return;
  }
  for (const f of failures) t.comment(`${name} ${f.case}: ${f.reason}`);
  t.fail(`${name}: ${failures.length} of ${total} cases fail: ${failures.map((f) => f.case).join(', ')}`, {
    failures: failures.map((f) => `${f.case}: ${f.reason.slice(0, 400)}`),
  });
}
