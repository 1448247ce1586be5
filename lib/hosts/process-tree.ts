/**
 * The host process that started a hook, read from the process tree. Hook payloads do not say
 * how the host was started, and the way it was started can carry rules a hook must respect
 * (Claude Code's `--settings`, Gemini CLI's `--yolo`/`--policy`).
 */
import type ChildProcess from 'node:child_process';
import { readFileSync } from 'node:fs';
import { lazyRequire } from '../base/lazy-require.js';

/** child_process (and the net and dgram it loads) only off Linux, where `ps` is the way. */
const childProcess = lazyRequire<typeof ChildProcess>('node:child_process');

/** One process's argv and parent pid, or null when it cannot be read. */
function processInfo(pid: number): { ppid: number; args: string[] } | null {
  if (process.platform === 'linux') {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
      const m = /\)\s+\S+\s+(\d+)/.exec(stat.slice(stat.lastIndexOf(')')));
      return m ? { ppid: Number(m[1]), args } : null;
    } catch {
      return null;
    }
  }
  const r = childProcess().spawnSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const m = /^\s*(\d+)\s+(.*)$/.exec((r.stdout ?? '').trim());
  return m ? { ppid: Number(m[1]), args: m[2].split(/\s+/) } : null;
}

/** The argv of `startPid` and its ancestors, nearest first, up to `maxDepth`; stops where one cannot be read. */
export function* ancestorArgs(startPid: number, maxDepth: number): Generator<string[]> {
  let pid = startPid;
  for (let i = 0; i < maxDepth && pid > 1; i++) {
    const info = processInfo(pid);
    if (!info) return;
    yield info.args;
    pid = info.ppid;
  }
}
