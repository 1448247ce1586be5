// Issue 10, defect 14: a signal to `omni exec` must end the whole command, and omni must end
// once its child has, even when a grandchild still holds the output pipe.
// Real processes throughout; no wall-time assertion: a generous guard only turns a hang into
// a failure instead of a stuck test run.
import t from 'tap';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
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

// ---------------------------------------------------------------------------------------------
// `producer | omni pipe` under a signal: what omni held goes out, and the run is archived, as
// exec delivers and archives its command's output under the same signals. The producer is a
// real process writing into a FIFO that is omni's stdin; the signal is a real one to omni.

interface PipeRun { producer: ChildProcess; child: ChildProcess; home: string; out: () => string; printed: Promise<void>; exit: Promise<{ code: number | null; signal: string | null } | 'hung'> }

/** `script` runs with its stdout into omni pipe's stdin; it says `printed` on stderr when done printing. */
function startPipe(script: string, extraEnv: NodeJS.ProcessEnv = {}): PipeRun {
  const dir = tempHome();
  const home = tempHome();
  const fifo = `${dir}/in.fifo`;
  execFileSync('mkfifo', [fifo]);
  const producer = spawn('/bin/sh', ['-c', `exec > "$1"; ${script}`, 'sh', fifo], { stdio: ['ignore', 'ignore', 'pipe'] });
  // Blocks only until the producer has opened its end, which it does first.
  const fd = openSync(fifo, 'r');
  const child = spawn(process.execPath, [OMNI, 'pipe'], { env: { ...process.env, OMNI_HOME: home, OMNI_HOLD_IDLE_MS: '300', ...extraEnv }, stdio: [fd, 'pipe', 'pipe'] });
  closeSync(fd);
  let text = '';
  child.stdout!.on('data', (b: Buffer) => (text += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (text += b.toString()));
  let said = '';
  let onPrinted: () => void = () => {};
  const printed = new Promise<void>((r) => (onPrinted = r));
  producer.stderr!.on('data', (b: Buffer) => {
    said += b.toString();
    if (said.includes('printed')) onPrinted();
  });
  const exit = new Promise<{ code: number | null; signal: string | null } | 'hung'>((resolve) => {
    const guard = setTimeout(() => resolve('hung'), GUARD_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal });
    });
  });
  return { producer, child, home, out: () => text, printed, exit };
}

const LINES = Array.from({ length: 15 }, (_, i) => `line ${i + 1}: ${['alpha', 'bravo', 'charlie', 'delta', 'echo'][i % 5]} ${i * 7919}`);
const printf = (lines: string[]) => lines.map((l) => `echo '${l}'`).join('; ');
/**
 * Then more than a pipe holds (64 KiB), so that the producer's `printed` comes only once omni
 * is reading its input: its signal handlers are in place by then (a signal to a node still
 * starting would kill it, as it would any program not yet running its own code).
 */
const FILL = 'seq 1 20000';
const FILLED = Array.from({ length: 20000 }, (_, i) => String(i + 1));

function stop(p: ChildProcess): void {
  if (p.exitCode === null && p.signalCode === null) {
    try { p.kill('SIGKILL'); } catch { /* gone */ }
  }
}

/** The run omni recorded, and its raw trace's bytes. */
function recorded(home: string): { door: string; raw: string } | null {
  const db = new Database(`${home}/omni.db`, { readonly: true });
  try {
    const run = db.prepare('SELECT door, raw_handle FROM runs ORDER BY id DESC LIMIT 1').get() as { door: string; raw_handle: string | null } | undefined;
    if (!run?.raw_handle) return run ? { door: run.door, raw: '' } : null;
    const blob = db.prepare('SELECT data FROM blobs WHERE handle = ?').get(run.raw_handle) as { data: Buffer } | undefined;
    return { door: run.door, raw: blob?.data.toString() ?? '' };
  } finally {
    db.close();
  }
}

for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  t.test(`${sig} to omni pipe inside the hold window: every line the producer printed goes out, and is archived`, async (t) => {
    const run = startPipe(`${printf(LINES)}; ${FILL}; echo printed >&2; sleep 30`, { OMNI_HOLD_MS: '60000', OMNI_HOLD_IDLE_MS: '60000' });
    t.teardown(() => { stop(run.producer); stop(run.child); });
    await run.printed;
      run.child.kill(sig);
    const r = await run.exit;
    t.not(r, 'hung', 'omni exited while the producer still ran');
    t.same(r, { code, signal: null }, `exit ${code}`);
    t.equal(run.out(), [...LINES, ...FILLED].join('\n') + '\n', 'every line, as printed');
    const rec = recorded(run.home);
    t.equal(rec?.door, 'pipe', 'the run is recorded');
    t.equal(rec?.raw, [...LINES, ...FILLED].join('\n') + '\n', 'and its raw output archived');
  });
}

t.test('Ctrl-C reaches the producer too (the whole group): its end of input ends the run, every line out', async (t) => {
  const run = startPipe(`${printf(LINES)}; ${FILL}; echo printed >&2; sleep 30`, { OMNI_HOLD_MS: '60000', OMNI_HOLD_IDLE_MS: '60000' });
  t.teardown(() => { stop(run.producer); stop(run.child); });
  await run.printed;
  run.child.kill('SIGINT');
  run.producer.kill('SIGINT');
  const r = await run.exit;
  // Which comes first, the signal or the end of input the producer's death makes, is the
  // kernel's call, as at a terminal: 130, or 0 for an input that ended before the signal counted.
  t.ok(r !== 'hung' && r.signal === null && (r.code === 130 || r.code === 0), `omni exited by itself, 130 or 0 (${JSON.stringify(r)})`);
  t.equal(run.out(), [...LINES, ...FILLED].join('\n') + '\n', 'every line, as printed');
});

t.test('past the hold window: the lines still held, the last one without its newline too, go out on SIGINT', async (t) => {
  const tail = 'the last line, no newline';
  const run = startPipe(`${printf(LINES.slice(0, 10))}; sleep 1; ${FILL}; ${printf(LINES.slice(10))}; printf '%s' '${tail}'; echo printed >&2; sleep 30`, { OMNI_HOLD_MS: '200', OMNI_HOLD_IDLE_MS: '100' });
  t.teardown(() => { stop(run.producer); stop(run.child); });
  await run.printed;
  run.child.kill('SIGINT');
  const r = await run.exit;
  t.same(r, { code: 130, signal: null });
  t.equal(run.out(), [...LINES.slice(0, 10), ...FILLED, ...LINES.slice(10)].join('\n') + '\n' + tail, 'every line, the partial last one included');
});
