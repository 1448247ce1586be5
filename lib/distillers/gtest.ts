import type { DistillerSpec } from '../kit/spec.js';
import { LEAD, PASSED, type Hit } from './runner.js';
import { leadTestAny } from '../base/lead.js';

/*
 * GoogleTest, and cmocka, whose runner prints the same bracketed shape. A test binary is run by
 * its path (`./build/money_test`), a name no spec owns, so its output is read by these lines:
 * `[ RUN      ] Suite.Test` is a lead-in (kept before a kept line: a failure's message, a
 * test's own output), `[       OK ] Suite.Test (0 ms)` a passing test. The banner before the
 * first test (`Running main() from gtest_main.cc`, `[==========] Running 39 tests from 5 test
 * suites.`, the global set-up line) and the per-suite bracket lines (`[----------] 12 tests
 * from X`, its `(12 ms total)` close, the tear-down line) say nothing the closing lines do not.
 * Everything else stays: `file:line: Failure` with its expected/actual lines, `[  FAILED  ]`,
 * `[ DISABLED ]`, `[  SKIPPED ]`, cmocka's `[  ERROR   ]`/`[   LINE   ]`, a filter `Note:`, and
 * the closing `[==========] N tests from M test suites ran.`, `[  PASSED  ] N tests.` and the
 * failed/skipped lists.
 */
const RUN_LINE = /^\[ RUN {6}\] \S/;
/** gtest closes a passing test with its time; cmocka without. */
const OK_LINE = /^\[ {7}OK \] \S+( \(\d+ ms\))?\s*$/;
const BANNER: Hit = { noun: '' };
const BANNER_LINE =
  /^Running main\(\) from \S+$|^\[==========\] Running \d+ tests? from \d+ test suites?\.\s*$|^\[==========\] Running \d+ test\(s\)\.\s*$|^\[----------\] Global test environment (set-up|tear-down)\.?\s*$/;
/** `[----------] 12 tests from CentsRound` and its `(12 ms total)` close. */
const SUITE_LINE = /^\[----------\] \d+ tests? from \S+( \(\d+ ms total\))?\s*$/;

export default {
  name: 'gtest',
  family: 'test',
  detect: leadTestAny(RUN_LINE, /^\[==========\] Running \d+ (tests? from \d+ test suites?|test\(s\))\.\s*$/),
  lines: () => ({
    see: (_l, p) => (OK_LINE.test(p) ? PASSED : RUN_LINE.test(p) ? LEAD : BANNER_LINE.test(p) || SUITE_LINE.test(p) ? BANNER : null),
  }),
  failures: [
    // gtest's assertion headline: `money_test.cc:13: Failure`, then the expected/actual lines.
    /^\S+:\d+: Failure\s*$/,
    // cmocka's: `[  ERROR   ] --- 0xa != 0xb`, `[   LINE   ] --- x.c:17: error: Failure!`.
    /^\[ {2}ERROR {3}\] /,
    /^\[ {3}LINE {3}\] /,
  ],
  examples: [
    // corpus/cases/1201-gtest-fail, lines 18-32
    {
      command: './build/money_test',
      input: `[ RUN      ] CentsRound.Milli75
[       OK ] CentsRound.Milli75 (0 ms)
[ RUN      ] CentsRound.Milli85
[       OK ] CentsRound.Milli85 (0 ms)
[ RUN      ] CentsRound.Milli95
[       OK ] CentsRound.Milli95 (0 ms)
[ RUN      ] CentsRound.Milli105
/tmp/omni-corpus-1pgPPu/eco/runners-native/gtest/fail/money_test.cc:13: Failure
Expected equality of these values:
  cents_round(105)
    Which is: 10
  (105 + 5) / 10
    Which is: 11
[  FAILED  ] CentsRound.Milli105 (0 ms)
[ RUN      ] CentsRound.Milli115
`,
      output: `[omni: 3 passing tests folded — omni retrieve <handle>]
[ RUN      ] CentsRound.Milli105
/tmp/omni-corpus-1pgPPu/eco/runners-native/gtest/fail/money_test.cc:13: Failure
Expected equality of these values:
  cents_round(105)
    Which is: 10
  (105 + 5) / 10
    Which is: 11
[  FAILED  ] CentsRound.Milli105 (0 ms)
[ RUN      ] CentsRound.Milli115
`,
    },
  ],
} satisfies DistillerSpec;
