import type { DistillerSpec } from '../kit/spec.js';
import { checkmarks, TOOL_RUNNERS } from './runner.js';

/*
 * vitest: per-test `  ✓ suite > name 0ms` lines are passing tests. The per-file line
 * ` ✓ test/x.test.js (50 tests) 82ms` stays, as do `❯`/`×` lines, every failure block
 * and the `Test Files` / `Tests` / `Duration` summary.
 */
const PER_FILE = /\(\d+ tests?(?: \|[^)]*)?\)/;

export default {
  name: 'vitest',
  family: 'test',
  producers: ['vitest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: (p) => /^\s*RUN {1,2}v\d+\.\d+|^\s*Test Files {2}\d|^> vitest(\s|$)/.test(p),
  lines: () => checkmarks(PER_FILE),
  examples: [],
} satisfies DistillerSpec;
