import { createPipeline } from '../pipeline/create.js';
import type { PipelineContext } from '../pipeline/types.js';
import { LazyStore } from './store-access.js';
import { writeSafely, holdWindow } from './sink.js';

export interface PipeOptions {
  command?: string;
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
    if (env.OMNI_PASSTHROUGH === '1') {
      writeSafely(stdin as unknown as import('node:stream').Readable, stdout, () => resolve(0));
      return;
    }
    const store = new LazyStore();
    const ctx: PipelineContext = { door: 'pipe', command: opts.command, cwd: process.cwd(), archive: store.archive(), ...holdWindow(env) };
    const pipeline = createPipeline(ctx);
    let closed = false;
    stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' && !closed) {
        closed = true;
        store.close();
        resolve(0);
      }
    });
    writeSafely(pipeline, stdout, () => { store.close(); if (!closed) { closed = true; resolve(0); } });
    stdin.pipe(pipeline);
  });
}
