import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS } from './runner.js';

/*
 * eslint (stylish): the report is the answer. Every file heading, every `line:col severity
 * message rule` row and the `✖ N problems` verdict stay; this family only owns the command
 * (blank-line squeeze and generic noise folding still apply). Nothing is recognised as noise.
 */
export default {
  name: 'eslint',
  family: 'lint',
  producers: ['eslint'],
  runners: TOOL_RUNNERS,
  // Not rewritten by the pre-hook: the report is all answer.
  detect: (p) => /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/.test(p),
  lines: () => ({ see: () => null }),
  examples: [],
} satisfies DistillerSpec;
