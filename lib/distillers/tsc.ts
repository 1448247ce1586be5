import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS, type Hit } from './runner.js';

/*
 * tsc: every diagnostic (`file(l,c): error TS…` or, with `--pretty`, `file:l:c - error TS…`
 * with its code frame and related locations) and the `Found N errors` line stay verbatim.
 * Only watch-mode progress (`12:00:01 - Starting compilation in watch mode...`,
 * `File change detected. Starting incremental compilation...`) is recognised as noise.
 */
const WATCH: Hit = { noun: 'watch progress lines' };
const WATCH_LINE = /^\[?\d{1,2}:\d\d:\d\d( [AP]M)?\]? - (Starting compilation in watch mode|File change detected\. Starting incremental compilation)\.\.\.\s*$/;

export default {
  name: 'tsc',
  family: 'build',
  producers: ['tsc', 'vue-tsc'],
  runners: TOOL_RUNNERS,
  // Not rewritten by the pre-hook: its diagnostics are all answer, there is little to fold.
  detect: (p) => /^\S+\(\d+,\d+\): error TS\d+: |^\S+:\d+:\d+ - error TS\d+: |^Found \d+ errors? in /.test(p),
  lines: () => ({ see: (_l, p) => (WATCH_LINE.test(p) ? WATCH : null) }),
  examples: [],
} satisfies DistillerSpec;
