/**
 * omni_run's runner: the command goes through the exec door (`omni exec '<command>'`, the
 * same runExec and pipeline as a typed `omni exec`) in a child omni process.
 *
 * Why a child process and not runExec in this one: the exec door hands its child the
 * process's stdin, and here stdin is the MCP channel (a command reading stdin would eat the
 * client's requests); it runs in process.cwd(), one per process, while each call names its
 * own cwd; and a timeout must be able to kill the whole run, shell and grandchildren, as one
 * process group without touching the server.
 */
import { spawn } from 'node:child_process';
import { CappedOutput, type CappedResult } from './capped-output.js';

/** Timeout when the caller gives none, and the most a caller may ask for. */
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const MAX_TIMEOUT_MS = 60 * 60_000;
/** After SIGTERM, how long the run may take to flush before the group is killed. */
export const KILL_GRACE_MS = 3000;

export interface ExecEntry {
  /** node */
  execPath: string;
  /** node flags of this process (a loader when run from source), then omni's entry script. */
  prefix: string[];
}

/** How to start omni again: the same node, flags and entry script this process runs. */
export function currentEntry(): ExecEntry {
  return { execPath: process.execPath, prefix: [...process.execArgv, process.argv[1]] };
}

export interface RunRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** The most bytes of output the result carries (./capped-output.ts); the rest is cut, not held. */
  capBytes: number;
}

/** omni's own complaints kept from the exec child's stderr. */
export const STDERR_CAP_BYTES = 8192;

export interface RunOutcome {
  /** What the exec door printed (distilled, or the raw bytes of a failure), within the cap. */
  output: CappedResult;
  exitCode: number;
  timedOut: boolean;
  /** omni's own complaints (the exec process itself failing), never the command's output. */
  stderr: string;
}

/**
 * The environment for the exec child. OMNI_BUFFERED=1: an MCP client gets the result only
 * when the call returns, so the exec door holds the whole run and its final gate sees the
 * exit code (a failure comes back verbatim instead of condensed-while-streaming).
 */
export function execEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, OMNI_HOST: env.OMNI_HOST || 'mcp', OMNI_BUFFERED: '1' };
}

const running = new Set<number>();

/** Kills every run still going (the server is shutting down). */
export function killAllRuns(): void {
  for (const pid of running) killGroup(pid, 'SIGKILL');
  running.clear();
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

export function runViaExec(req: RunRequest, entry: ExecEntry = currentEntry()): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const out = new CappedOutput(req.capBytes);
    const err: Buffer[] = [];
    let errLen = 0;
    let timedOut = false;
    let settled = false;
    const child = spawn(entry.execPath, [...entry.prefix, 'exec', req.command], {
      cwd: req.cwd,
      env: execEnv(req.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout reaches the shell and everything it started.
      detached: true,
    });
    const pid = child.pid;
    if (pid) running.add(pid);
    let killTimer: NodeJS.Timeout | undefined;
    let termTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      if (!pid) return;
      // SIGTERM to the whole group: the command stops and the exec door (which forwards the
      // signal and stays up) delivers what it has. Repeated during the grace period because a
      // shell the door had not yet started when the first one landed would miss it.
      killGroup(pid, 'SIGTERM');
      termTimer = setInterval(() => killGroup(pid, 'SIGTERM'), KILL_GRACE_MS / 6);
      killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    }, req.timeoutMs);
    const finish = (exitCode: number, extra = '') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      if (termTimer) clearInterval(termTimer);
      if (pid) running.delete(pid);
      const more = errLen > STDERR_CAP_BYTES ? `[omni: ${errLen - STDERR_CAP_BYTES} more bytes of omni's own stderr not kept]\n` : '';
      resolve({ output: out.finish(), exitCode, timedOut, stderr: Buffer.concat(err).toString('utf8') + more + extra });
    };
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      if (errLen < STDERR_CAP_BYTES) err.push(Buffer.from(b.subarray(0, STDERR_CAP_BYTES - errLen)));
      errLen += b.length;
    });
    child.on('error', (e) => finish(127, `omni: could not start the exec door: ${e.message}\n`));
    child.on('close', (code, signal) => {
      // The exec door exits with the command's status (128+N for a signal death); a signal
      // here means the door itself was killed (the grace period ran out).
      finish(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15));
    });
  });
}
