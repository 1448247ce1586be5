import { constants } from 'node:os';
import { createPipeline } from '../pipeline/create.js';
import { describeRun } from '../pipeline/describe.js';
import { maskAllRequested, passthroughRequested } from '../command/passthrough.js';
import { LazyStore, STREAM_CACHE_KIB } from './store-access.js';
import { writeSafely, holdWindow } from './sink.js';
import { RunBook, collectTrace, recordRun } from './run-record.js';
import { holdYoungGeneration } from '../base/young-generation.js';

export interface PipeOptions {
  command?: string;
  /** Reader scope, when the caller knows it (OMNI_SESSION_ID / OMNI_AGENT_ID). */
  sessionId?: string;
  agentId?: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  /**
   * The process exists for this run (the CLI): it may bound V8's young generation, a setting of
   * the whole process (../base/young-generation.ts).
   */
  ownsProcess?: boolean;
}

/** The signals that end a pipe run early: what it holds goes out first (runPipe). */
const INTERRUPTS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/**
 * After a signal, the input is read on until it ends or stays quiet this long: the lines the
 * producer wrote before it (still in the pipe's buffer) are taken, a producer that got the
 * same signal (Ctrl-C reaches the whole foreground group) ends the input at once…
 */
export const SIGNAL_QUIET_MS = 100;
/** …and one that keeps printing holds omni no longer than this. */
export const SIGNAL_DRAIN_MS = 1000;

/**
 * The pipe door: stdin through the pipeline to stdout, streaming. The producer's exit
 * code is unknown here, so the gate cannot pass a failure through by exit code; failure
 * lines are still never dropped. Resolves to 0 (a reader that goes away, `| head -1`, ends
 * the run quietly), or to 128+N after signal N.
 *
 * SIGINT, SIGTERM and SIGHUP end the run as the end of the input would, as exec's forwarded
 * signal ends its command: what came in is read to its end (bounded above), what the hold
 * window held goes out (raw: an interrupted run is judged like a failing one), and the run is
 * archived and recorded. A second signal ends the process at once.
 */
export function runPipe(opts: PipeOptions = {}): Promise<number> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const env = opts.env ?? process.env;
  return new Promise((resolve) => {
    if (passthroughRequested(opts.command, env)) {
      writeSafely(stdin as unknown as import('node:stream').Readable, stdout, () => resolve(0));
      return;
    }
    const store = new LazyStore(undefined, undefined, STREAM_CACHE_KIB);
    const desc = describeRun({ door: 'pipe', command: opts.command, sessionId: opts.sessionId, agentId: opts.agentId, cwd: process.cwd(), hold: holdWindow(env), maskAll: maskAllRequested(env) });
    const book = new RunBook(desc, store);
    const pipeline = createPipeline(desc, book.edges(env));
    const delivered = collectTrace(pipeline);
    let closed = false;
    let signalled: NodeJS.Signals | null = null;
    const code = () => (signalled ? signalExit(signalled) : 0);
    const finish = () => {
      unlisten();
      if (!closed) { closed = true; resolve(code()); }
    };
    stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' && !closed) {
        store.close();
        finish();
      }
    });
    writeSafely(pipeline, stdout, () => {
      if (!closed) recordRun(book, pipeline, delivered);
      store.close();
      finish();
    });
    let lastData = Date.now();
    // A long fast stream would grow V8's young generation to 32 MiB of the process's peak RSS.
    const bound = opts.ownsProcess === true;
    const onData = () => {
      lastData = Date.now();
      if (bound) holdYoungGeneration();
    };
    stdin.on('data', onData);
    stdin.pipe(pipeline, { end: false });

    // The input ends with the exit code the door knows: none, or a signal's (an interrupted run
    // is judged like a failing one: it goes out as it came).
    let ended = false;
    const endPipeline = () => pipeline.end({ exitCode: signalled ? signalExit(signalled) : null });
    const endInput = () => {
      if (ended) return;
      ended = true;
      stdin.unpipe(pipeline);
      stdin.off('data', onData);
      // Nothing more is read: a producer still running gets EPIPE when it writes again.
      (stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      endPipeline();
    };
    stdin.once('end', () => {
      if (ended) return;
      ended = true;
      endPipeline();
    });
    const onSignal = (sig: NodeJS.Signals) => {
      if (signalled) {
        // Asked twice: leave now, with what already went out.
        process.exit(signalExit(signalled));
      }
      signalled = sig;
      if (ended) return;
      const t0 = Date.now();
      const settle = () => {
        if (ended) return;
        const now = Date.now();
        if (now - lastData >= SIGNAL_QUIET_MS || now - t0 >= SIGNAL_DRAIN_MS) endInput();
        else setTimeout(settle, 10);
      };
      // Quiet is counted from the signal: what the producer wrote just before it is still
      // on its way through the pipe.
      lastData = Math.max(lastData, t0);
      settle();
    };
    for (const sig of INTERRUPTS) process.on(sig, onSignal);
    const unlisten = () => { for (const sig of INTERRUPTS) process.off(sig, onSignal); };
  });
}

/** A shell's status for a death by `sig`: 128+N. */
function signalExit(sig: NodeJS.Signals): number {
  return 128 + (constants.signals[sig] ?? 0);
}
