import { checkmarkFamily, familySpec } from './runner.js';

/*
 * jest: `✓ name (3 ms)` (verbose) lines are passing tests. `PASS file` lines stay (one per
 * suite, they say what ran), so do describe headings, skipped/todo tests, every `FAIL`
 * block and the `Tests:` / `Test Suites:` summary.
 */
export const JEST_FAMILY = checkmarkFamily('jest', /^\s*(PASS|FAIL) +\S|^Test Suites: |^Tests: {2,}\d|^> jest(\s|$)/);
export const JEST = familySpec(JEST_FAMILY, 'test', ['jest']);
