import type { DistillerSpec } from '../kit/spec.js';
import { PASSED } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * Automake's parallel test driver, what `make check` prints for a project's TESTS: one line per
 * test program, `PASS: tests/round_1` (with the TAP driver `PASS: tests/x.test 3 - name`), then
 * the `Testsuite summary` box. A PASS line is a passing test; FAIL, XFAIL, XPASS, SKIP and ERROR
 * lines stay, and so does the box with its `# TOTAL:`/`# PASS:`/`# FAIL:` counts and `See
 * ./test-suite.log`. make names no tool (`make check`), so these lines name this spec.
 */
const PASS_LINE = /^PASS: \S/;

export default {
  name: 'automake',
  family: 'test',
  detect: leadTest(/^(PASS|FAIL|XFAIL|XPASS|SKIP): \S+\s*$|^# TOTAL: \d+\s*$|^Testsuite summary for \S/),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : null) }),
  failures: [
    // An unexpected pass fails the suite as a failure does; an ERROR is a test that could not run.
    /^(XPASS|ERROR): \S/,
  ],
  examples: [
    // corpus/cases/1209-automake-check-fail, lines 28-48
    {
      command: 'make check',
      input: `PASS: tests/round_1
PASS: tests/round_2
PASS: tests/round_3
FAIL: tests/round_4
FAIL: tests/round_5
PASS: tests/clamp_1
PASS: tests/clamp_2
PASS: tests/clamp_3
PASS: tests/clamp_4
PASS: tests/clamp_5
PASS: tests/split_1
PASS: tests/split_2
PASS: tests/split_3
FAIL: tests/split_4
FAIL: tests/split_5
PASS: tests/tax_1
PASS: tests/tax_2
PASS: tests/tax_3
PASS: tests/tax_4
PASS: tests/tax_5
SKIP: tests/currency
`,
      output: `PASS: tests/round_1
PASS: tests/round_2
PASS: tests/round_3
FAIL: tests/round_4
FAIL: tests/round_5
[omni: 8 passing tests folded — omni retrieve <handle>]
FAIL: tests/split_4
FAIL: tests/split_5
[omni: 5 passing tests folded — omni retrieve <handle>]
SKIP: tests/currency
`,
    },
  ],
} satisfies DistillerSpec;
