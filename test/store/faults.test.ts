// Issue 10, defect 13: a store held by another process, or one that cannot be written.
// Real processes: a second `node -e` holding `BEGIN EXCLUSIVE` on the store file, the real
// `omni --post-hook` bundle on a Claude Code Bash payload, and `omni doctor`. The lock wait is
// asserted by count (the diagnostics log says how many statements waited), never by time.
import t from 'tap';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, omni, tempHome } from '../helpers/omni.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'claude-code', 'PostToolUse.Bash.seq-1-300.json');

/** A noisy successful Bash result the hook is sure to fold (it does, unlocked: asserted below). */
function noisyPayload(cwd: string, salt: string): string {
  const p = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const lines: string[] = [];
  for (let i = 1; i <= 600; i++) lines.push(`Downloading https://registry.example.org/${salt}-${i % 3}.tgz 50%`);
  lines.push('added 600 packages in 3s');
  p.cwd = cwd;
  p.tool_input.command = 'npm install';
  p.tool_response.stdout = lines.join('\n');
  return JSON.stringify(p);
}

/** A second process holding the store's write lock until it is killed. */
async function holdExclusive(file: string): Promise<ChildProcess> {
  const code = `const D = require(${JSON.stringify(join(ROOT, 'node_modules', 'better-sqlite3'))});
const db = new D(${JSON.stringify(file)});
db.exec('BEGIN EXCLUSIVE');
process.stdout.write('held\\n');
setInterval(() => {}, 1000);`;
  const c = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    c.stdout!.once('data', () => resolve());
    c.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  return c;
}

function stopHolder(c: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });
}

const logOf = (home: string) => { try { return readFileSync(join(home, 'omni.log'), 'utf8'); } catch { return ''; } };
/** Statements that waited for the lock, as the hook's own diagnostics count them. */
const lockWaits = (log: string) => [...log.matchAll(/store lock: (\d+) waits?\b/g)].reduce((a, m) => a + Number(m[1]), 0);

t.test('a store held by another process: the hook waits once, removes nothing, exits 0', async (t) => {
  const home = tempHome();
  const env = { OMNI_HOME: home };
  const first = omni(['--post-hook'], { input: noisyPayload(home, 'first'), env });
  t.equal(first.status, 0);
  t.match(first.stdout.toString(), /omni retrieve [0-9a-f]{16}/, 'unlocked, the same kind of payload is folded');

  const holder = await holdExclusive(join(home, 'omni.db'));
  t.teardown(() => stopHolder(holder));
  const r = omni(['--post-hook'], { input: noisyPayload(home, 'second'), env });
  t.equal(r.status, 0, 'exit 0');
  t.equal(r.stdout.toString(), '', 'no reply: the original output stands (no marker without a receipt)');
  t.equal(r.stderr.toString(), '', 'stderr quiet');
  const log = logOf(home);
  t.equal(lockWaits(log), 1, 'one statement waited for the lock; every later one was refused at once');
  t.match(log, /store lock: 1 wait of up to 250 ms/, 'the hook budget is 250 ms');
  t.match(log, /\d+ refused without waiting/);
});

t.test('a fresh store locked before omni ever migrated it: one wait, no reply, exit 0', async (t) => {
  const home = tempHome();
  // The holder creates the file: no WAL yet, so even omni's first read waits for the lock.
  const holder = await holdExclusive(join(home, 'omni.db'));
  t.teardown(() => stopHolder(holder));
  const r = omni(['--post-hook'], { input: noisyPayload(home, 'fresh'), env: { OMNI_HOME: home } });
  t.equal(r.status, 0);
  t.equal(r.stdout.toString(), '');
  t.equal(lockWaits(logOf(home)), 1, 'the open waited once and nothing after it waited again');
});

t.test('omni doctor says a locked store is locked, with the fix', async (t) => {
  const home = tempHome();
  t.equal(omni(['--post-hook'], { input: noisyPayload(home, 'doc'), env: { OMNI_HOME: home } }).status, 0);
  const holder = await holdExclusive(join(home, 'omni.db'));
  t.teardown(() => stopHolder(holder));
  const r = omni(['doctor'], { env: { OMNI_HOME: home, HOME: tempHome() } });
  const out = r.stdout.toString();
  t.notMatch(out, /store opens/, 'not "opens"');
  t.match(out, /FAIL\s+store: .*omni\.db is locked: another process holds a write transaction/);
  t.match(out, /fix: /);
  t.equal(r.status, 1);
  const j = JSON.parse(omni(['doctor', '--json'], { env: { OMNI_HOME: home, HOME: tempHome() } }).stdout.toString());
  const row = j.checks.find((c: { name: string }) => c.name === 'store');
  t.equal(row.status, 'fail');
  t.match(row.detail, /locked/);
});

/**
 * Makes the store file read-only for whoever runs the test. Root ignores permission bits, so
 * as root the file gets the immutable flag (which stops root too); returns the undo.
 */
function makeReadOnly(file: string): () => void {
  if (process.getuid?.() === 0) {
    const r = spawnSync('chattr', ['+i', file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`chattr +i failed: ${r.stderr || r.error}`);
    return () => { spawnSync('chattr', ['-i', file]); };
  }
  chmodSync(file, 0o444);
  return () => chmodSync(file, 0o600);
}

t.test('omni doctor says a read-only store cannot be written, with the fix; the hook still exits 0', async (t) => {
  const home = tempHome();
  t.equal(omni(['--post-hook'], { input: noisyPayload(home, 'ro'), env: { OMNI_HOME: home } }).status, 0);
  const file = join(home, 'omni.db');
  const undo = makeReadOnly(file);
  t.teardown(undo);
  // Really read-only: this process cannot append to it either.
  t.throws(() => writeFileSync(file, 'x', { flag: 'a' }), 'the file refuses writes, even from root');
  const r = omni(['doctor'], { env: { OMNI_HOME: home, HOME: tempHome() } });
  const out = r.stdout.toString();
  t.notMatch(out, /store opens/);
  t.match(out, /FAIL\s+store: .*omni\.db cannot be written \(read-only:/);
  t.match(out, /fix: /);
  t.equal(r.status, 1);
  const hook = omni(['--post-hook'], { input: noisyPayload(home, 'ro-2'), env: { OMNI_HOME: home } });
  t.equal(hook.status, 0);
  t.equal(hook.stdout.toString(), '', 'nothing removed without a receipt');
});

t.test('omni doctor on a healthy store says it opens and takes writes', async (t) => {
  const home = tempHome();
  const r = omni(['doctor'], { env: { OMNI_HOME: home, HOME: tempHome() } });
  t.match(r.stdout.toString(), /ok\s+store: .*omni\.db opens and takes writes/);
});
