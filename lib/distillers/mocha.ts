import type { DistillerSpec } from '../kit/spec.js';
import { checkmarks, TOOL_RUNNERS } from './runner.js';

/*
 * mocha (spec reporter): `  ✔ name` lines are passing tests. Suite headings, pending
 * `- name` tests, numbered failures `1) name`, the `N passing` / `N failing` verdict and
 * the failure details at the end all stay.
 */
export default {
  name: 'mocha',
  family: 'test',
  producers: ['mocha'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: (p) => /^> mocha(\s|$)|^\s+\d+ passing \(\d/.test(p),
  lines: () => checkmarks(),
  examples: [],
} satisfies DistillerSpec;
