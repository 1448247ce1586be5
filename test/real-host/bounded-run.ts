/**
 * Runs a real host CLI for a real-host test: clean environment, its own process group, a hard
 * timeout, and only what it started is ever killed (the group it leads, by the PID it spawned).
 *
 * Through `env -i`: tap's process-info hook adds NODE_OPTIONS (its loader) to every child's
 * environment, explicit env or not; the host would pass it to every command and hook it runs
 * (a loader in omni's hook, and EROFS in a read-only sandbox).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BoundedRun {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export async function runBounded(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<BoundedRun> {
  const envArgs = Object.entries(opts.env)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => `${k}=${v}`);
  const child = spawn('/usr/bin/env', ['-i', ...envArgs, bin, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  let timedOut = false;
  const pid = child.pid;
  const killGroup = (sig: NodeJS.Signals) => {
    if (!pid) return;
    try {
      process.kill(-pid, sig);
    } catch {
      /* already gone */
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), 5000).unref();
  }, opts.timeoutMs);
  const [exitCode, signal] = await new Promise<[number | null, string | null]>((res) => child.on('close', (c, s) => res([c, s])));
  clearTimeout(timer);
  // Leftover hook or exec processes of this run live in the same group: end them too.
  killGroup('SIGKILL');
  return { exitCode, signal, timedOut, stdout, stderr };
}

/**
 * The clean environment a host CLI runs in: a temporary HOME (nothing of the developer's own
 * config is read or written), omni's store in the run's directory, no update notices.
 */
export function hostEnv(dirs: { home: string; tmp?: string; omniHome: string }): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dirs.home,
    ...(dirs.tmp ? { TMPDIR: dirs.tmp } : {}),
    USER: process.env.USER ?? 'dev',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    SHELL: '/bin/bash',
    OMNI_HOME: dirs.omniHome,
    // npm's update notice would make outputs differ from run to run
    NO_UPDATE_NOTIFIER: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** omni's diagnostics log of a run ('' when omni wrote none). */
export function readOmniLog(omniHome: string): string {
  try {
    return readFileSync(join(omniHome, 'omni.log'), 'utf8');
  } catch {
    return '';
  }
}
