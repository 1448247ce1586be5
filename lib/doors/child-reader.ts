import { Worker } from 'node:worker_threads';

/** Bytes handed to the main thread but not yet distilled before the child is paused. */
export const READ_AHEAD_BYTES = 64 << 20;

/**
 * After the child has exited, how long its output pipe may stay open. A grandchild that
 * outlived it (`sleep 30 &`, a shell's orphaned job after a signal) still holds the pipe;
 * waiting for that would keep omni, and the agent's tool call, running for as long as the
 * grandchild lives. Past this, omni stops reading and ends the child's process group.
 */
export const EXIT_DRAIN_MS = 2000;

/** After a forwarded signal, how long the command may take to exit before its group gets SIGKILL. */
export const KILL_GRACE_MS = 3000;

/*
 * Runs in a worker thread: spawns the child and does nothing but read its pipes.
 *
 * Why a thread: a child that fills its pipe and then calls exit() (every Node program that
 * does `console.log(…); process.exit(1)`) loses the output it had queued. If the thread
 * that reads the pipe is also the one distilling, a busy moment drops the tail of a failing
 * run: the real-host test caught `omni exec 'npm test'` losing its last 50 lines. A reader
 * with nothing else to do drains the pipe as fast as any host would.
 */
const READER = `(() => {
const { parentPort, workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { file, args, env, limit, detached, drainMs, graceMs } = workerData;
let inflight = 0;
const paused = [];
let child;
try {
  child = spawn(file, args, { stdio: ['inherit', 'pipe', 'pipe'], env, detached });
} catch (err) {
  parentPort.postMessage({ type: 'error', message: String(err && err.message || err) });
  return;
}
let open = 3, code = null, signal = null, failed = false, exited = false, finished = false;
let drainTimer = null, graceTimer = null;
// A detached child leads its own process group: a signal goes to the group (-pid), so a
// shell's running job gets it too, as a terminal would deliver it to a foreground group.
const signalGroup = (sig) => {
  if (!child.pid) return;
  try { process.kill(detached ? -child.pid : child.pid, sig); } catch {}
};
const finish = () => {
  if (finished) return;
  finished = true;
  clearTimeout(drainTimer);
  clearTimeout(graceTimer);
  parentPort.postMessage({ type: 'exit', code, signal });
  parentPort.close();
};
const done = () => { if (--open === 0) finish(); };
const streams = [child.stdout, child.stderr];
const read = (s) => {
  s.on('data', (b) => {
    inflight += b.length;
    const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    parentPort.postMessage({ type: 'data', data: ab }, [ab]);
    if (inflight > limit) { s.pause(); paused.push(s); }
  });
  s.on('end', done);
  s.on('error', () => {});
};
read(child.stdout);
read(child.stderr);
// The child is gone but someone still holds its pipe: stop reading after the drain (unless
// omni itself paused the reading), end the group, and report the child's own status.
const drain = () => {
  if (finished) return;
  if (paused.length) { drainTimer = setTimeout(drain, drainMs); return; }
  for (const s of streams) s.destroy();
  signalGroup('SIGTERM');
  finish();
};
child.on('error', (err) => { if (!failed) { failed = true; finished = true; parentPort.postMessage({ type: 'error', message: err.message }); parentPort.close(); } });
child.on('exit', (c, s) => {
  code = c; signal = s; exited = true;
  clearTimeout(graceTimer);
  if (open > 1) drainTimer = setTimeout(drain, drainMs);
  done();
});
parentPort.on('message', (m) => {
  if (m.type === 'ack') {
    inflight -= m.bytes;
    if (inflight <= limit) while (paused.length) paused.pop().resume();
  } else if (m.type === 'kill') {
    signalGroup(m.signal);
    // A command that ignores the signal must not hold omni forever.
    if (!exited && m.signal !== 'SIGKILL' && !graceTimer) graceTimer = setTimeout(() => { if (!exited) signalGroup('SIGKILL'); }, graceMs);
  }
});
})();
`;

export interface ChildHandlers {
  data(chunk: Buffer): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  error(message: string): void;
}

export interface ChildHandle {
  /** Tell the reader these bytes were distilled (flow control). */
  ack(bytes: number): void;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Spawns `file args…` from a reader thread; chunks arrive in order on `handlers.data`.
 * `detached`: the child leads its own process group and `kill` signals the whole group
 * (see `ownGroup`).
 */
export function spawnWithReader(file: string, args: string[], env: NodeJS.ProcessEnv, handlers: ChildHandlers, opts: { detached?: boolean } = {}): ChildHandle {
  const workerData = { file, args, env: { ...env }, limit: READ_AHEAD_BYTES, detached: opts.detached ?? false, drainMs: EXIT_DRAIN_MS, graceMs: KILL_GRACE_MS };
  const worker = new Worker(READER, { eval: true, workerData, stdout: false, stderr: false });
  let finished = false;
  worker.on('message', (m: { type: string; data?: ArrayBuffer; code?: number | null; signal?: NodeJS.Signals | null; message?: string }) => {
    if (m.type === 'data') handlers.data(Buffer.from(m.data!));
    else if (m.type === 'exit' && !finished) { finished = true; handlers.exit(m.code ?? null, m.signal ?? null); }
    else if (m.type === 'error' && !finished) { finished = true; handlers.error(m.message ?? 'spawn failed'); }
  });
  worker.on('error', (err) => { if (!finished) { finished = true; handlers.error(err.message); } });
  worker.on('exit', () => { if (!finished) { finished = true; handlers.error('reader thread ended early'); } });
  return {
    ack: (bytes) => { if (!finished) worker.postMessage({ type: 'ack', bytes }); },
    kill: (signal) => { worker.postMessage({ type: 'kill', signal }); },
  };
}

/**
 * Whether the command gets its own process group. Off a terminal (an agent's tool call,
 * a pipe), yes: omni forwards signals to the group, as a terminal does to a foreground group.
 * With stdin on a terminal, no: a background group reading the terminal is stopped
 * (SIGTTIN), and there the terminal already signals omni's group, command included.
 */
export function ownGroup(stdinIsTerminal: boolean): boolean {
  return !stdinIsTerminal;
}
