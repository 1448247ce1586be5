import { Worker } from 'node:worker_threads';

/** Bytes handed to the main thread but not yet distilled before the child is paused. */
export const READ_AHEAD_BYTES = 64 << 20;

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
const { file, args, env, limit } = workerData;
let inflight = 0;
const paused = [];
let child;
try {
  child = spawn(file, args, { stdio: ['inherit', 'pipe', 'pipe'], env });
} catch (err) {
  parentPort.postMessage({ type: 'error', message: String(err && err.message || err) });
  return;
}
let open = 3, code = null, signal = null, failed = false;
const done = () => { if (--open === 0) { parentPort.postMessage({ type: 'exit', code, signal }); parentPort.close(); } };
const read = (s) => {
  s.on('data', (b) => {
    inflight += b.length;
    const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    parentPort.postMessage({ type: 'data', data: ab }, [ab]);
    if (inflight > limit) { s.pause(); paused.push(s); }
  });
  s.on('end', done);
};
read(child.stdout);
read(child.stderr);
child.on('error', (err) => { if (!failed) { failed = true; parentPort.postMessage({ type: 'error', message: err.message }); parentPort.close(); } });
child.on('exit', (c, s) => { code = c; signal = s; done(); });
parentPort.on('message', (m) => {
  if (m.type === 'ack') {
    inflight -= m.bytes;
    if (inflight <= limit) while (paused.length) paused.pop().resume();
  } else if (m.type === 'kill') {
    try { child.kill(m.signal); } catch {}
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

/** Spawns `file args…` from a reader thread; chunks arrive in order on `handlers.data`. */
export function spawnWithReader(file: string, args: string[], env: NodeJS.ProcessEnv, handlers: ChildHandlers): ChildHandle {
  const worker = new Worker(READER, { eval: true, workerData: { file, args, env: { ...env }, limit: READ_AHEAD_BYTES }, stdout: false, stderr: false });
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
