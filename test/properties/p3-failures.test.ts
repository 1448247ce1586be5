/**
 * P3 Failures (issue 10): a non-zero exit inside the hold window gives the exact raw bytes;
 * past it, every failure line is present, and a marker appears only if something was removed.
 * Generated failing runs through exec (a real child, pausing past the window or not) and the
 * streaming pipe door. The corpus half: corpus.test.ts.
 */
import t from 'tap';
import fc from 'fast-check';
import { closeStores, HOLD_NEVER } from '../helpers/doors.js';
import { checkFailuresKept, checkIdentical } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';
import { runDoor, samples, type DoorName, type Sample } from '../helpers/property-doors.js';
import { FAILURE_SAMPLES } from '../helpers/generators.js';

t.teardown(closeStores);

/** A failing run: non-zero exit, at least one failure line; `pause`: the producer pauses past the window. */
const failing = (door: DoorName, pause: boolean): fc.Arbitrary<Sample> =>
  fc.tuple(samples(door), fc.constantFrom(1, 2, 101, 128), fc.constantFrom(...FAILURE_SAMPLES), fc.double({ min: 0, max: 1, noNaN: true })).map(([s, code, line, at]) => ({
    ...s,
    exitCode: code,
    spec: { ...s.spec, blocks: [...s.spec.blocks, { k: 'failure' as const, s: line }] },
    cuts: pause ? [...s.cuts, { at, pause: true }] : [],
  }));

t.test('P3 exec: a non-zero exit inside the hold window gives the exact raw bytes', async (t) => {
  await holds(t, 'P3 inside the window (exec)', failing('exec', false), async (s) => {
    const r = await runDoor('exec', s, { hold: HOLD_NEVER });
    const why = checkIdentical(r.input, r.output);
    return why && `exit ${s.exitCode} inside the hold window: ${why}`;
  }, { numRuns: runs(8, 'slow'), timeLimitMs: 8_000 });
});

for (const door of ['exec', 'pipe-stream'] as DoorName[]) {
  t.test(`P3 ${door}: past the hold window every failure line is present, and no marker unless something was removed`, async (t) => {
    await holds(t, `P3 past the window (${door})`, failing(door, true), async (s) => {
      const r = await runDoor(door, s);
      return checkFailuresKept(r.input, r.output, r.retrieve, r.command);
    }, { numRuns: runs(door === 'exec' ? 8 : 10, 'slow'), timeLimitMs: 8_000 });
  });
}
