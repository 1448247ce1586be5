/**
 * A whole session, with the real host: the python-pytest session (36 calls: explore, read,
 * failing tests, Edit, re-read, lint, build, chained and wrapped commands, git, a log) played by
 * the loopback stand-in through the pinned Claude Code CLI, once without omni and once with omni
 * installed by `omni init --claude` in a temporary HOME. Asserts that nothing was lost: failing
 * calls and first Reads byte-identical to the baseline, every must-keep line present, every
 * marker's `omni retrieve` a contiguous part of the raw output, nothing larger than without omni.
 * No savings threshold here: the figures are bench/sessions.mjs's (`npm run bench -- sessions`),
 * which runs every session, the held-out ones included.
 *
 * Run: npx tap --disable-coverage test/real-host/sessions.test.ts   (needs `node scripts/build.mjs`,
 * python3 with pytest, flake8, make, git)
 */
import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeBin, omniBin, type RunResult } from './harness.js';
import { needs } from '../helpers/needs.js';
import { handlesIn, kindKey } from './sessions/measure.js';
import { measurePair, missingPrograms, runSessionPair, sessionPath } from './sessions/run-pair.js';
import { pythonSession as SESSION } from './sessions/projects/python.js';
import { callTable, costTable, kindTable, sessionTable } from './sessions/report.js';

const probe = mkdtempSync(join(tmpdir(), 'omni-sessions-probe-'));
const missing = missingPrograms(SESSION, sessionPath(probe));
rmSync(probe, { recursive: true, force: true });
const canRun = existsSync(claudeBin()) && existsSync(omniBin()) && missing.length === 0;

/** The omni run with the text of some calls replaced: what the model would have got had omni done that. */
function doctored(run: RunResult, change: Record<number, (text: string) => string>): RunResult {
  return { ...run, results: run.results.map((r, i) => (r && change[i] ? { ...r, text: change[i](r.text) } : r)) };
}

t.test(`${SESSION.name}: a whole session with omni installed loses nothing`, async (t) => {
  if (!needs(t, canRun, `${claudeBin()}, ${omniBin()} (node scripts/build.mjs) and ${missing.join(', ') || 'the session\'s programs'} on PATH`)) return;
  const { report, base, omni } = await runSessionPair(SESSION, { keep: true });
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });

  t.equal(omni.version, '2.1.332', 'the pinned CLI ran');
  t.match(omni.initOutput, /transport|hooks registered/, '`omni init --claude` installed omni');
  t.same(report.runNotes, [], 'both runs ended normally, with no hook error in the transcript');
  t.same(report.scriptErrors, [], 'the script holds without omni: every must-keep is in the raw output, every call meant to fail failed');
  t.equal(report.calls.filter((c) => c.raw > 0).length, SESSION.steps.length, 'every call reached the model without omni');
  t.ok(report.calls.some((c) => c.markers > 0), 'omni was in the loop: some call came back with a marker');

  for (const c of report.calls) {
    t.same(c.problems.map((p) => `${p.type}: ${p.detail}`), [], `call ${c.index} [${kindKey(c)}] ${c.label}: nothing lost`);
  }

  t.test('the same check fails when omni would have lost a line', async (t) => {
    const failing = SESSION.steps.findIndex((s) => s.fails && s.kind === 'test-fail');
    const kept = SESSION.steps.findIndex((s, i) => s.kind === 'test-pass' && typeof s.keep?.[0] !== 'string' && report.calls[i].markers > 0);
    const marked = report.calls.findIndex((c) => c.markers > 0 && c.index !== kept);
    t.ok(failing >= 0 && kept >= 0 && marked >= 0, `a failing call (${failing}), a distilled passing run (${kept}) and another call with a marker (${marked})`);
    const otherHandle = handlesIn(omni.results[kept]!.text)[0];
    const bad = measurePair(
      SESSION,
      base,
      doctored(omni, {
        // drop one line of the failure's output
        [failing]: (x) => x.split('\n').filter((l) => !l.startsWith('FAILED tests/test_ledger.py')).join('\n'),
        // drop the verdict line the script says must be kept
        [kept]: (x) => x.split('\n').filter((l) => !(SESSION.steps[kept].keep![0] as RegExp).test(l)).join('\n'),
        // point a marker at bytes of another call
        [marked]: (x) => x.replace(/omni retrieve [0-9a-f]{16}\]/, `omni retrieve ${otherHandle}]`),
      }),
    );
    t.ok(bad.calls[failing].problems.some((p) => p.type === 'failure-changed'), 'a failing call missing a line');
    t.ok(bad.calls[kept].problems.some((p) => p.type === 'keep-lost'), 'a passing run missing its verdict');
    t.ok(bad.calls[marked].problems.some((p) => p.type === 'retrieve-not-contiguous'), 'a marker whose bytes are not this call\'s');
    t.equal(bad.totals.problems, bad.calls.reduce((a, c) => a + c.problems.length, 0));
  });

  t.comment(`\n${sessionTable([report])}\n\n${kindTable([report])}\n\n${costTable([report])}\n\n${callTable(report)}`);
});
