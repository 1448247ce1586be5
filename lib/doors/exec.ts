import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createPipeline } from '../pipeline/create.js';
import type { PipelineContext } from '../pipeline/types.js';
import { LazyStore } from './store-access.js';
import { writeSafely, holdWindow } from './sink.js';

export interface ExecOptions {
  argv: string[];
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  /** Reader scope when the pre-hook rewrote the command (OMNI_SESSION_ID / OMNI_AGENT_ID). */
  sessionId?: string;
  agentId?: string;
  host?: string;
}

/** Quote one argument for display as a shell command line. */
export function shellQuote(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * The exec door: runs the command and streams its merged output through the pipeline.
 *
 * One argument is a command line for `sh -c`; several are argv run without a shell. Either
 * way `sh` joins stderr into stdout at the descriptor (`2>&1`) so lines keep their true
 * arrival order, then `exec`s the program so signals reach it directly. Resolves to the
 * child's exit code (128+N for a signal death).
 */
export function runExec(opts: ExecOptions): Promise<number> {
  const env = opts.env ?? process.env;
  const stdout = opts.stdout ?? process.stdout;
  const single = opts.argv.length === 1;
  const command = single ? opts.argv[0] : opts.argv.map(shellQuote).join(' ');
  const script = single ? `exec 2>&1; ${opts.argv[0]}` : 'exec "$@" 2>&1';
  const shArgs = single ? ['-c', script] : ['-c', script, 'omni-exec', ...opts.argv];
  const passthrough = env.OMNI_PASSTHROUGH === '1' || /^\s*OMNI_PASSTHROUGH=1(\s|$)/.test(command);

  return new Promise((resolve) => {
    const child = spawn('/bin/sh', shArgs, {
      stdio: ['inherit', passthrough ? 'inherit' : 'pipe', passthrough ? 'inherit' : 'pipe'],
      env,
    });
    const forward = (sig: NodeJS.Signals) => () => { try { child.kill(sig); } catch { /* gone */ } };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);

    let exitCode: number | null = null;
    let outputDone = passthrough;
    const finish = () => {
      if (exitCode === null || !outputDone) return;
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(exitCode);
    };
    child.on('error', (err) => {
      // The shell itself could not start: say so plainly, as a shell would.
      stdout.write(`omni exec: ${err.message}\n`);
      exitCode = 127;
      outputDone = true;
      finish();
    });

    if (passthrough) {
      child.on('close', (code, signal) => { exitCode = code ?? 128 + (constants.signals[signal as NodeJS.Signals] ?? 0); finish(); });
      return;
    }

    const store = new LazyStore();
    const ctx: PipelineContext = {
      door: 'exec', command, host: opts.host, sessionId: opts.sessionId, agentId: opts.agentId,
      cwd: process.cwd(), archive: store.archive(), ...holdWindow(env),
    };
    const pipeline = createPipeline(ctx);
    writeSafely(pipeline, stdout, () => { outputDone = true; store.close(); finish(); });
    child.stdout!.on('data', (b: Buffer) => { if (!pipeline.write(b)) { child.stdout!.pause(); pipeline.once('drain', () => child.stdout!.resume()); } });
    child.stderr!.on('data', (b: Buffer) => pipeline.write(b));
    child.on('close', (code, signal) => {
      exitCode = code ?? 128 + (constants.signals[signal as NodeJS.Signals] ?? 0);
      // The gate reads the exit code when the input ends: a failure goes out verbatim.
      ctx.exitCode = exitCode;
      pipeline.end();
    });
  });
}
