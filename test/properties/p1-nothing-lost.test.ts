/**
 * P1 Nothing lost, in place (issue 10), on generated inputs through every door: expanding each
 * marker in place with the bytes its handle retrieves gives back the input byte for byte; an
 * output with in-line normalisations or rewritten forms names a handle to the whole raw input,
 * and every fold still stands where its contiguous run stood. The corpus half: corpus.test.ts.
 */
import t from 'tap';
import { closeStores } from '../helpers/doors.js';
import { checkNothingLost } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';
import { DOOR_RUNS, runDoor, samples, type DoorName } from '../helpers/property-doors.js';

t.teardown(closeStores);

for (const door of ['pipe', 'hook', 'pipe-stream', 'exec'] as DoorName[]) {
  t.test(`P1 nothing lost, in place (${door})`, async (t) => {
    const [n, cost] = DOOR_RUNS[door];
    await holds(t, `P1 (${door})`, samples(door), async (s) => {
      const r = await runDoor(door, s);
      return checkNothingLost(r.input, r.output, r.retrieve);
    }, { numRuns: runs(n, cost), timeLimitMs: cost === 'slow' ? 15_000 : 20_000 });
  });
}
