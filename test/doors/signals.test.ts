// Issue 10, defect 14: a signal to `omni exec` must end the whole command, and omni must end
// once its child has, even when a grandchild still holds the output pipe.
// Real processes throughout; no wall-time assertion: a generous guard only turns a hang into
// a failure instead of a stuck test run.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { OMNI, tempHome } from '../helpers/omni.js';

/** A hang turns into a failure after this long (the command sleeps 30 s). */
const GUARD_MS = 20_000;

/**
 * The live processes carrying `tag` in their environment: every descendant of one omni run,
 * whoever its parent is by now (a shell's orphaned `sleep` is reparented).
 */
function tagged(tag: string): Array<{ pid: number; argv: string[] }> {
  const out: Array<{ pid: number; argv: string[] }> = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!readFileSync(`/proc/${d}/environ`, 'latin1').split('\0').includes(`OMNI_SIGNAL_TEST=${tag}`)) continue;
      out.push({ pid: Number(d), argv: readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Alive and not a zombie waiting to be reaped. */
/**
 * A signalled process takes a moment of CPU to die, and a loaded machine may not give it
 * that before omni's exit is seen: poll for up to 10 s (a bound, not a timing assertion).
 */
async function stillAlive(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return alive(pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function startExec(args: string[], extraEnv: NodeJS.ProcessEnv = {}): { child: ChildProcess; tag: string; out: () => string; ready: Promise<void>; exit: Promise<{ code: number | null; signal: string | null } | 'hung'> } {
  const tag = randomUUID();
  const child = spawn(process.execPath, [OMNI, 'exec', ...args], {
    env: { ...process.env, OMNI_HOME: tempHome(), OMNI_HOLD_IDLE_MS: '100', OMNI_SIGNAL_TEST: tag, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((r) => (onReady = r));
  child.stdout!.on('data', (b: Buffer) => {
    text += b.toString();
    if (text.includes('ready\n')) onReady();
  });
  child.stderr!.on('data', (b: Buffer) => (text += b.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null } | 'hung'>((resolve) => {
    const guard = setTimeout(() => resolve('hung'), GUARD_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal });
    });
  });
  return { child, tag, out: () => text, ready, exit };
}

/** The `sleep 30` of one run, found while it runs. */
async function sleeperOf(tag: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const s = tagged(tag).find((p) => p.argv[0] === 'sleep' && p.argv[1] === '30');
    if (s) return s.pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no sleep 30 in this run');
}

/** Whatever of this run is still alive after a failed assertion: one process at a time, by id. */
function cleanup(tag: string): void {
  for (const { pid } of tagged(tag)) {
    if (pid > 1 && pid !== process.pid) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
  }
}

t.test('SIGTERM to omni exec ends the shell and its sleep: omni exits 143', async (t) => {
  const run = startExec(['sh', '-c', 'trap "echo trapped" INT; echo ready; sleep 30']);
  await run.ready;
  t.teardown(() => cleanup(run.tag));
  const sleeper = await sleeperOf(run.tag);
  run.child.kill('SIGTERM');
  const r = await run.exit;
  t.not(r, 'hung', `omni exited (guard ${GUARD_MS} ms)`);
  t.same(r, { code: 143, signal: null }, 'exit code 128+15');
  t.equal(await stillAlive(sleeper), false, 'the sleep 30 of the command\'s group is gone');
  t.match(run.out(), /^ready\n/);
});

t.test('SIGINT reaches the whole group: the trap runs, the sleep dies, omni ends', async (t) => {
  const run = startExec(['sh', '-c', 'trap "echo trapped" INT; echo ready; sleep 30']);
  await run.ready;
  t.teardown(() => cleanup(run.tag));
  const sleeper = await sleeperOf(run.tag);
  run.child.kill('SIGINT');
  const r = await run.exit;
  t.not(r, 'hung', 'omni exited');
  t.equal(await stillAlive(sleeper), false, 'the sleep got the signal too');
  t.match(run.out(), 'trapped', 'the shell\'s own trap ran');
  // The shell handled the signal; the exit code is the script's (its last command, the
  // interrupted sleep: 128+2), exactly as `sh -c` gives it.
  t.same(r, { code: 130, signal: null });
});

t.test('a grandchild still holding the pipe after the command exited does not keep omni running', async (t) => {
  const run = startExec(['sh', '-c', 'sleep 30 & echo ready']);
  await run.ready;
  t.teardown(() => cleanup(run.tag));
  const sleeper = await sleeperOf(run.tag);
  const r = await run.exit;
  t.not(r, 'hung', 'omni exited after a bounded drain');
  t.same(r, { code: 0, signal: null }, 'the command\'s own exit code');
  t.equal(run.out(), 'ready\n');
  t.equal(await stillAlive(sleeper), false, 'the grandchild was ended with its group');
});

t.test('a command that ignores SIGTERM is killed after a bounded grace', async (t) => {
  const run = startExec(['sh', '-c', 'trap "" TERM; echo ready; sleep 30']);
  await run.ready;
  t.teardown(() => cleanup(run.tag));
  const sleeper = await sleeperOf(run.tag);
  run.child.kill('SIGTERM');
  const r = await run.exit;
  t.not(r, 'hung', 'omni exited');
  t.same(r, { code: 137, signal: null }, 'the shell died of SIGKILL: 128+9');
  t.equal(await stillAlive(sleeper), false, 'the sleep is gone too');
});

t.test('the passthrough door forwards to the group as well', async (t) => {
  const run = startExec(['sh', '-c', 'trap "echo trapped" INT; echo ready; sleep 30'], { OMNI_PASSTHROUGH: '1' });
  await run.ready;
  t.teardown(() => cleanup(run.tag));
  const sleeper = await sleeperOf(run.tag);
  run.child.kill('SIGTERM');
  const r = await run.exit;
  t.not(r, 'hung', 'omni exited');
  t.same(r, { code: 143, signal: null });
  t.equal(await stillAlive(sleeper), false, 'the sleep is gone');
});
