import type { DistillerSpec } from '../kit/spec.js';
import { PASSED, TOOL_RUNNERS } from './runner.js';
import { leadTestAny } from '../base/lead.js';

/*
 * Python's unittest, verbose (`python -m unittest -v`, `… discover -v`): one line per test,
 * `test_x (pkg.module.Class.test_x) ... ok` (Python before 3.11: `test_x (pkg.module.Class)`),
 * whose verdict ends the line. `ok` is a passing test; `FAIL`, `ERROR`, `skipped '…'`,
 * `expected failure` and `unexpected success` stay, and so do the FAIL:/ERROR: reports with their
 * tracebacks, `Ran N tests in 0.01s` and the `OK`/`FAILED (failures=2)` verdict. A test with a
 * docstring prints its id and its first docstring line on two lines: that pair stays. Without
 * -v the progress line of dots and letters stays (it says which failed, in order).
 */
const PASS_LINE = /^\w+ \([\w.]+\) \.\.\. ok\s*$/;

export default {
  name: 'unittest',
  family: 'test',
  producers: ['unittest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTestAny(/^Ran \d+ tests? in [\d.]+s\s*$/, PASS_LINE),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : null) }),
  examples: [
    // corpus/cases/1022-unittest-verbose-fail, lines 56-60
    {
      command: 'python3 -m unittest -v',
      input: `test_take_one_of_sku_6 (tests.test_stock.TakeTest.test_take_one_of_sku_6) ... ok
test_take_one_of_sku_7 (tests.test_stock.TakeTest.test_take_one_of_sku_7) ... ok
test_take_one_of_sku_8 (tests.test_stock.TakeTest.test_take_one_of_sku_8) ... ok
test_take_one_of_sku_9 (tests.test_stock.TakeTest.test_take_one_of_sku_9) ... ok
test_unknown_sku (tests.test_stock.TakeTest.test_unknown_sku) ... FAIL
`,
      output: `[omni: 4 passing tests folded — omni retrieve <handle>]
test_unknown_sku (tests.test_stock.TakeTest.test_unknown_sku) ... FAIL
`,
    },
  ],
} satisfies DistillerSpec;
