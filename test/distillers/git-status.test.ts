import t from 'tap';
import { distillCase } from '../helpers/cases.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { expandInPlace } from './inplace.js';

t.test('git status is read by git-status, an answer the pre-hook never rewrites', async (t) => {
  for (const cmd of ['git status', 'git -C web status --short', 'git status | head -20']) {
    const r = routeCommand(cmd);
    t.equal(r.distiller, 'git-status', cmd);
    t.equal(r.rewrite, false, `${cmd} is not rewritten`);
  }
});

t.test('keeps every path of git status; its hint runs are too short to pay for a marker in place', async (t) => {
  const { r, c, text, rawText } = await distillCase('707-git-status');
  { let seen = 0; for (const line of rawText.split('\n')) if (!/^\s+\(use "git /.test(line)) { seen++; t.ok(text.includes(line), `row kept: ${line.trim()}`); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  // Runs of one and two hint lines are each below the bytes a fold must save to be made.
  t.ok(r.output.equals(c.output), 'unchanged');
});

t.test('git status: a marker stands where the hint lines it hides stood', async (t) => {
  for (const name of ['707-git-status', '060-git-status']) {
    const { r, c } = await distillCase(name);
    t.ok(expandInPlace(r.output, c.output, r.home).bytes.equals(c.output), `${name}: expanding every marker in place gives the input back`);
    for (const line of c.output.toString('utf8').split('\n')) if (/^\t/.test(line)) t.ok(r.output.toString('utf8').includes(`${line}\n`), `row kept: ${line.trim()}`);
  }
});
