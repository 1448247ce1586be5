import { familySpec, LEAD, PASSED, type Family } from './runner.js';

/*
 * ctest: `1/9 Test #1: name ....   Passed    0.00 sec` lines are passing tests and
 * `Start 1: name` their lead-ins. Failed tests (with `--output-on-failure` output), the
 * `N% tests passed, M tests failed out of K` verdict and the list of failed tests stay.
 */
const PASS_LINE = /^\s*\d+\/\d+ Test +#\d+: \S.*\.* +Passed +[\d.]+ sec\s*$/;
const START = /^\s*Start +\d+: \S+\s*$/;

export const CTEST_FAMILY: Family = {
  name: 'ctest',
  detect: (p) => /^\s*\d+\/\d+ Test +#\d+: |^\d+% tests passed, \d+ tests? failed out of \d+/.test(p),
  recogniser: () => ({ see: (_l, p) => (PASS_LINE.test(p) ? PASSED : START.test(p) ? LEAD : null) }),
};

export const CTEST = familySpec(CTEST_FAMILY, 'test', ['ctest']);

CTEST.test = 'test/distillers/builds.test.ts';
