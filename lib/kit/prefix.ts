import type { Line } from './types.js';

/**
 * Stream prefixes: a driver that runs several producers at once tags each line with the one
 * that printed it (turbo's `@shop/web:test: `, `pnpm -r`'s `packages/web test: `), and
 * valgrind tags its own lines with the process id (`==12345== `). What follows the prefix is
 * the producer's line as it printed it: it is judged by that (its tier, the spec that
 * recognises it), while the line itself, prefix and all, is what goes out and what a fold hides.
 *
 * A driver's prefix is only read once the driver announced it (turbo's `<task>: cache miss`,
 * pnpm's `<dir> <script>$ <command>`): a word and a colon at the start of a line are too common
 * (`Tests: 3`, `src/a.c:12: warning`) to be taken for one on their shape alone. Valgrind's
 * `==PID== ` is its own shape and is read wherever it stands. pytest-xdist's `[gw0] ` is left to
 * pytest's own lines, which read it.
 */

/** turbo's first line of a task: `@shop/web:test: cache miss, executing 1a2b…` (`cache hit, replaying logs`, `cache bypass`). */
const TURBO_TASK = /^((?:@[\w.-]+\/)?[\w.-]+:[\w.:-]+?): cache (?:miss|hit|bypass)\b/;
/** pnpm's line before a package's script runs: `packages/web test$ vitest run` (`. build$ x` for the root). */
const PNPM_SCRIPT = /^(\S+) ([\w.:-]+)\$ \S/;
/** Valgrind's own lines (`==12345== `, its verbose `--12345-- `, a crash's `**12345** `). */
const VALGRIND = /^(?:==\d+==|--\d+--|\*\*\d+\*\*)(?: |$)/;

/** The prefixes one run's lines announced, and the reading of each line's. */
export class Prefixes {
  private readonly known: string[] = [];

  /** Sets `l.prefix` when the line starts with a prefix (learning the ones announced). `plain` is its ANSI-free text. */
  mark(l: Line, plain: string): void {
    const n = this.lengthOf(plain);
    if (n > 0) l.prefix = n;
  }

  /** The length of the prefix `plain` starts with (0: none); an announcement teaches its prefix. */
  lengthOf(plain: string): number {
    // Every line of every run comes here: a byte or substring each pattern needs is looked for
    // first, so a line that can carry none costs no regex.
    const c = plain.charCodeAt(0);
    if (c === 61 || c === 45 || c === 42) {
      const v = VALGRIND.exec(plain);
      if (v) return Math.min(v[0].length, plain.length);
    }
    const t = plain.includes(': cache ') ? TURBO_TASK.exec(plain) : null;
    if (t) this.learn(`${t[1]}: `);
    else {
      const p = plain.includes('$ ') ? PNPM_SCRIPT.exec(plain) : null;
      if (p) this.learn(`${p[1]} ${p[2]}: `);
    }
    if (!this.known.length) return 0;
    for (const k of this.known) {
      if (plain.startsWith(k)) return k.length;
      // An empty line of the producer: the prefix without its trailing space.
      if (plain.length === k.length - 1 && k.startsWith(plain)) return plain.length;
    }
    return 0;
  }

  private learn(prefix: string): void {
    if (!this.known.includes(prefix)) this.known.push(prefix);
  }
}

/** The line as its producer printed it: its ANSI-free text after the prefix a driver or a tool put on it. */
export function bodyOf(l: Line): string {
  const p = l.plain ?? l.text;
  return l.prefix ? p.slice(l.prefix) : p;
}

/** The prefix a line carries ('' for none): lines of one producer share it. */
export function prefixOf(l: Line): string {
  return l.prefix ? (l.plain ?? l.text).slice(0, l.prefix) : '';
}
