import type { DistillerSpec } from '../kit/spec.js';
import { LEAD, PASSED, TOOL_RUNNERS } from './runner.js';

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
  detect: (p) => /^\s*\d+\/\d+ Test +#\d+: |^\d+% tests passed, \d+ tests? failed out of \d+/.test(p),
  lines: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : START.test(p) ? LEAD : null) }),
  examples: [],
} satisfies DistillerSpec;
