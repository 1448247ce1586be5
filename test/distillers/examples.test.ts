import t from 'tap';
import { DISTILLERS } from '../../lib/distillers/registry.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { lineDiff } from '../../lib/cli/rules.js';
import { distill } from '../helpers/omni.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';
import { readersOf } from './readers.js';

// Every registered spec proves itself inline, as a rule of one's own does (`omni rules test`):
// each example's command routes to the spec (or, naming no tool, its input's lines name it), and its input, through the real pipeline (the pipe
// door: command known, exit code not), gives its output, a marker's handle written `<handle>`.

const normalize = (text: string) => text.split('\n').map((l) => {
  const m = MARKER_RE.exec(l);
  return m ? `[omni: ${m[1]} — omni retrieve <handle>]` : l;
}).join('\n');

/** Why this spec's examples do not hold, or [] when they do. */
async function failing(spec: DistillerSpec): Promise<string[]> {
  const out: string[] = [];
  if (!spec.examples.length) out.push(`${spec.name}: no example`);
  for (const [k, ex] of spec.examples.entries()) {
    const label = `${spec.name} example ${k + 1} (${ex.command})`;
    // A command that names no tool (`./build/money_test`) is read by the spec its lines name.
    const readers = readersOf(ex.command, ex.input);
    if (!readers.includes(spec.name)) out.push(`${label}: owned by ${readers.join(', ')}`);
    const r = await distill(ex.input, { command: ex.command, door: 'pipe' });
    const got = normalize(r.output.toString('utf8'));
    if (got !== ex.output) out.push(`${label}: output differs (- expected, + actual)\n${lineDiff(ex.output, got).join('\n')}`);
  }
  return out;
}

for (const spec of DISTILLERS) {
  t.test(`${spec.name}: its examples hold`, async (t) => {
    t.same(await failing(spec), []);
  });
}

t.test('the check fails for a spec without an example, or one whose example does not hold', async (t) => {
  const jest = DISTILLERS.find((s) => s.name === 'jest')!;
  t.same(await failing({ ...jest, examples: [] }), ['jest: no example']);
  const ex = jest.examples[0]!;
  const wrong = await failing({ ...jest, examples: [{ ...ex, output: ex.input }] });
  t.equal(wrong.length, 1);
  t.match(wrong[0], /^jest example 1 \(npx jest --ci\): output differs/);
  t.equal((await failing({ ...jest, examples: [{ ...ex, command: 'npx vitest' }] }))[0], 'jest example 1 (npx vitest): owned by vitest');
});
