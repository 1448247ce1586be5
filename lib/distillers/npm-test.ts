import type { DistillerSpec } from '../kit/spec.js';
import { PACKAGE_MANAGERS } from './runner.js';

/*
 * `npm test`, `yarn test`, `pnpm test`: the command does not say which runner runs, so the
 * output does. The first line a family recognises as its own (npm's `> jest` echo, jest's
 * `PASS `, vitest's `RUN v3`, `TAP version`, …) picks that family's lines; lines before
 * the choice pass through, and output no family recognises is only treated generically.
 * The runners are every `test` spec in the registry with a `detect` (no list of its own here).
 */
export default {
  name: 'npm-test',
  family: 'test',
  // `npm test`, `npm run test`, `yarn test`, `pnpm test`, `bun run test`, `npm t`, `npm run test:unit`.
  scripts: /^test(:[\w-]+)?$/,
  runners: PACKAGE_MANAGERS,
  rewrite: true,
  delegate: 'test',
  examples: [
    // corpus/cases/1053-yarn-classic-test-fail, lines 1-34
    {
      command: 'yarn test',
      input: `yarn run v1.22.22
$ vitest run

 RUN  v3.2.4 /tmp/eco-scratch/eco/js/app

 ❯ test/util.test.js (32 tests | 1 failed) 260ms
   ✓ chunks 1 items 67ms
   ✓ chunks 2 items 1ms
   ✓ chunks 3 items 0ms
   ✓ chunks 4 items 0ms
   ✓ chunks 5 items 0ms
   ✓ chunks 6 items 0ms
   ✓ chunks 7 items 0ms
   ✓ chunks 8 items 0ms
   ✓ chunks 9 items 0ms
   ✓ chunks 10 items 0ms
   ✓ chunks 11 items 0ms
   ✓ chunks 12 items 38ms
   ✓ chunks 13 items 1ms
   ✓ chunks 14 items 0ms
   ✓ chunks 15 items 0ms
   ✓ chunks 16 items 0ms
   ✓ chunks 17 items 0ms
   ✓ chunks 18 items 0ms
   ✓ chunks 19 items 0ms
   ✓ chunks 20 items 0ms
   ✓ chunks 21 items 0ms
   ✓ chunks 22 items 0ms
   ✓ chunks 23 items 0ms
   ✓ chunks 24 items 0ms
   ✓ chunks 25 items 0ms
   ✓ chunks 26 items 0ms
   ✓ chunks 27 items 0ms
   ✓ chunks 28 items 0ms
`,
      output: `yarn run v1.22.22
$ vitest run

 RUN  v3.2.4 /tmp/eco-scratch/eco/js/app

 ❯ test/util.test.js (32 tests | 1 failed) 260ms
[omni: 28 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
