import { checkmarkFamily, familySpec } from './runner.js';

/*
 * vitest: per-test `  ✓ suite > name 0ms` lines are passing tests. The per-file line
 * ` ✓ test/x.test.js (50 tests) 82ms` stays, as do `❯`/`×` lines, every failure block
 * and the `Test Files` / `Tests` / `Duration` summary.
 */
export const VITEST_FAMILY = checkmarkFamily(
  'vitest',
  /^\s*RUN {1,2}v\d+\.\d+|^\s*Test Files {2}\d|^> vitest(\s|$)/,
  /\(\d+ tests?(?: \|[^)]*)?\)/,
);
export const VITEST = familySpec(VITEST_FAMILY, 'test', ['vitest']);
