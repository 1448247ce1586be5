import t from 'tap';
import type { Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { distillCase } from '../helpers/cases.js';
import { omni } from '../helpers/omni.js';
import { MARKER_RE } from '../../lib/pipeline/marker.js';
import { statList } from '../../lib/distillers/git.js';

t.test('lists every stat path whole, as git printed it', async (t) => {
  t.equal(statList([['', 'src/a.js', '4'], ['', 'src/b.js', '1'], ['', 'README.md', '2'], ['', 'docs/{old => new}/x.md', '0']]), 'src/a.js (4), src/b.js (1), README.md (2), docs/{old => new}/x.md (0)');
});

/** The paths of every diffstat row, exactly as git printed them, with their counts. */
const statRows = (raw: string) => [...raw.matchAll(/^ (\S.*?) +\| +(\d+|Bin [^\n]*?)(?: [+-]+)?$/gm)].map((m) => [m[1], m[2]]);

for (const name of ['831-git-log-stat', '832-git-log-stat-20', '834-git-show-stat', '837-git-show-stat-long-paths']) {
  t.test(`${name}: every diffstat path survives whole`, async (t) => {
    const { r, c, text, rawText } = await distillCase(name);
    const rows = statRows(rawText);
    t.ok(rows.length >= 2, `${rows.length} stat rows`);
    // Too small to condense: the rows come back as git printed them.
    if (!r.changed) return t.ok(r.output.equals(c.output), 'unchanged');
    for (const [path, n] of rows) t.ok(text.includes(`${path} (${n})`), `${path} (${n})`);
    // A directory shared by two rows is never factored out of them.
    t.notOk(/\{[^}=]*\(\d+\)/.test(text), 'no `dir/{a (N), b (N)}` groups');
  });
}

for (const [name, n] of [['830-git-log-50', 26], ['831-git-log-stat', 26], ['832-git-log-stat-20', 20]] as const) t.test(`${name}: every commit and every subject appears once`, async (t) => {
  const { r, text, rawText } = await distillCase(name);
  t.equal(r.distiller, 'git');
  t.ok(r.changed, 'distilled');
  const commits = [...rawText.matchAll(/^commit ([0-9a-f]{40})\n(?:.*\n)*?\n {4}(.*)$/gm)];
  t.equal(commits.length, n, `the case has ${n} commits`);
  const count = (s: string) => text.split(s).length - 1;
  for (const [, hash, subject] of commits) {
    t.equal(count(hash.slice(0, 7)), 1, `${hash.slice(0, 7)} once`);
    t.equal(count(`${subject}\n`), 1, `subject once: ${subject}`);
  }
  // A subject classified as a failure stays verbatim on its own line, under its short hash.
  if (rawText.includes('\ncommit 95febc7')) t.match(text, /^95febc7\n {4}error: config loader ignored RELAY_HOME\n/m);
});

/** Every marker handle of an output, by `omni retrieve`, against its home. */
function retrieve(home: string, handle: string): Buffer {
  const p = omni(['retrieve', handle], { env: { OMNI_HOME: home } });
  if (p.status !== 0) throw new Error(`retrieve ${handle}: exit ${p.status} ${p.stderr}`);
  return p.stdout;
}

for (const name of ['830-git-log-50', '831-git-log-stat', '833-git-show-multi-hunk', '836-git-diff-many-hunks', '701-git-log', '702-git-log-stat', '704-git-show', '708-git-diff']) {
  t.test(`${name}: a rewritten output names a handle to the whole raw input`, async (t) => {
    const { r, c, markers } = await distillCase(name);
    t.ok(r.changed, 'distilled');
    const handles = markers.map((m) => MARKER_RE.exec(m)![2]);
    t.ok(handles.some((h) => retrieve(r.home, h).equals(c.output)), 'one handle retrieves the input byte for byte');
  });
}

/*
 * A pre-image for a diff, built from the diff itself: every old-side line a hunk shows at
 * its own line number, filler elsewhere. Applying the raw diff to it must work, so applying
 * the distilled one must too, and give the same files.
 */
function preimage(diff: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let cur: string[] | null = null;
  let old = 0;
  let left = 0;
  for (const l of diff.split('\n')) {
    const f = /^--- a\/(.*)$/.exec(l);
    if (f && left <= 0) { cur = []; files.set(f[1], cur); continue; }
    const h = /^@@ -(\d+)(?:,(\d+))? /.exec(l);
    if (h && left <= 0) { old = Number(h[1]); left = h[2] === undefined ? 1 : Number(h[2]); continue; }
    if (!cur || left <= 0) continue;
    if (l.startsWith(' ') || l.startsWith('-')) { while (cur.length < old - 1) cur.push(`filler ${cur.length + 1}`); cur.push(l.slice(1)); old++; left--; }
  }
  return files;
}

function gitApply(dir: string, files: Map<string, string[]>, patch: string): { status: number | null; err: string; files: Map<string, string> } {
  spawnSync('git', ['init', '-q', dir]);
  for (const [p, lines] of files) { mkdirSync(dirname(join(dir, p)), { recursive: true }); writeFileSync(join(dir, p), lines.map((l) => `${l}\n`).join('')); }
  writeFileSync(join(dir, 'the.patch'), patch);
  const check = spawnSync('git', ['apply', '--check', 'the.patch'], { cwd: dir });
  const apply = check.status === 0 ? spawnSync('git', ['apply', 'the.patch'], { cwd: dir }) : check;
  const out = new Map<string, string>();
  for (const p of files.keys()) out.set(p, readFileSync(join(dir, p), 'utf8'));
  return { status: apply.status, err: String(check.stderr), files: out };
}

for (const name of ['836-git-diff-many-hunks', '833-git-show-multi-hunk', '708-git-diff', '704-git-show', '062-git-diff']) {
  t.test(`${name}: the shortened diff, markers aside, is a patch git apply accepts`, async (t) => {
    const { r, text, rawText } = await distillCase(name);
    t.ok(r.changed, 'distilled');
    t.ok(r.outBytes < r.rawBytes, `${r.outBytes} < ${r.rawBytes} bytes`);
    const patch = text.split('\n').filter((l) => !MARKER_RE.test(l)).join('\n');
    const pre = preimage(rawText);
    t.ok(pre.size >= 1, `${pre.size} files`);
    const tmp = mkdtempSync(join(tmpdir(), 'omni-git-apply-'));
    const want = gitApply(join(tmp, 'raw'), pre, rawText);
    t.equal(want.status, 0, `the raw diff applies to its pre-image ${want.err}`);
    const got = gitApply(join(tmp, 'distilled'), pre, patch);
    t.equal(got.status, 0, `git apply --check accepts the distilled diff ${got.err}`);
    for (const [p, body] of want.files) t.equal(got.files.get(p), body, `${p}: same result as the raw diff`);
  });
}

t.test('836-git-diff-many-hunks: every changed line stays, each hunk header is right for what it shows', async (t) => {
  const { text, rawText } = await distillCase('836-git-diff-many-hunks');
  { let seen = 0; for (const line of rawText.split('\n')) if (/^(diff --git|[-+])/.test(line)) { seen++; t.ok(text.includes(`${line}\n`), line); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  hunkHeadersKept(t, rawText, text);
  t.ok(text.length < rawText.length * 0.9, `context was shortened: ${text.length} of ${rawText.length}`);
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

/** Every hunk keeps its header (renumbered for what is shown, git's function context as it was). */
function hunkHeadersKept(t: Test, rawText: string, text: string) {
  const raw = rawText.split('\n').filter((l) => l.startsWith('@@ '));
  const shown = text.split('\n').filter((l) => l.startsWith('@@ '));
  t.equal(shown.length, raw.length, `${raw.length} hunk headers`);
  raw.forEach((l, i) => t.equal(shown[i]?.replace(/^@@ [^@]* @@/, ''), l.replace(/^@@ [^@]* @@/, ''), `function context of ${l}`));
}

t.test('keeps every hunk header and changed line of git diff', async (t) => {
  const { text, rawText } = await distillCase('708-git-diff');
  for (const line of rawText.split('\n')) {
    if (/^(diff --git|[-+])/.test(line)) t.ok(text.includes(line), line);
  }
  hunkHeadersKept(t, rawText, text);
  t.notOk(/^index [0-9a-f]+\.\./m.test(text), 'index lines hidden');
});

t.test('git show keeps the commit on one line and every changed line', async (t) => {
  const { text, rawText } = await distillCase('704-git-show');
  const hash = /^commit ([0-9a-f]{7})/.exec(rawText)![1];
  t.match(text, new RegExp(`^${hash} mod\\d: add step`, 'm'));
  { let seen = 0; for (const line of rawText.split('\n')) if (/^[-+]\S/.test(line)) { seen++; t.ok(text.includes(line), line); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  hunkHeadersKept(t, rawText, text);
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

/** A real repository in a temp dir: `files` committed, then `edit` applied to the worktree. */
function realDiff(files: Record<string, string>, edit: Record<string, string>, ...diffArgs: string[]): { dir: string; diff: string } {
  const dir = mkdtempSync(join(tmpdir(), 'omni-git-real-'));
  const git = (...a: string[]) => spawnSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.org', ...a], { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '.');
  for (const [p, body] of Object.entries(files)) writeFileSync(join(dir, p), body);
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  for (const [p, body] of Object.entries(edit)) writeFileSync(join(dir, p), body);
  return { dir, diff: git('diff', ...diffArgs).stdout };
}

t.test('a hunk ending in "\\ No newline at end of file" is shortened into a patch that still applies', async (t) => {
  const lines = Array.from({ length: 60 }, (_, i) => `line number ${i + 1} of the file, long enough to be worth cutting`);
  const before = lines.join('\n');
  const after = lines.map((l, i) => (i === 9 || i === 29 ? `${l} (changed)` : l)).join('\n') + ' (last, changed)';
  const { dir, diff } = realDiff({ 'f.txt': before }, { 'f.txt': after });
  t.match(diff, /\\ No newline at end of file/);
  const { distill } = await import('../helpers/omni.js');
  const r = await distill(Buffer.from(diff), { command: 'git diff', door: 'pipe' });
  const text = r.output.toString('utf8');
  t.ok(r.changed, 'distilled');
  t.equal(text.split('\n').filter((l) => l.startsWith('\\ No newline')).length, diff.split('\n').filter((l) => l.startsWith('\\ No newline')).length, 'every "No newline" line stays');
  writeFileSync(join(dir, 'f.txt'), before);
  writeFileSync(join(dir, 'the.patch'), text.split('\n').filter((l) => !MARKER_RE.test(l)).join('\n'));
  const apply = spawnSync('git', ['apply', 'the.patch'], { cwd: dir, encoding: 'utf8' });
  t.equal(apply.status, 0, `git apply: ${apply.stderr}`);
  t.equal(readFileSync(join(dir, 'f.txt'), 'utf8'), after, 'same file as the raw diff gives');
});

t.test('a diff cut off inside a hunk (| head) keeps that hunk as git printed it', async (t) => {
  const lines = Array.from({ length: 80 }, (_, i) => `row ${i + 1}: some text that makes the row long enough to matter`);
  const { diff } = realDiff({ 'f.txt': `${lines.join('\n')}\n` }, { 'f.txt': `${lines.map((l, i) => (i % 20 === 10 ? `${l}!` : l)).join('\n')}\n` });
  const cut = diff.split('\n').slice(0, -6).join('\n') + '\n';
  const { distill } = await import('../helpers/omni.js');
  const r = await distill(Buffer.from(cut), { command: 'git diff | head -40', door: 'pipe' });
  const text = r.output.toString('utf8');
  const lastHeader = cut.split('\n').filter((l) => l.startsWith('@@ ')).pop()!;
  t.ok(text.includes(`${lastHeader}\n`), `the open hunk keeps its header: ${lastHeader}`);
  const tail = cut.slice(cut.lastIndexOf(lastHeader));
  t.ok(text.includes(tail), 'and every line of it');
});

/** P1: every marker line replaced by what its handle retrieves. */
function expandMarkers(home: string, out: Buffer): Buffer {
  const parts = out.toString('utf8').split(/(?<=\n)/);
  return Buffer.concat(parts.map((p) => {
    const m = MARKER_RE.exec(p.replace(/\n$/, ''));
    return m ? retrieve(home, m[2]) : Buffer.from(p);
  }));
}

t.test('a diff with no context to cut does not move its index lines behind one marker at the end', async (t) => {
  const files: Record<string, string> = {};
  const edit: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    const body = Array.from({ length: 20 }, (_, j) => `value ${j} of module ${i}`);
    files[`m${i}.txt`] = `${body.join('\n')}\n`;
    edit[`m${i}.txt`] = `${body.map((l, j) => (j === 10 ? `${l} changed` : l)).join('\n')}\n`;
  }
  const { diff } = realDiff(files, edit, '-U0');
  t.equal(diff.split('\n').filter((l) => l.startsWith('index ')).length, 12, '12 index lines');
  const { distill } = await import('../helpers/omni.js');
  const r = await distill(Buffer.from(diff), { command: 'git diff -U0', door: 'pipe' });
  t.ok(expandMarkers(r.home, r.output).equals(Buffer.from(diff)), 'expanding every marker in place gives the input back');
});
