/**
 * Would the host's shell run a plain-words command as something else than the program it
 * names? Claude Code runs every Bash command after a snapshot of the user's shell (functions,
 * aliases, options: `$CLAUDE_CONFIG_DIR/shell-snapshots/`), Codex runs `bash -lc` (login
 * files), and any bash reads `$BASH_ENV`. A rewrite runs the line in a fresh bash without them
 * (lib/doors/shell.ts), which inherits the environment but not a function or an alias. So a
 * program name that any of those files defines as a function or an alias is never rewritten.
 *
 * Read generously: any file, any definition-shaped text naming the program, `declare -f`
 * output quoted by `printf %q` included. A file that cannot be read, or more text than
 * MAX_BYTES, counts as defining it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const MAX_BYTES = 16 * 1024 * 1024;

function escapeRe(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** Definition-shaped text for `name`: `alias name=`, `name ()`, `function name`, `name\ \(\)`. */
export function definitionPattern(name: string): RegExp {
  const n = escapeRe(name);
  return new RegExp(
    [
      String.raw`\balias\s+(?:-\S+\s+)*(?:--\s+)?['"]?${n}=`,
      String.raw`(?:^|[^\w.+-])${n}(?:\\?\s)*\\?\((?:\\?\s)*\\?\)`,
      String.raw`\bfunction(?:\\?\s)+${n}(?![\w.+-])`,
    ].join('|'),
    'm',
  );
}

/** The first file that (maybe) defines `name`, or null. Missing files are skipped. */
export function definedIn(files: string[], name: string): string | null {
  const re = definitionPattern(name);
  let total = 0;
  for (const f of files) {
    let text: string;
    try {
      const size = statSync(f).size;
      total += size;
      if (total > MAX_BYTES) return `${f} (too much start-up text to read)`;
      text = readFileSync(f, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return `${f} (unreadable)`;
    }
    if (re.test(text)) return f;
  }
  return null;
}

/** The files in `dir`, none when it cannot be read. */
export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** Start-up files a login or non-interactive bash (or zsh) may read, and `$BASH_ENV`/`$ENV`. */
export function shellStartupFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const zdot = env.ZDOTDIR || home;
  return [
    ...(env.BASH_ENV ? [env.BASH_ENV] : []),
    ...(env.ENV ? [env.ENV] : []),
    '/etc/profile', ...filesIn('/etc/profile.d'), '/etc/bash.bashrc', '/etc/bashrc',
    '/etc/zshenv', '/etc/zsh/zshenv', '/etc/zprofile', '/etc/zsh/zprofile',
    join(home, '.bash_profile'), join(home, '.bash_login'), join(home, '.profile'), join(home, '.bashrc'),
    join(zdot, '.zshenv'), join(zdot, '.zprofile'), join(zdot, '.zshrc'),
  ];
}
