import type { Line } from '../kit/types.js';
import { analyzeCommand, basename, peelWrappers } from '../command/parse.js';
import { KEEPING_TAILS } from './tails.js';

/**
 * Pure helpers the distillers share: a line's text, a note's plural, a command's program and
 * subcommand. How lines are hidden is not here: that is declared (hide.ts) and done by the one
 * engine (engine.ts).
 */

/** What a line reads as: its text without ANSI colour (classify sets `plain`). */
export const textOf = (l: Line): string => l.plain ?? l.text;

/** `n thing` / `n things`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Global options with a value, skipped to find the subcommand: git's, and apt's `-o
 * Dir::State::Lists=…` (`apt-get -o X=Y update` is an update).
 */
const VALUE_OPTS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '-o']);

/** The subcommand of `tool [global options] sub …` (git, npm, kubectl, docker, terraform). */
export function subcommand(argv: string[]): string {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTS.has(a)) { i++; continue; }
    if (a.startsWith('-')) continue;
    return a;
  }
  return '';
}

/** argv[0] without its directory or an npx-style `@version` (`yarn@1.22.22` is yarn). */
export function programOf(argv: string[]): string {
  const p = argv[0] ?? '';
  return p.slice(p.lastIndexOf('/') + 1).replace(/(.)@[^@/]*$/, '$1');
}

/** Share of non-blank head lines matching `re` (for sniffing). */
export function shareMatching(head: Line[], re: RegExp): number {
  let n = 0;
  let hit = 0;
  for (const l of head) {
    const t = textOf(l);
    if (!t.trim()) continue;
    n++;
    if (re.test(t)) hit++;
  }
  return n ? hit / n : 0;
}

/**
 * The argv of the producer that owns a command line's output, as the registry routes it.
 * Distillers get it as `create`'s route; this is for readers outside the pipeline (`omni rules`).
 */
export function producerArgv(command: string | undefined): string[] {
  if (!command) return [];
  const a = analyzeCommand(command);
  if (!a.tail) return a.argv;
  const tail = peelWrappers(a.tail);
  // A keeping tail (`| head`) leaves the producer its output; any other tail owns it.
  return KEEPING_TAILS.has(basename(tail[0] ?? '')) ? a.argv : tail;
}
