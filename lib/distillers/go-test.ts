import type { DistillerSpec } from '../kit/spec.js';
import { isSubcommand, PASSED, type Hit } from './runner.js';

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
  detect: (p) => RUN_LINE.test(p) || /^(ok|FAIL|\?) {1,3}\t\S+\t/.test(p),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : RUN_LINE.test(p) ? LEAD : null) }),
  examples: [],
} satisfies DistillerSpec;
