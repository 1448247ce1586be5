/**
 * Which shell runs a one-string command line in the exec door.
 *
 * `omni exec '<line>'` keeps `/bin/sh -c`, as it always has for a user who types it.
 * `omni exec --bash '<line>'` is what the pre-hook's rewrite names: Claude Code, Codex and
 * Gemini CLI run their shell tool's commands under bash, so a line that reached omni through a
 * rewrite must mean what it meant there (`{a,b}`, `${HOME:0:3}`, `$RANDOM`, `~+` are bash's;
 * dash reads them otherwise). It runs non-interactive, without profile or rc files
 * (`--noprofile --norc`): the host's shell already made the environment the rewrite inherits.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** bash from PATH (as the host's own shell lookup finds it), else the usual places; null if none. */
export function findBash(env: NodeJS.ProcessEnv): string | null {
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d.startsWith('/'));
  for (const dir of [...dirs, '/bin', '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin']) {
    const p = join(dir, 'bash');
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/** The program and its leading arguments for `-c <script> …`. */
export function shellFor(bash: boolean, env: NodeJS.ProcessEnv): { file: string; args: string[] } | null {
  if (!bash) return { file: '/bin/sh', args: [] };
  const file = findBash(env);
  return file ? { file, args: ['--noprofile', '--norc'] } : null;
}
