/**
 * A path omni was handed (Claude Code's persistedOutputPath, Codex's transcript_path) is read
 * only if it names a regular file under the cap. A FIFO would block the hook on its open, and
 * /dev/zero or /dev/urandom never end (stat says size 0); a directory, a socket or /dev/null
 * are no output either. Through the built bundle, as the host runs it: each call must end with
 * exit 0, no reply (the host's own preview stands) and the reason in omni.log. A hang becomes a
 * failure through spawnSync's timeout, never a stuck run; no wall time is asserted.
 */
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { omni, ROOT, tempHome } from '../helpers/omni.js';
import { MAX_READ_BYTES, readRegularFile, readRegularFileAsync, RefusedFile } from '../../lib/hosts/read-text.js';

const CLAUDE = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'claude-code', 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
const CODEX = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'hosts', 'codex', 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
/** A hang is turned into a failure after this long. */
const GUARD_MS = 30_000;

function noisy(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 600; i++) lines.push(`Downloading https://registry.example.org/package-${i % 3}.tgz 50%`);
  lines.push('added 600 packages in 3s');
  return lines.join('\n');
}

function persisted(path: string): Record<string, unknown> {
  const out = noisy();
  return {
    ...CLAUDE,
    tool_input: { command: 'npm install', description: 'install' },
    tool_response: { ...CLAUDE.tool_response, stdout: out.slice(0, 2000), persistedOutputPath: path, persistedOutputSize: out.length },
  };
}

const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

/** A listening unix socket at `path`, closed at the end of the test. */
async function socketAt(t: Test, path: string): Promise<void> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(path, r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
}

/** A sparse regular file one byte over the cap: costs no disk, and must not be read. */
function overCap(dir: string): string {
  const p = join(dir, 'huge.txt');
  closeSync(openSync(p, 'w'));
  truncateSync(p, MAX_READ_BYTES + 1);
  return p;
}

function postHook(payload: unknown, home: string) {
  const r = omni(['--post-hook'], { input: JSON.stringify(payload), env: { OMNI_HOME: home }, timeout: GUARD_MS });
  const log = (() => { try { return readFileSync(join(home, 'omni.log'), 'utf8'); } catch { return ''; } })();
  return { status: r.status, signal: r.signal, stdout: r.stdout.toString(), log };
}

t.test('the post-hook reads a regular persisted file (the control)', async (t) => {
  const dir = tempHome();
  const file = join(dir, 'out.txt');
  writeFileSync(file, noisy() + '\n');
  const r = postHook(persisted(file), tempHome());
  t.equal(r.status, 0);
  t.match(r.stdout, /added 600 packages in 3s/, 'the file\'s tail is in the reply');
});

t.test('a persisted path that is no regular file: exit 0, no reply, the reason in the log', async (t) => {
  const dir = tempHome();
  const fifo = join(dir, 'fifo');
  mkfifo(fifo);
  const sock = join(dir, 'sock');
  await socketAt(t, sock);
  const cases: Array<[string, string, RegExp]> = [
    ['a FIFO nobody writes to', fifo, /a FIFO, not a regular file/],
    ['/dev/zero', '/dev/zero', /a character device, not a regular file/],
    ['/dev/urandom', '/dev/urandom', /a character device, not a regular file/],
    ['/dev/null', '/dev/null', /a character device, not a regular file/],
    ['a directory', dir, /a directory, not a regular file/],
    ['a unix socket', sock, /cannot read .*sock/],
    ['a regular file over the cap', overCap(dir), /over the cap of 67108864/],
  ];
  for (const [what, path, why] of cases) {
    const r = postHook(persisted(path), tempHome());
    t.same({ status: r.status, signal: r.signal }, { status: 0, signal: null }, `${what}: the hook ended, exit 0`);
    t.equal(r.stdout, '', `${what}: no reply, the host's preview stands`);
    t.match(r.log, why, `${what}: the log says why`);
  }
});

t.test("Codex: a transcript_path that is a FIFO is not waited on; the exit stays unknown, no reply", async (t) => {
  const dir = tempHome();
  const fifo = join(dir, 'rollout-2026-11-30T00-00-00-fifo.jsonl');
  mkfifo(fifo);
  const p = { ...CODEX, transcript_path: fifo, tool_response: noisy() };
  const r = omni(['--post-hook'], { input: JSON.stringify(p), env: { OMNI_HOME: tempHome() }, timeout: GUARD_MS });
  t.same({ status: r.status, signal: r.signal }, { status: 0, signal: null }, 'the hook ended, exit 0');
  t.equal(r.stdout.toString(), '', 'no reply: an exit code that cannot be read is a possible failure');
});

t.test('readRegularFile: regular files whole, up to the cap; anything else refused at once', async (t) => {
  const dir = tempHome();
  const file = join(dir, 'a.txt');
  writeFileSync(file, 'héllo\n');
  t.equal(readRegularFile(file), 'héllo\n');
  t.equal(await readRegularFileAsync(file), 'héllo\n');
  t.throws(() => readRegularFile(file, 3), RefusedFile, 'over a cap of 3 bytes');
  await t.rejects(readRegularFileAsync(file, 3), RefusedFile);
  const fifo = join(dir, 'fifo');
  mkfifo(fifo);
  // In this process: a blocking open would hang the test itself, so reaching the next line is the check.
  t.throws(() => readRegularFile(fifo), { name: 'RefusedFile', message: /a FIFO/ });
  await t.rejects(readRegularFileAsync(fifo), { name: 'RefusedFile', message: /a FIFO/ });
  t.throws(() => readRegularFile('/dev/zero'), { message: /character device/ });
  await t.rejects(readRegularFileAsync('/dev/zero'), { message: /character device/ });
  t.throws(() => readRegularFile(dir), { message: /a directory/ });
  t.throws(() => readRegularFile(join(dir, 'missing')), { code: 'ENOENT' });
  t.throws(() => readRegularFile(overCap(dir)), { message: /over the cap/ });
  // /proc files say size 0: read as empty, never followed past what stat said.
  t.equal(readRegularFile('/proc/self/status'), '');
});
