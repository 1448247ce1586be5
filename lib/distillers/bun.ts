import { CHECK_LINE, familySpec, isSubcommand, PASSED, type Family } from './runner.js';

/*
 * bun test: `(pass) suite > name [0.23ms]` lines (or `✓ …` on a terminal) are passing
 * tests. File headings (`test/x.test.js:`), code frames, `error: expect(…)` with the
 * expected/received values and stack, `(fail)`/`(skip)`/`(todo)` lines, the `N tests
 * failed:` recap and the `N pass` / `N fail` / `Ran N tests` summary stay.
 */
const PASS_LINE = /^\(pass\) \S/;

export const BUN_TEST_FAMILY: Family = {
  name: 'bun-test',
  detect: (p) => /^bun test v\d+\.\d+/.test(p),
  recogniser: () => ({ see: (_l, p) => (PASS_LINE.test(p) || CHECK_LINE.test(p) ? PASSED : null) }),
};

export const BUN_TEST = familySpec(BUN_TEST_FAMILY, 'test', [], (argv) => isSubcommand(argv, 'bun', ['test']));

BUN_TEST.test = 'test/distillers/bun.test.ts';
