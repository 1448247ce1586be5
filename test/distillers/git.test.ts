import t from 'tap';
import { distillCase } from '../helpers/cases.js';
import { statList } from '../../lib/distillers/git.js';

t.test('lists the files of one directory under it once', async (t) => {
  t.equal(statList([['', 'src/a.js', '4'], ['', 'src/b.js', '1'], ['', 'README.md', '2'], ['', 'docs/{old => new}/x.md', '0']]), 'src/{a.js (4), b.js (1)}, README.md (2), docs/{old => new}/x.md (0)');
});

t.test('keeps every commit of git log on one line', async (t) => {
  const { r, text, markers, rawText } = await distillCase('701-git-log');
  t.equal(r.distiller, 'git');
  const commits = [...rawText.matchAll(/^commit ([0-9a-f]{40})\n(?:.*\n)*?\n {4}(.*)$/gm)];
  t.equal(commits.length, 30, 'the case has 30 commits');
  for (const [, hash, subject] of commits) t.ok(text.includes(`${hash.slice(0, 7)} ${subject}\n`), `${hash.slice(0, 7)} ${subject}`);
  t.notOk(/^Author: /m.test(text), 'no Author lines');
  t.ok(markers.some((m) => m.includes('30 commits')), 'one marker counts the commits and the hidden lines');
  t.ok(r.outBytes < r.rawBytes * 0.4, `${r.outBytes} of ${r.rawBytes} bytes`);
});

t.test('keeps every file of git log --stat in condensed form', async (t) => {
  const { text, rawText } = await distillCase('702-git-log-stat');
  for (const [, path, n] of rawText.matchAll(/^ (\S+)\s+\| (\d+) /gm)) {
    const cut = path.lastIndexOf('/') + 1;
    const dir = path.slice(0, cut);
    const file = `${path.slice(cut)} (${n})`;
    t.ok(text.includes(`${path} (${n})`) || new RegExp(`${dir.replace(/[.]/g, '\\.')}\\{[^}]*\\b${file.replace(/[.()]/g, '\\$&')}`).test(text), `${path} (${n})`);
  }
  for (const [line] of rawText.matchAll(/^ \d+ files? changed.*$/gm)) t.ok(text.includes(line), 'summary line kept');
});

t.test('keeps every path of git status and drops only the hint lines', async (t) => {
  const { text, rawText, markers } = await distillCase('707-git-status');
  for (const line of rawText.split('\n')) {
    if (/^\s+\(use "git /.test(line)) t.notOk(text.includes(line), `hint out: ${line.trim()}`);
    else t.ok(text.includes(line), `row kept: ${line.trim()}`);
  }
  t.ok(markers.some((m) => /\d+ git hint lines hidden/.test(m)));
});

t.test('keeps every hunk header and changed line of git diff', async (t) => {
  const { text, rawText } = await distillCase('708-git-diff');
  for (const line of rawText.split('\n')) {
    if (/^(@@|diff --git|[-+])/.test(line)) t.ok(text.includes(line), line);
  }
  t.notOk(/^index [0-9a-f]+\.\./m.test(text), 'index lines hidden');
});

t.test('git show keeps the commit on one line and every changed line', async (t) => {
  const { text, rawText } = await distillCase('704-git-show');
  const hash = /^commit ([0-9a-f]{7})/.exec(rawText)![1];
  t.match(text, new RegExp(`^${hash} mod\\d: add step`, 'm'));
  for (const line of rawText.split('\n')) if (/^(@@|[-+]\S)/.test(line)) t.ok(text.includes(line), line);
});

t.test('condenses repeated blame metadata but keeps every source line', async (t) => {
  const { text, rawText } = await distillCase('705-git-blame');
  const lines = rawText.trimEnd().split('\n');
  const out = text.split('\n');
  for (const l of lines) {
    const code = /^\S+ \(.*?\d+\) (.*)$/.exec(l)![1];
    t.ok(out.some((o) => o.endsWith(`) ${code}`)), code);
  }
  t.ok(text.includes(lines[0]), 'the first line of a run keeps its metadata');
});

t.test('a git output it cannot parse comes back unchanged', async (t) => {
  // `--oneline` output routed as a plain `git log`: no `commit <hash>` lines to recognise.
  const { r, c } = await distillCase('703-git-log-oneline', 'git log -20');
  t.equal(r.distiller, 'git');
  t.ok(r.output.equals(c.output), 'byte-identical');
});

t.test('a failing git command comes back unchanged', async (t) => {
  const { r, c } = await distillCase('706-git-log-bad-revision', undefined, 128);
  t.ok(r.output.equals(c.output));
});

t.test('omni pipe without a command sniffs git log output', async (t) => {
  const { distill } = await import('../helpers/omni.js');
  const { corpusCase } = await import('../helpers/cases.js');
  const r = await distill(corpusCase('701-git-log').output, { door: 'pipe' });
  t.equal(r.distiller, 'git');
  t.ok(r.outBytes < r.rawBytes * 0.4);
});
