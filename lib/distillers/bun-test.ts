import type { DistillerSpec } from '../kit/spec.js';
import { CHECK_LINE, isSubcommand, PASSED } from './runner.js';

/*
 * bun test: `(pass) suite > name [0.23ms]` lines (or `✓ …` on a terminal) are passing
 * tests. File headings (`test/x.test.js:`), code frames, `error: expect(…)` with the
 * expected/received values and stack, `(fail)`/`(skip)`/`(todo)` lines, the `N tests
 * failed:` recap and the `N pass` / `N fail` / `Ran N tests` summary stay.
 */
const PASS_LINE = /^\(pass\) \S/;

export default {
  name: 'bun-test',
  family: 'test',
  matches: (argv) => isSubcommand(argv, 'bun', ['test']),
  rewrite: true,
  detect: (p) => /^bun test v\d+\.\d+/.test(p),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) || CHECK_LINE.test(p) ? PASSED : null) }),
  examples: [],
} satisfies DistillerSpec;
