/**
 * P6 Handles (issue 10): every marker in every door's output names a handle, and the handle
 * retrieves (from the store; for a few, through `omni retrieve` as a user runs it). Reads are
 * read twice by the same reader, so the ledger's head fold is exercised. The corpus half:
 * corpus.test.ts.
 */
import t from 'tap';
import fc from 'fast-check';
import { closeStores, freshReader, hookRead, hookText, retrieverFor, retrieveProcess, propHome } from '../helpers/doors.js';
import { checkHandles, checkReadNumbering, markersIn } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';
import { DOOR_RUNS, doorStats, runDoor, samples, type DoorName } from '../helpers/property-doors.js';
import { build, inputSpec, TEXT_CASES } from '../helpers/generators.js';

t.teardown(closeStores);

for (const door of ['pipe', 'hook', 'pipe-stream', 'exec'] as DoorName[]) {
  t.test(`P6 handles (${door})`, async (t) => {
    const [n, cost] = DOOR_RUNS[door];
    let viaCli = 0;
    let marked = 0;
    await holds(t, `P6 (${door})`, samples(door), async (s) => {
      const r = await runDoor(door, s);
      marked += markersIn(r.output).length;
      const why = checkHandles(r.output, r.retrieve);
      if (why || viaCli >= 2 || door !== 'pipe') return why;
      // A few through the CLI: `omni retrieve` gives the same bytes the store holds.
      for (const m of markersIn(r.output).slice(0, 1)) {
        viaCli++;
        const p = retrieveProcess(r.home, m.handle);
        if (p.status !== 0 || !p.stdout.equals(r.retrieve(m.handle)!)) return `omni retrieve ${m.handle} exited ${p.status} with ${p.stdout.length} B`;
      }
      return null;
    }, { numRuns: runs(n, cost), timeLimitMs: cost === 'slow' ? 8_000 : 10_000 });
    t.comment(`${door}: ${doorStats[door].changed} of ${doorStats[door].runs} outputs differ from their input`);
    // Without markers the handle check has nothing to check.
    t.ok(marked > 0, `${door}: ${marked} markers checked`);
    if (door === 'pipe') t.ok(viaCli > 0, `${viaCli} handles retrieved through omni retrieve`);
  });
}

t.test('P6 handles (hook Read, the same file read twice)', async (t) => {
  const home = propHome();
  const retrieve = retrieverFor(home);
  const spec = fc.constantFrom(...TEXT_CASES).chain((own) => inputSpec({ text: true, own, maxBlocks: 3 }));
  await holds(t, 'P6 (hook Read)', fc.record({ spec, startLine: fc.constantFrom(1, 1, 50) }), async ({ spec, startLine }) => {
    const content = hookText(build(spec));
    const reader = freshReader();
    const path = `${reader.cwd}/file.txt`;
    for (const pass of [1, 2]) {
      const d = await hookRead(content, { path, home, reader, startLine });
      if (!d.replied) continue;
      const why = checkHandles(d.output, retrieve) ?? checkReadNumbering(content, startLine, d.output.toString('utf8'), d.startLine!);
      if (why) return `read ${pass}: ${why}`;
    }
    return null;
  }, { numRuns: runs(30) });
});
