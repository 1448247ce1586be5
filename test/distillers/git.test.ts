import t from 'tap';
import type { Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { distillCase } from '../helpers/cases.js';
import { omni } from '../helpers/omni.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { checkInPlace, checkNothingLost, markersIn } from '../helpers/markers.js';
import { loadCorpus } from '../helpers/corpus.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { closeStores, CROSSING_PAUSE_S, freshReader, HOLD_SHORT, hookBash, hookText, pipeBuffered, pipeStream, propHome, retrieverFor } from '../helpers/doors.js';
import { sweep, type SweepFailure } from '../helpers/property.js';
import { distill } from '../helpers/omni.js';
import { dayOf, statRow } from '../../lib/distillers/git.js';

t.test('a diffstat row keeps its path whole, as git printed it, and its count; the bar and padding go', async (t) => {
  t.equal(statRow(' src/a.js          | 4 ++--'), ' src/a.js | 4');
  t.equal(statRow(' docs/{old => new}/x.md | 0'), ' docs/{old => new}/x.md | 0');
  t.equal(statRow(' .../deep/path/with spaces.md | 12 +++++++++---'), ' .../deep/path/with spaces.md | 12');
  t.equal(statRow(' img/logo.png  | Bin 0 -> 1234 bytes'), ' img/logo.png | Bin 0 -> 1234 bytes');
  t.equal(statRow(' 3 files changed, 17 insertions(+), 7 deletions(-)'), null, 'the summary line is not a row');
  t.equal(statRow('    indented message | 3'), null, 'a message line is not a row');
});

t.test('a commit\'s day is the one git printed, never computed in another zone', async (t) => {
  t.equal(dayOf('Fri Nov 20 10:00:00 2026 +0000'), '2026-11-20');
  t.equal(dayOf('Sat Mar 2 23:59:00 2024 -0800'), '2024-03-02', 'the author\'s own zone, as printed');
  t.equal(dayOf('Fri, 20 Nov 2026 10:00:00 +0000'), '2026-11-20');
  t.equal(dayOf('2026-11-20 10:00:00 +0000'), '2026-11-20');
  t.equal(dayOf('2026-11-20T10:00:00+00:00'), '2026-11-20');
  t.equal(dayOf('3 days ago'), '3 days ago', 'any other form as printed');
  t.equal(dayOf('Fri Nov 20 10:00:00 2026'), '2026-11-20', '--date=local');
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
    for (const [path, n] of rows) t.ok(text.includes(`\n ${path} | ${n}\n`), `${path} | ${n}`);
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
  // A subject classified as a failure stays verbatim on its own line, under its commit's line.
  if (rawText.includes('\ncommit 95febc7')) t.match(text, /^95febc7 \d{4}-\d\d-\d\d [^:\n]+\n {4}error: config loader ignored RELAY_HOME\n/m);
});

/** Every marker handle of an output, by `omni retrieve`, against its home. */
function retrieve(home: string, handle: string): Buffer {
  const p = omni(['retrieve', handle], { env: { OMNI_HOME: home } });
  if (p.status !== 0) throw new Error(`retrieve ${handle}: exit ${p.status} ${p.stderr}`);
  return p.stdout;
}

for (const name of ['830-git-log-50', '831-git-log-stat', '833-git-show-multi-hunk', '701-git-log', '702-git-log-stat', '708-git-diff', '1071-git-log-p']) {
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

/**
 * The output with every fold marker replaced by what its handle retrieves and the receipt (the
 * whole raw output's handle) taken out: what a reader has who expands the folds in place.
 */
function unfolded(home: string, out: string, raw: Buffer): string {
  return out.split(/(?<=\n)/).map((p) => {
    const m = MARKER_RE.exec(p.replace(/\n$/, ''));
    if (!m) return p;
    const b = retrieve(home, m[2]);
    return b.equals(raw) ? '' : b.toString('utf8');
  }).join('');
}

for (const name of ['833-git-show-multi-hunk', '708-git-diff']) {
  t.test(`${name}: the shortened diff, its folds expanded in place, is a patch git apply accepts`, async (t) => {
    const { r, c, rawText } = await distillCase(name);
    t.ok(r.changed, 'distilled');
    t.ok(r.outBytes < r.rawBytes, `${r.outBytes} < ${r.rawBytes} bytes`);
    const patch = unfolded(r.home, r.output.toString('utf8'), c.output);
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
  const { r, text, rawText } = await distillCase('836-git-diff-many-hunks');
  { let seen = 0; for (const line of rawText.split('\n')) if (/^(diff --git|[-+])/.test(line)) { seen++; t.ok(text.includes(`${line}\n`), line); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  hunkHeadersKept(t, rawText, text);
  t.ok(r.outBytes <= r.rawBytes, `${r.outBytes} of ${r.rawBytes} bytes`);
  // Its leading context lines are all lines git takes for a function context: no hunk is cut
  // past one (its header's function context would no longer be git's for the lines shown).
  const cut = (h: string) => Number(/^@@ -(\d+)/.exec(h)![1]);
  const rawHeaders = rawText.split('\n').filter((l) => l.startsWith('@@ '));
  text.split('\n').filter((l) => l.startsWith('@@ ')).forEach((h, i) => t.equal(cut(h), cut(rawHeaders[i]), `${h}: starts where git's did`));
});

t.test('keeps every commit of git log on one line: short hash, day, author, subject', async (t) => {
  const { r, text, markers, rawText } = await distillCase('701-git-log');
  t.equal(r.distiller, 'git');
  const commits = [...rawText.matchAll(/^commit ([0-9a-f]{40})\nAuthor: (.*?) <.*>\nDate: +\w{3} (\w{3}) +(\d+) [\d:]+ (\d{4}) .*\n\n {4}(.*)$/gm)];
  t.equal(commits.length, 30, 'the case has 30 commits');
  const month: Record<string, string> = { Oct: '10', Nov: '11' };
  for (const [, hash, author, mon, day, year, subject] of commits) {
    const line = `${hash.slice(0, 7)} ${year}-${month[mon]}-${day.padStart(2, '0')} ${author}: ${subject}\n`;
    t.ok(text.includes(line), line);
  }
  t.notOk(/^(Author|Date): /m.test(text), 'no Author or Date lines');
  t.ok(markers.some((m) => /one line per commit;.*whole output/.test(m)), 'the receipt says what was done and names the whole output');
  // The message bodies are left out, said in the receipt that names the whole output.
  t.notOk(text.includes('so the pipeline stays monotonic'), 'no message body');
  t.ok(markers.some((m) => m.includes('message bodies left out')), 'the receipt says the bodies were left out');
  t.equal(markers.length, 1, 'one marker: the receipt');
  t.ok(r.outBytes < r.rawBytes * 0.5, `${r.outBytes} of ${r.rawBytes} bytes`);
});

t.test('keeps every file of git log --stat, one row each, whole', async (t) => {
  const { text, rawText } = await distillCase('702-git-log-stat');
  let rows = 0;
  for (const [, path, n] of rawText.matchAll(/^ (\S+)\s+\| (\d+) /gm)) { rows++; t.ok(text.includes(`\n ${path} | ${n}\n`), `${path} | ${n}`); }
  t.ok(rows > 10, `${rows} rows`);
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

t.test('git show keeps its commit as git printed it, and every changed line', async (t) => {
  const { r, text, rawText } = await distillCase('833-git-show-multi-hunk');
  t.ok(r.changed, 'distilled');
  const header = rawText.slice(0, rawText.indexOf('\ndiff --git') + 1);
  t.ok(text.startsWith(header), 'commit, Author, Date and the whole message as printed');
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
  t.ok(r.outBytes < r.rawBytes * 0.5);
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
  // Indented: no line git could take for a function context, so the hunks are renumbered.
  const lines = Array.from({ length: 60 }, (_, i) => `    line number ${i + 1} of the file, long enough to be worth cutting`);
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

t.test('a diff with no context to cut leaves its index lines out in place, never behind one marker at the end', async (t) => {
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
  const retrieveIn = (h: string) => retrieve(r.home, h);
  t.equal(checkInPlace(Buffer.from(diff), r.output, retrieveIn), null, 'every marker stands for one contiguous run, where it stood');
  t.equal(checkNothingLost(Buffer.from(diff), r.output, retrieveIn), null, 'P1: nothing lost');
  t.notOk(/^index /m.test(r.output.toString('utf8')), 'no index line');
});

// ---------------------------------------------------------------------------------------------
// Every marker stands for one contiguous run of the raw output, where that run stood.

const GIT_CASES = loadCorpus().filter((c) => c.kind === 'git' || ['git', 'git-status'].includes(routeCommand(c.cmd).distiller ?? ''));

t.test('every marker of every git corpus case retrieves one contiguous run of the raw output and stands where it stood (pipe, pipe streaming, hook)', async (t) => {
  t.teardown(closeStores);
  t.ok(GIT_CASES.length >= 30, `${GIT_CASES.length} git cases`);
  const home = propHome();
  const retrieveIn = retrieverFor(home);
  const bad: SweepFailure[] = [];
  let folds = 0;
  let receipts = 0;
  const check = (door: string, name: string, input: Buffer, output: Buffer) => {
    for (const m of markersIn(output)) {
      if (retrieveIn(m.handle)?.equals(input)) receipts++;
      else folds++;
    }
    const why = checkInPlace(input, output, retrieveIn) ?? checkNothingLost(input, output, retrieveIn);
    if (why) bad.push({ case: `${name} (${door})`, reason: why });
  };
  for (const c of GIT_CASES) {
    check('pipe', c.name, c.output, await pipeBuffered(c.output, { command: c.cmd, home }));
    const mid = c.output.indexOf(10, c.output.length >> 1) + 1 || c.output.length;
    const streamed = await pipeStream([{ bytes: c.output.subarray(0, mid), pauseMs: 0 }, { bytes: c.output.subarray(mid), pauseMs: CROSSING_PAUSE_S * 1000 }], { command: c.cmd, home, env: HOLD_SHORT });
    check('pipe-stream', c.name, c.output, streamed);
    const d = await hookBash(hookText(c.output), { command: c.cmd, home, reader: freshReader() });
    check('hook', c.name, d.input, d.output);
  }
  t.ok(folds > 0, `${folds} fold markers checked`);
  t.ok(receipts > 0, `${receipts} receipts naming the whole output`);
  sweep(t, 'git markers in place', GIT_CASES.length * 3, bad);
});

/** A real repository in a temp dir with `commits` made in order (path -> text; null deletes). */
function realRepo(commits: Array<{ files: Record<string, string | null>; message: string; date?: string }>): { dir: string; git: (...a: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'omni-git-repo-'));
  const run = (env: Record<string, string>, ...a: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=Kim Keeper', '-c', 'user.email=kim@example.com', '-c', 'core.abbrev=7', ...a], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, TZ: 'UTC', ...env } });
    return r.stdout;
  };
  run({}, 'init', '-q', '-b', 'main', '.');
  commits.forEach((c, i) => {
    for (const [p, body] of Object.entries(c.files)) {
      if (body === null) { run({}, 'rm', '-q', p); continue; }
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), body);
    }
    run({}, 'add', '-A');
    const date = c.date ?? `2026-03-${String(i + 1).padStart(2, '0')}T10:00:00+01:00`;
    run({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, 'commit', '-q', '-m', c.message);
  });
  return { dir, git: (...a: string[]) => run({}, ...a) };
}

const source = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `    value_${i + 1} = compute(${i + 1})${tag}  # a line long enough to be worth folding`).join('\n') + '\n';

t.test('a new file\'s body folds after its first lines, in place, under its own header', async (t) => {
  const { git } = realRepo([{ files: { 'a.txt': 'a\n' }, message: 'base' }, { files: { 'src/new.py': source(40) }, message: 'Add the new module' }]);
  const raw = git('show', 'HEAD');
  const r = await distill(Buffer.from(raw), { command: 'git show HEAD', door: 'pipe' });
  const text = r.output.toString('utf8');
  t.ok(r.changed, 'distilled');
  t.match(text, /^@@ -0,0 \+1,40 @@\n(\+.*\n)\[omni: 39 more lines of this new file — omni retrieve [0-9a-f]{16}\]\n/m, 'git\'s header, its first line, one marker for the rest');
  t.match(text, /^new file mode 100644\n--- \/dev\/null\n\+\+\+ b\/src\/new\.py\n/m, 'the file header stays, its index line dropped');
  t.equal(checkInPlace(Buffer.from(raw), r.output, (h) => retrieve(r.home, h)), null, 'the marker stands for one run, where it stood');
});

t.test('a lockfile\'s hunk folds in place; the other files\' hunks stay', async (t) => {
  const lock = (v: string) => JSON.stringify({ name: 'app', lockfileVersion: 3, packages: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`node_modules/dep-${i}`, { version: `1.${i}.${v}`, resolved: `https://registry.npmjs.org/dep-${i}/-/dep-${i}-1.${i}.${v}.tgz` }])) }, null, 2) + '\n';
  const { git } = realRepo([{ files: { 'package-lock.json': lock('0'), 'src/app.py': source(10) }, message: 'base' }, { files: { 'package-lock.json': lock('1'), 'src/app.py': source(10).replace('compute(5)', 'compute(50)') }, message: 'Bump' }]);
  const raw = git('show', 'HEAD');
  const r = await distill(Buffer.from(raw), { command: 'git show HEAD', door: 'pipe' });
  const text = r.output.toString('utf8');
  t.match(text, /^\+\+\+ b\/package-lock\.json\n@@ [^\n]+ @@[^\n]*\n\[omni: \d+ lines of this lockfile hunk — omni retrieve [0-9a-f]{16}\]\n/m, 'the lockfile hunk: its header, then one marker');
  t.match(text, /^\+    value_5 = compute\(50\)/m, 'the source change stays');
  t.equal(checkInPlace(Buffer.from(raw), r.output, (h) => retrieve(r.home, h)), null, 'every marker stands for one run, where it stood');
});

t.test('renumbered hunk headers are the ones git prints for the lines shown; the leading cut stops at a line git takes for a function context', async (t) => {
  const py = (edit: (l: string[]) => void) => {
    const l: string[] = [];
    for (let f = 0; f < 6; f++) {
      l.push(`def function_${f}(argument):`);
      for (let i = 0; i < 12; i++) l.push(`    step_${f}_${i} = argument * ${i}  # keeps this line long enough to cut`);
      l.push('');
    }
    edit(l);
    return l.join('\n') + '\n';
  };
  const { dir, git } = realRepo([{ files: { 'm.py': py(() => {}) }, message: 'base' }]);
  // One change in the middle of a body (nothing git takes for a context among the cut lines),
  // one right under a `def` line (the def is among the lines before the change).
  writeFileSync(join(dir, 'm.py'), py((l) => { l[6] = l[6].replace('* 5', '* 50'); l[16] = l[16].replace('* 1 ', '* 10 '); }));
  const raw = git('diff');
  const r = await distill(Buffer.from(raw), { command: 'git diff', door: 'pipe' });
  const text = r.output.toString('utf8');
  const u1 = git('diff', '-U1').split('\n').filter((l) => l.startsWith('@@ '));
  const headers = text.split('\n').filter((l) => l.startsWith('@@ '));
  t.equal(headers.length, 2, 'two hunks');
  t.equal(headers[0], u1[0], `renumbered as git -U1 prints it: ${u1[0]}`);
  // Cut past the def, git would name function_1 where its header names function_0: the cut
  // stops at the def, which is where git -U2 starts that hunk, under the same function context.
  const u2 = git('diff', '-U2').split('\n').filter((l) => l.startsWith('@@ '));
  const startAndContext = (h: string) => h.replace(/^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/, '$1 $2');
  t.equal(startAndContext(headers[1]), startAndContext(u2[1]), `starts where git -U2 does, with its function context: ${u2[1]}`);
  t.match(text, new RegExp(`^${headers[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n def function_1\\(argument\\):\\n`, 'm'), 'and shows the def the change is in');
  t.equal(checkInPlace(Buffer.from(raw), r.output, (h) => retrieve(r.home, h)), null, 'every marker stands for one run, where it stood');
});

t.test('git log: a merge is one line like any commit; an unknown header keeps the commit as printed', async (t) => {
  const { dir, git } = realRepo([
    { files: { 'a.txt': 'a\n' }, message: 'base' },
    { files: { 'b.txt': 'b\n' }, message: 'second' },
  ]);
  git('checkout', '-q', '-b', 'side', 'HEAD~1');
  writeFileSync(join(dir, 'c.txt'), 'c\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'side work');
  git('checkout', '-q', 'main');
  git('merge', '-q', '--no-ff', '-m', 'Merge branch side', 'side');
  const raw = git('log', '-3');
  const r = await distill(Buffer.from(raw + raw), { command: 'git log', door: 'pipe' });
  const text = r.output.toString('utf8');
  t.match(raw, /^Merge: \S+ \S+$/m, 'a merge');
  t.match(text, /^[0-9a-f]{7} \d{4}-\d\d-\d\d Kim Keeper: Merge branch side$/m, 'on one line like any commit');
  const fuller = git('log', '-2', '--format=fuller');
  const f = await distill(Buffer.from(fuller + fuller + fuller), { command: 'git log --format=fuller', door: 'pipe' });
  t.ok(f.output.toString('utf8').includes(fuller.split('\n').slice(0, 6).join('\n')), '--format=fuller commits stay as git printed them');
});
