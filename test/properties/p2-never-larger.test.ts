/**
 * P2 Never larger (issue 10): on generated inputs, no door delivers more bytes than it got,
 * streaming included. The corpus half: corpus.test.ts.
 */
import t from 'tap';
import { closeStores } from '../helpers/doors.js';
import { checkNotLarger } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';
import { DOOR_RUNS, doorStats, runDoor, samples, type DoorName } from '../helpers/property-doors.js';

t.teardown(closeStores);

for (const door of ['pipe', 'hook', 'pipe-stream', 'exec'] as DoorName[]) {
  t.test(`P2 never larger (${door})`, async (t) => {
    const [n, cost] = DOOR_RUNS[door];
    await holds(t, `P2 (${door})`, samples(door), async (s) => {
      const r = await runDoor(door, s);
      return checkNotLarger(r.input, r.output);
    }, { numRuns: runs(n, cost), timeLimitMs: cost === 'slow' ? 8_000 : 10_000 });
    t.comment(`${door}: ${doorStats[door].changed} of ${doorStats[door].runs} outputs differ from their input`);
  });
}
