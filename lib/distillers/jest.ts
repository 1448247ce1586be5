import type { DistillerSpec } from '../kit/spec.js';
import { checkmarks, TOOL_RUNNERS } from './runner.js';

/*
 * jest: `✓ name (3 ms)` (verbose) lines are passing tests. `PASS file` lines stay (one per
 * suite, they say what ran), so do describe headings, skipped/todo tests, every `FAIL`
 * block and the `Tests:` / `Test Suites:` summary.
 */
export default {
  name: 'jest',
  family: 'test',
  producers: ['jest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: (p) => /^\s*(PASS|FAIL) +\S|^Test Suites: |^Tests: {2,}\d|^> jest(\s|$)/.test(p),
  lines: () => checkmarks(),
  examples: [
    // corpus/cases/850-jest-toplevel-each-fail, lines 1-16
    {
      command: 'npx jest --ci',
      input: `FAIL ./money.test.js
  ✓ toCents(1.07) is 107 (1 ms)
  ✓ toCents(2.14) is 214
  ✓ toCents(3.21) is 321
  ✓ toCents(4.28) is 428
  ✓ toCents(5.35) is 535 (1 ms)
  ✓ toCents(6.42) is 642 (2 ms)
  ✓ toCents(7.49) is 749
  ✓ toCents(8.56) is 856
  ✓ toCents(9.63) is 963
  ✓ toCents(10.70) is 1070 (1 ms)
  ✓ toCents(11.77) is 1177 (1 ms)
  ✓ toCents(12.84) is 1284
  ✕ toCents(13.91) is 1392 (1 ms)
  ✓ toCents(14.98) is 1498 (1 ms)
  ✓ toCents(15.05) is 1505
`,
      output: `FAIL ./money.test.js
[omni: 12 passing tests folded — omni retrieve <handle>]
  ✕ toCents(13.91) is 1392 (1 ms)
  ✓ toCents(14.98) is 1498 (1 ms)
  ✓ toCents(15.05) is 1505
`,
    },
  ],
} satisfies DistillerSpec;
