/**
 * The worst rule a trusted file can hold, on every real corpus case: `"hide": [".*"]` for the
 * case's own program, through the hook door (exit 0, so no failing exit saves the day). Every
 * line classify calls a failure still reaches the output as it was, structured output stays
 * byte for byte, every marker expands in place to the input, and no output grows
 * (P1, P2, P4, P6 as the corpus sweep checks them for the built-in distillers).
 */
import t from 'tap';
import stripAnsi from 'strip-ansi';
import { loadCorpus } from '../helpers/corpus.js';
import { rules, structured, type Run } from '../helpers/corpus-rules.js';
import { closeStores, propHome, retrieverFor } from '../helpers/doors.js';
import { distill } from '../helpers/omni.js';
import { validateRules } from '../../lib/rules/schema.js';
import { ruleSetOf } from '../../lib/rules/load.js';
import { producerArgv, programOf } from '../../lib/distillers/shared.js';
import { classifyLine } from '../../lib/pipeline/classify.js';

t.teardown(closeStores);

const cases = loadCorpus();

function hideAll(command: string) {
  const program = programOf(producerArgv(command)) || 'sh';
  const { rules: rs, errors } = validateRules({ rules: [{ name: 'hide-all', match: { program }, hide: ['.*', '^$'] }] }, '/project/.omni/rules.json');
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
  for (const c of cases) {
    const r = await distill(c.output, { command: c.cmd, door: 'hook', exitCode: 0, cwd: '/project', rules: { set: hideAll(c.cmd) } }, home);
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
