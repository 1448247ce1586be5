/**
 * A rule's patterns run on V8's linear-time regexp engine (the `l` flag), so no pattern and no
 * line can make a rule hang: a backtracking engine takes 2^n steps for `^(a+)+$` on n `a`s and
 * a `b`, which stalled a hook, a whole warm MCP server and an `omni exec` deaf to SIGTERM. The
 * linear engine answers the same question in time proportional to the line (times the
 * pattern's size) whatever the pattern, and refuses at compile time what it cannot run that
 * way: back-references, look-arounds, counted repetition above 16, `\p{…}` and the `i` and
 * `u` flags. A refused pattern is an error in the rules file (schema.ts), never a slow run.
 *
 * The engine sits behind a V8 flag, switched on here, at run time, the first time a rule
 * pattern is compiled: a process with no rules never loads node:v8 nor changes a flag (and
 * ../base/v8-flag.ts keeps the code cache good for the next process).
 *
 * Measured on the 256 corpus outputs (1.47 MB, 33,576 lines, bench/rules.ts): the linear
 * engine is 13-75x slower than the backtracking one on ordinary patterns (18-90 MB/s per
 * pattern), and takes microseconds on the lines that make the backtracking one take forever.
 */
import { setV8Flag } from '../base/v8-flag.js';

let ready: boolean | null = null;

const accepts = (): boolean => {
  try {
    new RegExp('', 'l');
    return true;
  } catch {
    return false;
  }
};

/** Turns the linear engine on (once per process). False when this V8 has none. */
export function linearEngine(): boolean {
  if (ready !== null) return ready;
  if (accepts()) return (ready = true);
  try {
    setV8Flag('--enable-experimental-regexp-engine');
  } catch {
    /* no such flag here: every pattern is refused below, and the rules file is not used */
  }
  return (ready = accepts());
}

/**
 * Why V8 refused a pattern on the linear engine, in the user's terms: the construct to change
 * and what to write instead.
 */
function whyNotLinear(src: string): string {
  if (/\\[1-9]|\\k</.test(src)) return 'a back-reference (\\1, \\k<name>) cannot run in linear time';
  if (/\(\?<?[=!]/.test(src)) return 'a look-around ((?=, (?!, (?<=, (?<!) cannot run in linear time';
  if (/\\[pP]\{/.test(src)) return 'a Unicode property (\\p{…}) cannot run in linear time';
  const counted = [...src.matchAll(/\{(\d+)(,(\d*))?\}/g)].find((m) => Number(m[1]) > 16 || (m[3] !== undefined && m[3] !== '' && Number(m[3]) > 16) || (m[2] && m[3] === '' && Number(m[1]) > 15));
  if (counted) return `counted repetition ${counted[0]} repeats more than 16 times, which cannot run in linear time: write + or *, or split it into pieces of {16} or fewer`;
  return 'it cannot run in linear time (nested counted repetitions multiply: keep their product at 16 or below)';
}

/**
 * Compiles one rule pattern for the linear engine. Returns the RegExp, or why it cannot be a
 * rule's pattern (the message names the construct, not the engine).
 */
export function compileLinear(src: string): RegExp | string {
  try {
    new RegExp(src);
  } catch (e) {
    return `invalid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  if (!linearEngine()) return 'this Node.js has no linear-time regexp engine, so no rule pattern can run safely';
  try {
    return new RegExp(src, 'l');
  } catch {
    return whyNotLinear(src);
  }
}
