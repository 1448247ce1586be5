import t from 'tap';
import stripAnsi from 'strip-ansi';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { distill, omni, tempHome } from './helpers/omni.js';
import { loadCorpus, STRUCTURED_KINDS } from './helpers/corpus.js';
import { MARKER_RE } from '../lib/kit/marker.js';
import { maskedOnly } from './helpers/markers.js';

const cases = loadCorpus();

t.test('the corpus has real cases to judge by', async (t) => {
  t.ok(cases.length >= 15, `${cases.length} cases`);
  t.ok(cases.some((c) => c.exitCode !== 0), 'some failing runs');
  t.ok(cases.some((c) => c.exitCode === 0), 'some passing runs');
});

for (const c of cases) {
  t.test(`${c.name}: keeps every must-keep line, never grows, receipts every removal`, async (t) => {
    // The pipe door: the command is known, the exit code is not.
    const r = await distill(c.output, { command: c.cmd, door: 'pipe' });
    const out = stripAnsi(r.output.toString('utf8'));
    t.ok(r.outBytes <= r.rawBytes, `${r.outBytes} <= ${r.rawBytes} bytes`);
    for (const k of c.mustKeep) t.ok(out.includes(k), `keeps ${JSON.stringify(k.slice(0, 80))}`);
    if (STRUCTURED_KINDS.has(c.kind)) t.ok(r.output.equals(c.output), `${c.kind}: byte-identical`);
    // Secret values masked in place owe no marker (none may name a handle that hands them back).
    if (r.changed && !maskedOnly(c.output, r.output)) {
      const markers = out.split(/\r?\n/).filter((l) => MARKER_RE.test(l));
      t.ok(markers.length > 0, 'a changed output carries at least one marker with a handle');
    }
  });
}

t.test('every failing case comes back byte-identical through omni exec', async (t) => {
  const dir = tempHome();
  for (const c of cases.filter((c) => c.exitCode !== 0)) {
    const f = join(dir, `${c.name}.out`);
    writeFileSync(f, c.output);
    const r = omni(['exec', `cat '${f}'; exit ${c.exitCode}`]);
    t.equal(r.status, c.exitCode, `${c.name}: exit ${c.exitCode}`);
    t.ok(r.stdout.equals(c.output), `${c.name}: same bytes`);
  }
});
