import type { DistillerSpec } from '../kit/spec.js';
import { checkmarks, TOOL_RUNNERS } from './runner.js';
import { tapRecogniser, tapReporter } from './tap.js';
import { leadTest } from '../base/lead.js';

/*
 * mocha (spec reporter): `  ✔ name` lines are passing tests. Suite headings, pending
 * `- name` tests, numbered failures `1) name`, the `N passing` / `N failing` verdict and
 * the failure details at the end all stay. Its TAP reporter prints one top-level `ok N name`
 * line per passing test, and `# tests`/`# pass`/`# fail` at the end.
 */
export default {
  name: 'mocha',
  family: 'test',
  producers: ['mocha'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^> mocha(\s|$)|^\s+\d+ passing \(\d/),
  lines: (route) => (tapReporter(route.argv, ['tap']) ? tapRecogniser({ topLevel: true }) : checkmarks()),
  examples: [
    // corpus/cases/013-mocha-fail, lines 158-172
    {
      command: 'npx mocha',
      input: `
  pricing
    ✔ clamps 7 into 0..100
    ✔ slugifies title #2
    ✔ keeps total 30 without a code
    ✔ adds 4 and 1
    ✔ multiplies 5 by 3
    ✔ clamps 42 into 0..100
    ✔ slugifies title #7
    1) applies SAVE10 discount to 100
    ✔ keeps total 80 without a code
    ✔ adds 9 and 1
    ✔ multiplies 10 by 3
    ✔ clamps 77 into 0..100
    ✔ slugifies title #12
`,
      output: `
  pricing
[omni: 7 passing tests folded — omni retrieve <handle>]
    1) applies SAVE10 discount to 100
[omni: 5 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
