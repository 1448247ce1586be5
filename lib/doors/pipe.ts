import { createPipeline } from '../pipeline/create.js';
import { maskAllRequested, passthroughRequested } from '../command/passthrough.js';
import type { PipelineContext } from '../pipeline/types.js';
import { LazyStore } from './store-access.js';
import { writeSafely, holdWindow } from './sink.js';
import { RunBook, collectTrace, recordRun } from './run-record.js';

export interface PipeOptions {
  command?: string;
  /** Reader scope, when the caller knows it (OMNI_SESSION_ID / OMNI_AGENT_ID). */
  sessionId?: string;
  agentId?: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * The pipe door: stdin through the pipeline to stdout, streaming. The producer's exit
 * code is unknown here, so the gate cannot pass a failure through by exit code; failure
 * lines are still never dropped. Always resolves (exit 0). A reader that goes away
 * (`| head -1`) ends the run quietly.
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
    const store = new LazyStore();
    const ctx: PipelineContext = { door: 'pipe', command: opts.command, sessionId: opts.sessionId, agentId: opts.agentId, cwd: process.cwd(), archive: store.archive(), ...holdWindow(env), maskAll: maskAllRequested(env) };
    const book = new RunBook(ctx, store);
    book.attachLedger(env);
    const pipeline = createPipeline(ctx);
    const delivered = collectTrace(pipeline);
    let closed = false;
    stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' && !closed) {
        closed = true;
        store.close();
        resolve(0);
      }
    });
    writeSafely(pipeline, stdout, () => {
      if (!closed) recordRun(book, pipeline, delivered);
      store.close();
      if (!closed) { closed = true; resolve(0); }
    });
    stdin.pipe(pipeline);
  });
}
