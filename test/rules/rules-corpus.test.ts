/**
 * The worst rule a trusted file can hold, on every real corpus case: `"hide": [".*"]` (and
 * the other broad patterns) for the case's own program, through every door: the hook and the
 * buffered pipe (exit 0, so no failing exit saves the day), the streaming pipe door, and the
 * exec door around a real child replaying the case. Every line classify calls a failure still
 * reaches the output as it was, structured output stays byte for byte, every marker expands
 * in place to the input, and no output grows (P1, P2, P4, P6 as the corpus sweep checks them
 * for the built-in distillers).
 */
import t from 'tap';
import type { Test } from 'tap';
import stripAnsi from 'strip-ansi';
import { writeFileSync } from 'node:fs';
import { loadCorpus, type CorpusCase } from '../helpers/corpus.js';
import { rules, structured, type Run } from '../helpers/corpus-rules.js';
import { closeStores, execInProcess, HOLD_NEVER, pipeStream, pool, programsOf, propHome, REPLAYABLE_FLOOR, retrieverFor } from '../helpers/doors.js';
import { checkFailuresKept } from '../helpers/markers.js';
import { sweep, type SweepFailure } from '../helpers/property.js';
import { distill } from '../helpers/omni.js';
import { validateRules } from '../../lib/rules/schema.js';
import { ruleSetOf, userRulesPath } from '../../lib/rules/load.js';
import { producerArgv, programOf } from '../../lib/distillers/shared.js';
import { classifyLine } from '../../lib/pipeline/classify.js';

t.teardown(closeStores);

const cases = loadCorpus();

/** Patterns that match every line, or nearly; case i gets BROAD[i % BROAD.length]. */
const BROAD = [['.*', '^$'], ['^$|.'], ['[\\s\\S]*'], ['\\S', '^\\s*$'], ['^.{0,16}', '^$']];

function hideAll(command: string, hide: string[] = BROAD[0]) {
  const program = programOf(producerArgv(command)) || 'sh';
  const { rules: rs, errors } = validateRules({ rules: [{ name: 'hide-all', match: { program }, hide }] }, '/project/.omni/rules.json');
  if (errors.length) throw new Error(errors.join('; '));
  return ruleSetOf([{ file: '/project/.omni/rules.json', source: 'project', sha256: 'x', rules: rs, errors: [], trusted: true }]);
}

t.test('a trusted hide-everything rule on every corpus case', async (t) => {
  t.ok(cases.length >= 100, `${cases.length} cases`);
  const home = propHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const lost: string[] = [];
  let owned = 0;
  for (const [i, c] of cases.entries()) {
    const r = await distill(c.output, { command: c.cmd, door: 'hook', exitCode: 0, cwd: '/project', rules: { set: hideAll(c.cmd, BROAD[i % BROAD.length]) } }, home);
    if (r.distiller === 'rule:project:hide-all') owned++;
    runs.push({ c, input: c.output, output: r.output, retrieve });
    if (structured(c)) continue;
    const out = new Set(stripAnsi(r.output.toString('utf8')).split(/\r?\n/));
    for (const line of stripAnsi(c.output.toString('utf8')).split(/\r?\n/)) {
      if (classifyLine(line, null) === 'failure' && !out.has(line)) { lost.push(`${c.name}: ${line.slice(0, 100)}`); break; }
    }
  }
  t.ok(owned >= cases.length / 2, `the rule owned ${owned} of ${cases.length} cases`);
  t.same(lost, [], 'no failure line was hidden');
  rules(t, 'hook, hide-all rule', runs);
});

/** The same sweep through the buffered pipe door with the rule in the user's file of a home. */
t.test('the buffered pipe door: a user rule hiding everything, on every corpus case', async (t) => {
  const home = propHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const failures: SweepFailure[] = [];
  let owned = 0;
  for (const [i, c] of cases.entries()) {
    const r = await distill(c.output, { command: c.cmd, door: 'pipe', exitCode: 0, cwd: '/project', rules: { set: hideAll(c.cmd, BROAD[(i + 1) % BROAD.length]) } }, home);
    if (r.distiller === 'rule:project:hide-all') owned++;
    runs.push({ c, input: c.output, output: r.output, retrieve });
    if (structured(c)) continue;
    const why = checkFailuresKept(c.output, r.output, retrieve, c.cmd);
    if (why) failures.push({ case: c.name, reason: why });
  }
  t.ok(owned >= cases.length / 2, `the rule owned ${owned} of ${cases.length} cases`);
  sweep(t, 'failure lines kept (pipe, hide-all rule)', cases.length, failures);
  rules(t, 'pipe, hide-all rule', runs);
});

/** Every program the corpus runs: one user rule for all of them, as the streaming doors read rules from OMNI_HOME. */
function userRuleForAll(home: string): void {
  const programs = [...new Set(cases.map((c) => programOf(producerArgv(c.cmd))).filter(Boolean))];
  writeFileSync(userRulesPath(home), JSON.stringify({ rules: [{ name: 'hide-all', match: { program: ['sh', ...programs] }, hide: ['.*', '^$'] }] }));
}

async function streamingDoor(t: Test, door: 'pipe-stream' | 'exec', list: CorpusCase[]): Promise<void> {
  const home = propHome();
  userRuleForAll(home);
  const retrieve = retrieverFor(home);
  const results = await pool(list, door === 'exec' ? 3 : 1, async (c) => {
    if (door === 'exec') {
      const r = await execInProcess({ command: c.cmd, chunks: [{ bytes: c.output, pause: 0 }], exitCode: 0 }, { home, hold: HOLD_NEVER });
      return { c, input: r.raw, output: r.output };
    }
    return { c, input: c.output, output: await pipeStream([{ bytes: c.output, pauseMs: 0 }], { command: c.cmd, home, env: HOLD_NEVER }) };
  });
  const runs: Run[] = [];
  const failures: SweepFailure[] = [];
  let changed = 0;
  for (const { c, input, output } of results) {
    runs.push({ c, input, output, retrieve });
    if (!output.equals(input)) changed++;
    if (structured(c)) continue;
    const why = checkFailuresKept(input, output, retrieve, c.cmd);
    if (why) failures.push({ case: c.name, reason: why });
  }
  t.ok(changed >= list.length / 3, `${changed} of ${list.length} outputs changed (the rule was at work)`);
  sweep(t, `failure lines kept (${door}, hide-all rule)`, list.length, failures);
  rules(t, `${door}, hide-all rule`, runs);
}

t.test('the streaming pipe door: a user rule hiding everything, on every corpus case', async (t) => {
  await streamingDoor(t, 'pipe-stream', cases);
});

t.test('the exec door: a user rule hiding everything, a real child replaying every case it can', async (t) => {
  const replayable = cases.filter((c) => programsOf(c.cmd) !== null);
  t.ok(replayable.length > cases.length * REPLAYABLE_FLOOR, `${replayable.length} of ${cases.length} replayable`);
  await streamingDoor(t, 'exec', replayable);
});
