import type { DistillerSpec } from '../kit/spec.js';
import { isSubcommand, PASSED, type Hit } from './runner.js';
import { leadTestAny } from '../base/lead.js';

/*
 * go test: `--- PASS: TestX (0.00s)` lines (any depth) are passing tests and `=== RUN`,
 * `=== PAUSE`, `=== CONT` are their lead-ins (kept when what follows them is kept, e.g. a
 * test's log output or a failure). `PASS`/`FAIL`, `ok pkg 0.01s`, `--- FAIL`/`--- SKIP`
 * blocks and panics stay.
 */
const LEAD: Hit = { noun: '=== RUN lines', lead: true };
const RUN_LINE = /^=== (RUN|PAUSE|CONT|NAME) +\S/;
const PASS_LINE = /^\s*--- PASS: \S+ \([\d.]+s\)\s*$/;

export default {
  name: 'go-test',
  family: 'test',
  matches: (argv) => isSubcommand(argv, 'go', ['test']),
  rewrite: true,
  detect: leadTestAny(RUN_LINE, /^(ok|FAIL|\?) {1,3}\t\S+\t/),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : RUN_LINE.test(p) ? LEAD : null) }),
  examples: [
    // corpus/cases/030-go-test-verbose-fail, lines 38-52
    {
      command: 'go test -v ./pricing/',
      input: `=== RUN   TestWithTax/price_37
=== RUN   TestWithTax/price_38
=== RUN   TestWithTax/price_39
=== RUN   TestWithTax/price_40
=== RUN   TestWithTax/rounds_half_up
=== RUN   TestWithTax/half_cent
    pricing_test.go:57: WithTax(5, 1000) = 5, want 6
--- FAIL: TestWithTax (0.00s)
    --- PASS: TestWithTax/price_01 (0.00s)
    --- PASS: TestWithTax/price_02 (0.00s)
    --- PASS: TestWithTax/price_03 (0.00s)
    --- PASS: TestWithTax/price_04 (0.00s)
    --- PASS: TestWithTax/price_05 (0.00s)
    --- PASS: TestWithTax/price_06 (0.00s)
    --- PASS: TestWithTax/price_07 (0.00s)
`,
      output: `[omni: 5 === RUN lines folded — omni retrieve <handle>]
=== RUN   TestWithTax/half_cent
    pricing_test.go:57: WithTax(5, 1000) = 5, want 6
--- FAIL: TestWithTax (0.00s)
[omni: 7 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
