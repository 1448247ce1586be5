import type { DistillerSpec } from '../kit/spec.js';
import { checkmarks, TOOL_RUNNERS } from './runner.js';

/*
 * jest: `✓ name (3 ms)` (verbose) lines are passing tests. `PASS file` lines stay (one per
 * suite, they say what ran), so do describe headings, skipped/todo tests, every `FAIL`
 * block and the `Tests:` / `Test Suites:` summary.
 */
export default {
  name: 'jest',
  family: 'test',
  producers: ['jest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: (p) => /^\s*(PASS|FAIL) +\S|^Test Suites: |^Tests: {2,}\d|^> jest(\s|$)/.test(p),
  lines: () => checkmarks(),
  examples: [],
} satisfies DistillerSpec;
