/**
 * Every corpus case through the exec door (issue 10, P1-P4, P6): a real child replays the
 * case's bytes under the case's own command; a third of the runs pause past the hold window.
 */
import t from 'tap';
import { loadCorpus } from '../helpers/corpus.js';
import { rules, type Run } from '../helpers/corpus-rules.js';
import { closeStores, CROSSING_PAUSE_S, execInProcess, execProcess, HOLD_NEVER, HOLD_SHORT, pool, programsOf, REPLAYABLE_FLOOR, retrieverFor, propHome } from '../helpers/doors.js';
import { checkFailuresKept, checkIdentical } from '../helpers/markers.js';
import { sweep, type SweepFailure } from '../helpers/property.js';

const cases = loadCorpus();
t.ok(cases.length > 100, `the corpus is there (${cases.length} cases)`);
t.teardown(closeStores);

const replayable = cases.filter((c) => programsOf(c.cmd) !== null);

t.test('exec: a real child replays every case; a third of them pause past the hold window', async (t) => {
  t.ok(replayable.length > cases.length * REPLAYABLE_FLOOR, `${replayable.length} of ${cases.length} commands replayable (the rest need a shell builtin, a path or a pipe)`);
  const home = propHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const inside: SweepFailure[] = [];
  const past: SweepFailure[] = [];
  let nInside = 0;
  let nPast = 0;
  // Three at a time: most of a run is the child's pause and start-up, not CPU.
  const results = await pool(replayable, 3, async (c, i) => {
    const cross = i % 3 === 0;
    const mid = c.output.indexOf(10, c.output.length >> 1) + 1 || c.output.length;
    const chunks = cross
      ? [{ bytes: c.output.subarray(0, mid), pause: 0 }, { bytes: c.output.subarray(mid), pause: CROSSING_PAUSE_S }]
      : [{ bytes: c.output, pause: 0 }];
    return { c, cross, r: await execInProcess({ command: c.cmd, chunks, exitCode: c.exitCode }, { home, hold: cross ? HOLD_SHORT : HOLD_NEVER }) };
  });
  for (const { c, cross, r } of results) {
    if (r.exitCode !== c.exitCode) t.fail(`${c.name}: exec returned ${r.exitCode}, the child exited ${c.exitCode}`);
    runs.push({ c, input: r.raw, output: r.output, retrieve });
    if (c.exitCode === 0) continue;
    if (cross) {
      nPast++;
      const why = checkFailuresKept(r.raw, r.output, retrieve, c.cmd);
      if (why) past.push({ case: c.name, reason: why });
    } else {
      nInside++;
      const why = checkIdentical(r.raw, r.output);
      if (why) inside.push({ case: c.name, reason: `exit ${c.exitCode} inside the hold window: ${why}` });
    }
  }
  rules(t, 'exec', runs);
  sweep(t, 'P3 failures inside the hold window give the raw bytes (exec)', nInside, inside);
  sweep(t, 'P3 failures past the hold window (exec)', nPast, past);
});

t.test('exec-process: the real `omni exec` for a sample', async (t) => {
  const home = propHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const sample = replayable.filter((_, i) => i % 30 === 1);
  for (const c of sample) {
    const r = execProcess({ command: c.cmd, chunks: [{ bytes: c.output, pause: 0 }], exitCode: c.exitCode }, { home, hold: HOLD_NEVER });
    t.equal(r.exitCode, c.exitCode, `${c.name}: omni exec exits with the child's code`);
    runs.push({ c, input: r.raw, output: r.output, retrieve });
  }
  rules(t, 'exec-process', runs);
});

