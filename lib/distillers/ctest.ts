import type { DistillerSpec } from '../kit/spec.js';
import { LEAD, PASSED, TOOL_RUNNERS } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * ctest: `1/9 Test #1: name ....   Passed    0.00 sec` lines are passing tests and
 * `Start 1: name` their lead-ins. Failed tests (with `--output-on-failure` output), the
 * `N% tests passed, M tests failed out of K` verdict and the list of failed tests stay.
 */
const PASS_LINE = /^\s*\d+\/\d+ Test +#\d+: \S.*\.* +Passed +[\d.]+ sec\s*$/;
const START = /^\s*Start +\d+: \S+\s*$/;

export default {
  name: 'ctest',
  family: 'test',
  producers: ['ctest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^\s*\d+\/\d+ Test +#\d+: |^\d+% tests passed, \d+ tests? failed out of \d+/),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : START.test(p) ? LEAD : null) }),
  examples: [
    // corpus/cases/043-ctest-fail, lines 33-44
    {
      command: 'ctest --test-dir build',
      input: `      Start 16: pow_1
16/19 Test #16: pow_1 ............................   Passed    0.00 sec
      Start 17: pow_2
17/19 Test #17: pow_2 ............................   Passed    0.01 sec
      Start 18: pow_3
18/19 Test #18: pow_3 ............................   Passed    0.00 sec
      Start 19: div_by_zero
19/19 Test #19: div_by_zero ......................***Failed    0.00 sec

95% tests passed, 1 tests failed out of 19

Total Test time (real) =   0.18 sec
`,
      output: `[omni: 3 passing tests folded — omni retrieve <handle>]
      Start 19: div_by_zero
19/19 Test #19: div_by_zero ......................***Failed    0.00 sec

95% tests passed, 1 tests failed out of 19

Total Test time (real) =   0.18 sec
`,
    },
  ],
} satisfies DistillerSpec;
