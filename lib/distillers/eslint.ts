import { familySpec, type Family } from './runner.js';

/*
 * eslint (stylish): the report is the answer. Every file heading, every `line:col severity
 * message rule` row and the `✖ N problems` verdict stay; this family only owns the command
 * (blank-line squeeze and generic noise folding still apply). Nothing is recognised as noise.
 */
export const ESLINT_FAMILY: Family = {
  name: 'eslint',
  detect: (p) => /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/.test(p),
  recogniser: () => ({ see: () => null }),
};

export const ESLINT = familySpec(ESLINT_FAMILY, 'lint', ['eslint'], undefined, false);

ESLINT.test = 'test/distillers/builds.test.ts';
