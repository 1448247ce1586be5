import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createPipeline } from '../pipeline/create.js';
import { describeRun } from '../pipeline/describe.js';
import { maskAllRequested, passthroughRequested } from '../command/passthrough.js';
import { LazyStore, STREAM_CACHE_KIB } from './store-access.js';
import { writeSafely, holdWindow } from './sink.js';
import { spawnWithReader, ownGroup, KILL_GRACE_MS } from './child-reader.js';
import { RunBook, collectTrace, recordRun } from './run-record.js';
import { shellFor } from './shell.js';
import { holdYoungGeneration } from '../base/young-generation.js';

export interface ExecOptions {
  argv: string[];
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  /** Reader scope when the pre-hook rewrote the command (OMNI_SESSION_ID / OMNI_AGENT_ID). */
  sessionId?: string;
  agentId?: string;
  host?: string;
  /**
   * Run the one-string command line under bash instead of sh (`omni exec --bash '<line>'`, the
   * form the pre-hook's rewrite names: the host ran its commands under bash). See ./shell.ts.
   */
  bash?: boolean;
  /**
   * The process exists for this run (the CLI): it may bound V8's young generation, a setting of
   * the whole process (../base/young-generation.ts).
   */
  ownsProcess?: boolean;
}

/** Quote one argument for display as a shell command line. */
export function shellQuote(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * The exec door: runs the command and streams its merged output through the pipeline.
 *
 * One argument is a command line for `sh -c` (`bash -c` with `bash`); several are argv run
 * without a shell. Either way the shell joins stderr into stdout at the descriptor (`2>&1`) so
 * lines keep their true arrival order, then `exec`s the program so signals reach it directly.
 * Resolves to the child's exit code (128+N for a signal death; 127 when bash is asked for and
 * there is none).
 *
 * Off a terminal the command runs in its own process group, and SIGINT, SIGTERM and SIGHUP
 * sent to omni go to that whole group: a shell's running `sleep` gets them too, as it would
 * from a terminal. A command that has not exited `KILL_GRACE_MS` after a forwarded signal
 * gets SIGKILL; once it has exited, omni waits at most `EXIT_DRAIN_MS` for a grandchild
 * still holding the output pipe (lib/doors/child-reader.ts).
 */
export function runExec(opts: ExecOptions): Promise<number> {
  const env = opts.env ?? process.env;
  const stdout = opts.stdout ?? process.stdout;
  const single = opts.argv.length === 1;
  const command = single ? opts.argv[0] : opts.argv.map(shellQuote).join(' ');
  const script = single ? `exec 2>&1; ${opts.argv[0]}` : 'exec "$@" 2>&1';
  const shell = shellFor(single && opts.bash === true, env);
  if (!shell) {
    stdout.write('omni exec: bash not found\n');
    return Promise.resolve(127);
  }
  const shArgs = [...shell.args, ...(single ? ['-c', script] : ['-c', script, 'omni-exec', ...opts.argv])];
  const passthrough = passthroughRequested(command, env);

  return new Promise((resolve) => {
    const detached = ownGroup(process.stdin.isTTY === true);
    if (passthrough) {
      const child = spawn(shell.file, shArgs, { stdio: 'inherit', env, detached });
      let exited = false;
      let grace: NodeJS.Timeout | undefined;
      const kill = (sig: NodeJS.Signals) => {
        if (child.pid === undefined) return;
        try { process.kill(detached ? -child.pid : child.pid, sig); } catch { /* gone */ }
      };
      const unforward = forwardSignals((sig) => {
        kill(sig);
        grace ??= setTimeout(() => { if (!exited) kill('SIGKILL'); }, KILL_GRACE_MS);
      });
      const end = (code: number) => { exited = true; clearTimeout(grace); unforward(); resolve(code); };
      child.on('error', (err) => { stdout.write(`omni exec: ${err.message}\n`); end(127); });
      child.on('close', (code, signal) => end(exitStatus(code, signal)));
      return;
    }

    const store = new LazyStore(undefined, undefined, STREAM_CACHE_KIB);
    // The run, described before it starts: routed (the rules read), its hold window set.
    const desc = describeRun({
      door: 'exec', command, host: opts.host, sessionId: opts.sessionId, agentId: opts.agentId,
      cwd: process.cwd(), hold: holdWindow(env), maskAll: maskAllRequested(env),
    });
    const book = new RunBook(desc, store);
    const pipeline = createPipeline(desc, book.edges(env));
    const delivered = collectTrace(pipeline);
    let exitCode: number | null = null;
    let outputDone = false;
    const finish = () => {
      if (exitCode === null || !outputDone) return;
      unforward();
      resolve(exitCode);
    };
    writeSafely(pipeline, stdout, () => {
      outputDone = true;
      recordRun(book, pipeline, delivered);
      store.close();
      finish();
    });

    // A command that prints fast for long would grow V8's young generation to 32 MiB of the
    // process's peak RSS, as a long pipe would.
    const bound = opts.ownsProcess === true;
    const child = spawnWithReader(shell.file, shArgs, env, {
      data: (b) => {
        if (bound) holdYoungGeneration();
        pipeline.write(b);
        child.ack(b.length);
      },
      exit: (code, signal) => {
        exitCode = exitStatus(code, signal);
        // The input ends with the exit code: the gate passes a failure through verbatim.
        pipeline.end({ exitCode });
      },
      error: (message) => {
        // The shell itself could not start: say so plainly, as a shell would.
        exitCode = 127;
        pipeline.end({ exitCode }, `omni exec: ${message}\n`);
      },
    }, { detached });
    const unforward = forwardSignals((sig) => child.kill(sig));
  });
}

/** A shell's exit status: the code, or 128+N for a death by signal N. */
function exitStatus(code: number | null, signal: NodeJS.Signals | string | null): number {
  return code ?? 128 + (constants.signals[signal as NodeJS.Signals] ?? 0);
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Passes SIGINT, SIGTERM and SIGHUP on to the child while it runs; returns the undo. */
function forwardSignals(kill: (sig: NodeJS.Signals) => void): () => void {
  const handlers = FORWARDED.map((sig) => [sig, () => kill(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  return () => { for (const [sig, h] of handlers) process.off(sig, h); };
}
