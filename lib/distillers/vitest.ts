import type { DistillerSpec } from '../kit/spec.js';
import { checkmarks, TOOL_RUNNERS } from './runner.js';
import { tapRecogniser, tapReporter } from './tap.js';
import { leadTest } from '../base/lead.js';

/*
 * vitest: per-test `  ✓ suite > name 0ms` lines are passing tests. The per-file line
 * ` ✓ test/x.test.js (50 tests) 82ms` stays, as do `❯`/`×` lines, every failure block
 * and the `Test Files` / `Tests` / `Duration` summary. Asked for TAP, it prints TAP: with
 * `tap-flat` every top-level `ok` line is one passing test; with `tap` they nest under their
 * file, whose own `ok` line stays.
 */
const PER_FILE = /\(\d+ tests?(?: \|[^)]*)?\)/;

export default {
  name: 'vitest',
  family: 'test',
  producers: ['vitest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^\s*RUN {1,2}v\d+\.\d+|^\s*Test Files {2}\d|^> vitest(\s|$)/),
  lines: (route) => {
    const tap = tapReporter(route.argv, ['tap-flat'], ['tap']);
    return tap ? tapRecogniser({ topLevel: tap === 'flat' }) : checkmarks(PER_FILE);
  },
  examples: [
    // corpus/cases/502-vitest-verbose-pass, lines 497-508
    {
      command: 'vitest run --reporter=verbose',
      input: ` ✓ test/stock.test.js > stock > slugifies title #44 0ms
 ✓ test/stock.test.js > stock > adds 45 and 9 0ms
 ✓ test/stock.test.js > stock > clamps 322 into 0..100 0ms
 ✓ test/stock.test.js > stock > slugifies title #47 0ms
 ✓ test/stock.test.js > stock > adds 48 and 9 0ms
 ✓ test/stock.test.js > stock > clamps 343 into 0..100 0ms
 ✓ test/stock.test.js > stock > slugifies title #50 0ms

 Test Files  10 passed (10)
      Tests  500 passed (500)
   Start at  22:53:22
   Duration  7.38s (transform 324ms, setup 0ms, collect 623ms, tests 398ms, environment 3ms, prepare 2.20s)
`,
      output: `[omni: 7 passing tests folded — omni retrieve <handle>]

 Test Files  10 passed (10)
      Tests  500 passed (500)
   Start at  22:53:22
   Duration  7.38s (transform 324ms, setup 0ms, collect 623ms, tests 398ms, environment 3ms, prepare 2.20s)
`,
    },
  ],
} satisfies DistillerSpec;
