/**
 * A hunk of `git diff` (or `git show`) whose both sides the reader already holds, its old lines
 * as it read them and its new lines as its own Edit left them, keeps its file and hunk headers
 * and folds its body in place behind one marker that names those lines. Real git in a temporary
 * repository, through the hook door with a real SQLite store, payloads shaped as the pinned CLI
 * sends them.
 *
 * What must hold: the marker's handle gives back exactly the hunk's body; the reader's lines
 * the marker names are the hunk's two sides, line for line; a hunk with a line the reader does
 * not hold, another reader, or no Read before, folds nothing as held.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../lib/doors/hook.js';
import { openStore } from '../lib/store/open.js';
import { getBlob } from '../lib/store/archive.js';
import { CLAUDE_SAMPLES } from './helpers/samples.js';
import { fileRead, readPayload } from './helpers/reread.js';

const HELD = /^\[omni: (\d+) lines of this hunk, all yours: your lines (\d+)-(\d+) as you read them at \d\d:\d\d:\d\d, now lines (\d+)-(\d+) as you left them at \d\d:\d\d:\d\d — omni retrieve ([0-9a-f]{16})\]$/;

const SRC = Array.from({ length: 60 }, (_, i) => (i % 6 === 0 ? `def step_${i}(x):` : `    x = x + ${i}  # adjust ${i}`)).join('\n') + '\n';
const OLD = '    x = x + 20  # adjust 20\n    x = x + 21  # adjust 21';
const NEW = ['    x = x + 20  # adjust 20, twice', '    if x > 1000:', '        x = 1000  # the cap the report expects', '    x = x * 2', '    x = x - 7  # the offset of the old format', '    x = x + 21  # adjust 21'].join('\n');

interface Repo { dir: string; file: string; env: NodeJS.ProcessEnv; n: number }

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, GIT_AUTHOR_DATE: '2026-12-01T10:00:00Z', GIT_COMMITTER_DATE: '2026-12-01T10:00:00Z' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function repo(t: { teardown(fn: () => void): void }): Repo {
  const root = mkdtempSync(join(tmpdir(), 'omni-held-hunks-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'proj');
  mkdirSync(join(dir, 'lib'), { recursive: true });
  const file = join(dir, 'lib', 'steps.py');
  writeFileSync(file, SRC);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'add', '.');
  git(dir, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'steps');
  return { dir, file, env: { OMNI_HOME: join(root, 'omni'), HOME: root, PATH: process.env.PATH } as NodeJS.ProcessEnv, n: 0 };
}

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));

async function readFile(r: Repo, session: string, text: string): Promise<void> {
  const p = readPayload(session, r.file, fileRead(text).content, 1, fileRead(text).totalLines);
  p.cwd = r.dir;
  await runHook('post-hook', Buffer.from(JSON.stringify(p)), r.env);
}

/** The model's Edit: the file changed on disk, and the host's PostToolUse for it. */
async function edit(r: Repo, session: string, old: string, repl: string): Promise<void> {
  const before = readFileSync(r.file, 'utf8');
  const after = before.replace(old, () => repl);
  writeFileSync(r.file, after);
  const was = before.split('\n');
  const now = after.split('\n');
  let top = 0;
  while (was[top] === now[top]) top++;
  let bottom = 0;
  while (bottom < Math.min(was.length, now.length) - top && was[was.length - 1 - bottom] === now[now.length - 1 - bottom]) bottom++;
  const lines = [...was.slice(top, was.length - bottom).map((l) => `-${l}`), ...now.slice(top, now.length - bottom).map((l) => `+${l}`)];
  const p = sample('PostToolUse.Edit.captured.json');
  p.session_id = session;
  p.cwd = r.dir;
  p.tool_input = { file_path: r.file, old_string: old, new_string: repl, replace_all: false };
  p.tool_response = { filePath: r.file, oldString: old, newString: repl, originalFile: before, structuredPatch: [{ oldStart: top + 1, oldLines: was.length - bottom - top, newStart: top + 1, newLines: now.length - bottom - top, lines }], userModified: false, replaceAll: false };
  t.equal(await runHook('post-hook', Buffer.from(JSON.stringify(p)), r.env), '', 'the Edit gets no reply');
}

async function bash(r: Repo, session: string, command: string, cwd = r.dir): Promise<{ raw: string; got: string }> {
  const raw = git(cwd, ...command.split(' ').slice(1));
  const p = sample('PostToolUse.Bash.seq-1-300.json');
  p.session_id = session;
  p.cwd = cwd;
  p.tool_use_id = `toolu_held_${++r.n}`;
  p.tool_input = { command, description: command };
  p.tool_response = { stdout: raw.replace(/\n$/, ''), stderr: '', interrupted: false, isImage: false };
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), r.env);
  return { raw: raw.replace(/\n$/, ''), got: reply === '' ? raw.replace(/\n$/, '') : JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout };
}

function blob(r: Repo, h: string): string | null {
  const s = openStore({ home: r.env.OMNI_HOME! });
  try {
    return getBlob(s, h)?.toString('utf8') ?? null;
  } finally {
    s.close();
  }
}

/** Each hunk of a raw patch: its header and body lines. */
function hunks(raw: string): Array<{ header: string; body: string[] }> {
  const out: Array<{ header: string; body: string[] }> = [];
  for (const l of raw.split('\n')) {
    if (l.startsWith('@@')) out.push({ header: l, body: [] });
    else if (out.length && /^[ +-]/.test(l) && !l.startsWith('--- ') && !l.startsWith('+++ ')) out[out.length - 1].body.push(l);
  }
  return out;
}

t.test('git diff after the model\'s own Edit: the hunk\'s body is one marker naming the model\'s lines', async (t) => {
  const r = repo(t);
  await readFile(r, 's1', SRC);
  await edit(r, 's1', OLD, NEW);
  const { raw, got } = await bash(r, 's1', 'git diff');
  const [h] = hunks(raw);
  t.ok(h, 'git printed a hunk');
  const lines = got.split('\n');
  t.ok(lines.includes('diff --git a/lib/steps.py b/lib/steps.py'), 'the file header stays');
  t.ok(lines.includes(h.header), 'the hunk header stays as git printed it');
  const marker = lines.find((l) => l.startsWith('[omni:'))!;
  const m = HELD.exec(marker);
  t.ok(m, `one marker naming the model's lines: ${marker}`);
  t.equal(Number(m![1]), h.body.length, 'it hides the whole body');
  // The hunk ends the output, whose last line has no newline: the body's own bytes.
  t.equal(blob(r, m![6]), h.body.join('\n'), 'its handle gives the body back byte for byte');
  // The lines it names are the hunk's two sides.
  const oldSide = h.body.filter((l) => l[0] !== '+').map((l) => l.slice(1));
  const newSide = h.body.filter((l) => l[0] !== '-').map((l) => l.slice(1));
  t.same(SRC.split('\n').slice(Number(m![2]) - 1, Number(m![3])), oldSide, 'your lines as you read them: the old side');
  t.same(readFileSync(r.file, 'utf8').split('\n').slice(Number(m![4]) - 1, Number(m![5])), newSide, 'lines as you left them: the new side');
  t.notOk(lines.some((l) => l.startsWith('+') && !l.startsWith('+++')), 'no + line shown');
  t.ok(Buffer.byteLength(got) < Buffer.byteLength(raw), 'smaller than git\'s');

  // From a subdirectory, git names the file from the repository's root.
  const sub = await bash(r, 's1', 'git diff', join(r.dir, 'lib'));
  t.ok(sub.got.split('\n').some((l) => HELD.test(l)), 'from lib/: the same fold');

  // After the commit, git show HEAD: the same two sides.
  git(r.dir, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-am', 'twice');
  const show = await bash(r, 's1', 'git show HEAD');
  t.ok(show.got.split('\n').some((l) => HELD.test(l)), 'git show HEAD: the same fold');
});

t.test('a hunk with a line the model does not hold, another reader, or no Read before: nothing folded as held', async (t) => {
  const r = repo(t);
  await readFile(r, 's1', SRC);
  await edit(r, 's1', OLD, NEW);
  // Someone else changes the line after the edit, inside the same hunk.
  writeFileSync(r.file, readFileSync(r.file, 'utf8').replace('    x = x * 2', '    x = x * 3'));
  const other = await bash(r, 's1', 'git diff');
  t.notOk(other.got.split('\n').some((l) => l.includes('all yours')), 'the file is not as the model left it: the hunk is shown');
  t.ok(other.got.split('\n').includes('+    x = x * 3'), 'the change is there');

  const r2 = repo(t);
  await readFile(r2, 's1', SRC);
  await edit(r2, 's1', OLD, NEW);
  const sub = await bash(r2, 's2', 'git diff');
  t.notOk(sub.got.includes('all yours'), 'another session was never shown the file');

  const r3 = repo(t);
  writeFileSync(r3.file, SRC.replace(OLD, NEW));
  const none = await bash(r3, 's1', 'git diff');
  t.notOk(none.got.includes('all yours'), 'never read: nothing held');
});

t.test('a second hunk the model did not make stays, the first folds', async (t) => {
  const r = repo(t);
  await readFile(r, 's1', SRC);
  await edit(r, 's1', OLD, NEW);
  // A change far below the edit (line numbers of the edit unchanged), made outside the model's Edit.
  writeFileSync(r.file, readFileSync(r.file, 'utf8').replace('    x = x + 55  # adjust 55', '    x = x + 55  # adjust 55 (by hand)'));
  const { raw, got } = await bash(r, 's1', 'git diff');
  t.equal(hunks(raw).length, 2, 'git printed two hunks');
  t.equal(got.split('\n').filter((l) => HELD.test(l)).length, 1, 'one held marker');
  t.ok(got.split('\n').includes('+    x = x + 55  # adjust 55 (by hand)'), 'the other hunk\'s change is shown');
});
