import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS, type Hit } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * tsc: every diagnostic (`file(l,c): error TS…` or, with `--pretty`, `file:l:c - error TS…`
 * with its code frame and related locations) and the `Found N errors` line stay verbatim.
 * Only watch-mode progress (`12:00:01 - Starting compilation in watch mode...`,
 * `File change detected. Starting incremental compilation...`) is recognised as noise.
 */
const WATCH: Hit = { noun: 'watch progress lines' };
const WATCH_LINE = /^\[?\d{1,2}:\d\d:\d\d( [AP]M)?\]? - (Starting compilation in watch mode|File change detected\. Starting incremental compilation)\.\.\.\s*$/;

/** The example's output, every diagnostic is the answer: it comes back as it was. */
const UNCHANGED = `src/handlers/ok_handler.ts(5,9): error TS2322: Type 'string' is not assignable to type 'number'.
src/handlers/ok_handler.ts(6,36): error TS2551: Property 'emial' does not exist on type 'User'. Did you mean 'email'?
src/handlers/ok_handler.ts(7,18): error TS2554: Expected 2 arguments, but got 1.
src/handlers/ok_handler.ts(11,23): error TS7006: Parameter 'raw' implicitly has an 'any' type.
src/index.ts(3,14): error TS2304: Cannot find name 'fetchUsr'.
src/index.ts(4,25): error TS2322: Type 'string' is not assignable to type 'number'.
src/index.ts(5,34): error TS2551: Property 'lenght' does not exist on type 'string'. Did you mean 'length'?
`;

export default {
  name: 'tsc',
  family: 'build',
  producers: ['tsc', 'vue-tsc'],
  runners: TOOL_RUNNERS,
  // Not rewritten by the pre-hook: its diagnostics are all answer, there is little to fold.
  detect: leadTest(/^\S+\(\d+,\d+\): error TS\d+: |^\S+:\d+:\d+ - error TS\d+: |^Found \d+ errors? in /),
  lines: () => ({ see: (_l, p) => (WATCH_LINE.test(p) ? WATCH : null) }),
  examples: [
    // corpus/cases/031-tsc-errors, lines 1-7
    {
      command: 'npx tsc --noEmit',
      input: UNCHANGED,
      output: UNCHANGED,
    },
  ],
} satisfies DistillerSpec;
