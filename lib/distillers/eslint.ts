import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * eslint (stylish): the report is the answer. Every file heading, every `line:col severity
 * message rule` row and the `✖ N problems` verdict stay; this family only owns the command
 * (blank-line squeeze and generic noise folding still apply). Nothing is recognised as noise.
 */
/** The example's output, the report is the answer: it comes back as it was. */
const UNCHANGED = `
/tmp/omni-corpus.tGh7it/proj/eslint-demo/src/lib/query.js
   2:7   error    'out' is never reassigned. Use 'const' instead  prefer-const
   4:11  warning  Expected '===' and instead saw '=='             eqeqeq
  12:33  error    'b' is defined but never used                   no-unused-vars
  13:14  error    'undefinedThing' is not defined                 no-undef

/tmp/omni-corpus.tGh7it/proj/eslint-demo/src/server.js
   4:1   error    Unexpected var, use let or const instead            no-var
   5:5   error    'started' is assigned a value but never used        no-unused-vars
   5:5   error    'started' is never reassigned. Use 'const' instead  prefer-const
   9:15  warning  Expected '===' and instead saw '=='                 eqeqeq
  10:5   warning  Unexpected console statement                        no-console
  16:3   warning  Unexpected console statement                        no-console

✖ 10 problems (6 errors, 4 warnings)
  3 errors and 0 warnings potentially fixable with the \`--fix\` option.

`;

export default {
  name: 'eslint',
  family: 'lint',
  producers: ['eslint'],
  runners: TOOL_RUNNERS,
  // Not rewritten by the pre-hook: the report is all answer.
  detect: leadTest(/^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/),
  lines: () => ({ see: () => null }),
  examples: [
    // corpus/cases/034-eslint-errors, lines 1-18
    {
      command: 'npx eslint src',
      input: UNCHANGED,
      output: UNCHANGED,
    },
  ],
} satisfies DistillerSpec;
