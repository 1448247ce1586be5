import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS, type Hit } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * Prettier 3 (`prettier --write`): one line per file it read, with its time, and `(unchanged)`
 * after each file it left as it was. Those fold where they stood; a file it rewrote (its line
 * without `(unchanged)`) is the answer and stays, as does every `[warn]` and `[error]` line and
 * all of `--check` (its `[warn] src/x.ts` lines are the files out of style).
 */
const UNCHANGED: Hit = { noun: 'files left unchanged', one: 'file left unchanged' };

/** `src/mod1.ts 93ms (unchanged)`: a path, its time, and Prettier's word for a file it did not rewrite. */
const UNCHANGED_LINE = /^\S(?:.*\S)? \d+(?:\.\d+)?m?s \(unchanged\)$/;

export default {
  name: 'prettier',
  family: 'lint',
  producers: ['prettier'],
  runners: TOOL_RUNNERS,
  detect: leadTest(UNCHANGED_LINE),
  lines: () => ({ see: (_l, p) => (p.endsWith(' (unchanged)') && UNCHANGED_LINE.test(p) ? UNCHANGED : null), others: 'keep' }),
  examples: [
    // corpus/cases/1262-prettier-write-pass, lines 1-17
    {
      command: 'npx prettier --write src',
      input: `src/mod1.ts 91ms (unchanged)
src/mod10.ts 6ms (unchanged)
src/mod11.ts 4ms (unchanged)
src/mod12.ts 5ms (unchanged)
src/mod13.ts 5ms (unchanged)
src/mod14.ts 3ms (unchanged)
src/mod15.ts 3ms (unchanged)
src/mod16.ts 3ms (unchanged)
src/mod17.ts 5ms (unchanged)
src/mod18.ts 5ms (unchanged)
src/mod19.ts 5ms
src/mod2.ts 4ms (unchanged)
src/mod20.ts 3ms (unchanged)
src/mod21.ts 9ms (unchanged)
src/mod22.ts 6ms (unchanged)
src/mod23.ts 4ms (unchanged)
src/mod24.ts 8ms (unchanged)
`,
      output: `[omni: 10 files left unchanged folded — omni retrieve <handle>]
src/mod19.ts 5ms
[omni: 6 files left unchanged folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
