import t, { type Test } from 'tap';
import stripAnsi from 'strip-ansi';
import { distillCase, corpusCase } from '../helpers/cases.js';
import { distill, tempHome } from '../helpers/omni.js';
import { expandInPlace } from './inplace.js';

/** Every marker stands where the run it hides stood, and pays for itself (issue 10, defects 4 and 5). */
async function inPlace(t: Test, name: string) {
  const c = corpusCase(name);
  const home = tempHome();
  const r = await distill(c.output, { command: c.cmd, door: 'pipe' }, home);
  const e = expandInPlace(r.output, c.output, home);
  t.ok(e.bytes.equals(c.output), `${name}: expanded in place = input (${e.folds} folds)`);
  t.same(e.unpaid, [], `${name}: every marker pays`);
}

t.test('keeps every resource line of terraform plan and its Plan line', async (t) => {
  const { r, text, rawText, markers } = await distillCase('751-terraform-plan');
  t.equal(r.distiller, 'infra');
  for (const l of rawText.split('\n')) {
    if (/^\s+# \S+ will be|^\s+\+ resource |^Plan: |= "|^\s+\+ names/.test(l)) t.ok(text.includes(l), l);
  }
  // A lone `(known after apply)` line between kept attributes is cheaper than a marker in its place: it stays.
  t.ok(markers.length >= 1 && r.outBytes < r.rawBytes, `${r.rawBytes} -> ${r.outBytes} B`);
  await inPlace(t, '751-terraform-plan');
});

t.test('keeps every Creation complete line of terraform apply and hides Creating...', async (t) => {
  const { text, rawText } = await distillCase('752-terraform-apply');
  for (const l of rawText.split('\n')) {
    if (/Creation complete|^Apply complete|^names = /.test(l)) t.ok(text.includes(l), l);
  }
  // Each `Creating...` line sits alone between two kept lines: no marker in its place would pay.
  await inPlace(t, '752-terraform-apply');
});

t.test('keeps every changed attribute of a terraform plan that updates in place', async (t) => {
  const { text, rawText } = await distillCase('753-terraform-plan-change');
  { let seen = 0; for (const l of rawText.split('\n')) if (/^\s+~ \S+ .*->|^Plan: |will be updated|must be replaced/.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
});

t.test('a terraform error comes back unchanged and nothing is counted from its prose', async (t) => {
  const { r, c } = await distillCase('754-terraform-plan-error', undefined, 1);
  t.ok(r.output.equals(c.output));
});

t.test('a docker build without a daemon comes back unchanged', async (t) => {
  const { r, c } = await distillCase('755-docker-build-no-daemon', undefined, 1);
  t.ok(r.output.equals(c.output));
});

t.test("terraform apply keeps every line of Changes to Outputs: a map's keys are the plan's answer", async (t) => {
  const { r, text, rawText } = await distillCase('897-terraform-apply-for-each-color');
  t.equal(r.distiller, 'infra');
  const lines = stripAnsi(rawText).split('\n');
  const from = lines.findIndex((l) => l.startsWith('Changes to Outputs:'));
  t.ok(from > 0, 'the case has an outputs section');
  const section: string[] = [];
  for (const l of lines.slice(from + 1)) { if (!l.startsWith(' ')) break; section.push(l); }
  t.ok(section.filter((l) => l.includes('(known after apply)')).length >= 10, 'outputs known only after apply');
  for (const l of section) t.ok(stripAnsi(text).includes(l), `kept: ${l}`);
});
