import type { DistillerSpec } from '../kit/spec.js';

/**
 * The generic distiller, for what no spec owns: ANSI colour is already stripped by classify
 * (render prints the plain text); here blank-line runs are squeezed and runs of lines that share
 * one template (the output's own structure: the same words, only numbers and ids differing) fold
 * to first line, a marker quoting one of them, last line. A line holding a word of a failure or
 * a warning, a diagnostic's `file:line`, a table's row or nothing but values never folds. It
 * recognises nothing tool-specific (no `see`), so output with no such runs comes back as it
 * was. It owns no command: the registry falls back to it.
 */
export default {
  name: 'generic',
  family: 'generic',
  lines: () => ({ others: 'fold' }),
  examples: [
    // corpus/cases/1021-unittest-verbose-pass, lines 8-20
    {
      command: 'python3 -m unittest -v',
      input: `test_find_prefix_8 (tests.test_stock.FindTest.test_find_prefix_8) ... ok
test_low_below_1 (tests.test_stock.LowTest.test_low_below_1) ... ok
test_low_below_10 (tests.test_stock.LowTest.test_low_below_10) ... ok
test_low_below_11 (tests.test_stock.LowTest.test_low_below_11) ... ok
test_low_below_12 (tests.test_stock.LowTest.test_low_below_12) ... ok
test_low_below_13 (tests.test_stock.LowTest.test_low_below_13) ... ok
test_low_below_14 (tests.test_stock.LowTest.test_low_below_14) ... ok
test_low_below_15 (tests.test_stock.LowTest.test_low_below_15) ... ok
test_low_below_16 (tests.test_stock.LowTest.test_low_below_16) ... ok
test_low_below_17 (tests.test_stock.LowTest.test_low_below_17) ... ok
test_low_below_18 (tests.test_stock.LowTest.test_low_below_18) ... ok
test_low_below_19 (tests.test_stock.LowTest.test_low_below_19) ... ok
test_low_below_2 (tests.test_stock.LowTest.test_low_below_2) ... ok
`,
      output: `test_find_prefix_8 (tests.test_stock.FindTest.test_find_prefix_8) ... ok
test_low_below_1 (tests.test_stock.LowTest.test_low_below_1) ... ok
[omni: 10 lines like "test_low_below_10 (tests.test_stock.LowTest.test_low_below_10) ... ok" folded — omni retrieve <handle>]
test_low_below_2 (tests.test_stock.LowTest.test_low_below_2) ... ok
`,
    },
  ],
} satisfies DistillerSpec;
