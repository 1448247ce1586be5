/**
 * Plain words: the only command lines the pre-hook may rewrite into `omni exec`.
 *
 * A rewrite hands the line to another shell and hides it from the host's permission matcher
 * (the host judges `… omni exec '<line>'`, not the line). That is safe only for a line whose
 * meaning does not depend on who reads it: every shell, and every matcher that folds spaces,
 * strips quotes or sees through wrappers, reads it as the same list of words. So a line is
 * plain when it is
 *
 * - words of `[A-Za-z0-9_@%+=:,./-]` only: no quote, backslash, `$`, backtick, `{`, `}`, `~`,
 *   glob character (`*`, `?`, `[`, `]`), operator, `#`, `!`, tab, newline or non-ASCII;
 * - separated by exactly one space, with none before or after;
 * - led by a program NAME: no path (`/usr/bin/npm`), no assignment (`FOO=1 npm`), no shell
 *   keyword or builtin, and no wrapper that runs the next word (`env`, `nice`, `time`,
 *   `timeout`, `stdbuf`, `exec`, `command`, `nohup`, `sudo`, `xargs`, `builtin`, …).
 *
 * Anything else is not plain, and the pre-hook leaves it to the host as typed. Pure; imports
 * nothing.
 */

const WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
const PROGRAM = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/**
 * Words that make the next word the command (with or without options of their own), shell
 * keywords and builtins that change how the rest is read. A line led by one is never plain,
 * and the generous permission matcher (./respell.ts) looks through every word after one.
 */
export const SHELL_WRAPPERS: ReadonlySet<string> = new Set([
  // run the rest as a command
  'env', 'nice', 'time', 'timeout', 'stdbuf', 'exec', 'command', 'nohup', 'sudo', 'doas', 'su',
  'xargs', 'builtin', 'eval', 'setsid', 'chrt', 'ionice', 'taskset', 'flock', 'unbuffer',
  'script', 'watch', 'strace', 'ltrace', 'caffeinate', 'firejail', 'bwrap', 'chroot', 'unshare',
  'nsenter', 'runuser', 'sg', 'newgrp', 'systemd-run', 'busybox', 'fakeroot', 'prlimit',
  'numactl', 'cgexec', 'catchsegv', 'valgrind', 'gdb', 'rr', 'perf', 'torsocks', 'proxychains',
  'proxychains4', 'tsocks', 'rlwrap', 'entr', 'parallel', 'dbus-run-session', 'xvfb-run',
  'chpst', 'setpriv', 'capsh', 'sandbox-exec', 'arch', 'linux32', 'linux64', 'setarch',
  // a shell reading the rest
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash',
  // keywords and builtins
  'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'case', 'esac',
  'select', 'function', 'coproc', 'in', 'source', '.', 'alias', 'unalias', 'declare', 'typeset',
  'local', 'export', 'readonly', 'let', 'enable', 'trap', 'shopt', 'set', 'unset', 'hash', 'type',
  'caller', 'exit', 'return', 'wait', 'jobs', 'fg', 'bg', 'disown', 'kill', 'cd', 'pushd', 'popd',
  'umask', 'ulimit', 'read', 'mapfile', 'readarray', 'printf', 'echo', 'test', 'true', 'false',
]);

/** The line's words when it is plain (above), else null. */
export function plainWords(line: string): string[] | null {
  if (line === '') return null;
  const words = line.split(' ');
  for (const w of words) if (!WORD.test(w)) return null;
  const program = words[0];
  if (!PROGRAM.test(program) || SHELL_WRAPPERS.has(program)) return null;
  return words;
}
