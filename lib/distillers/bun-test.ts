import type { DistillerSpec } from '../kit/spec.js';
import { CHECK_LINE, isSubcommand, PASSED } from './runner.js';
import { leadTest } from '../base/lead.js';

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
  detect: leadTest(/^bun test v\d+\.\d+/),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) || CHECK_LINE.test(p) ? PASSED : null) }),
  examples: [
    // corpus/cases/507-bun-test-fail, lines 96-118
    {
      command: 'bun test',
      input: `(pass) orders > slugifies title #41 [0.01ms]
(pass) orders > adds 42 and 5 [0.01ms]
(pass) orders > clamps 301 into 0..100 [0.02ms]
(pass) orders > slugifies title #44 [0.01ms]
(pass) orders > adds 45 and 5 [0.01ms]
(pass) orders > clamps 322 into 0..100 [0.01ms]
(pass) orders > slugifies title #47 [0.01ms]
(pass) orders > adds 48 and 5 [0.01ms]
(pass) orders > clamps 343 into 0..100 [0.11ms]
(pass) orders > slugifies title #50 [1.43ms]

test/pricing.test.js:
1 | const { add, clamp } = require('../src/lib');
2 | describe('pricing', () => {
3 |   test('adds tax to 100', () => { expect(add(100, 19)).toBe(120); });
                                                           ^
error: expect(received).toBe(expected)

Expected: 120
Received: 119

      at <anonymous> (/tmp/omni-corpus5.T77kGP/bun-fail/test/pricing.test.js:3:56)
(fail) pricing > adds tax to 100 [0.18ms]
`,
      output: `[omni: 10 passing tests folded — omni retrieve <handle>]

test/pricing.test.js:
1 | const { add, clamp } = require('../src/lib');
2 | describe('pricing', () => {
3 |   test('adds tax to 100', () => { expect(add(100, 19)).toBe(120); });
                                                           ^
error: expect(received).toBe(expected)

Expected: 120
Received: 119

      at <anonymous> (/tmp/omni-corpus5.T77kGP/bun-fail/test/pricing.test.js:3:56)
(fail) pricing > adds tax to 100 [0.18ms]
`,
    },
  ],
} satisfies DistillerSpec;
