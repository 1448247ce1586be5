import type { DistillerSpec } from '../kit/spec.js';
import { CHECK_LINE, PASSED, type Hit } from './runner.js';
import { tapRecogniser } from './tap.js';
import { leadTest } from '../base/lead.js';

/*
 * `node --test`: the spec reporter's `✔ name (1.2ms)` lines are passing tests (suite
 * headings `▶ name`, `✖` failures with their assertion and stack, and the `ℹ tests` summary
 * stay); the TAP reporter (the default when not on a TTY) is read by the TAP recogniser,
 * whatever the nesting: a passing top-level `test()` is a top-level `ok` with its YAML.
 */
const PASSED_SUITE: Hit = { noun: 'passing suites' };
const SUITE = /^(\s*)▶ (.+?)\s*$/;
const SPEC_RESULT = /^(\s*)✔ (.+?) \([\d.]+m?s\)\s*$/;

export default {
  name: 'node-test',
  family: 'test',
  matches: (argv) => {
    const p = argv[0]?.slice(argv[0].lastIndexOf('/') + 1);
    return p === 'node' && argv.includes('--test');
  },
  rewrite: true,
  detect: leadTest(/^ℹ (tests|pass|fail) \d+$|^> node (.+ )?--test\b/),
  lines: () => {
    const tap = tapRecogniser({ topLevel: true });
    /** `▶ name` suite headings seen, as indent + name: their closing `✔ name (…)` is a suite. */
    const suites = new Set<string>();
    return {
      see: (l, p) => {
        if (CHECK_LINE.test(p)) {
          const m = SPEC_RESULT.exec(p);
          return m && suites.has(m[1] + m[2]) ? PASSED_SUITE : PASSED;
        }
        const s = SUITE.exec(p);
        if (s) suites.add(s[1] + s[2]);
        return tap.see(l, p);
      },
    };
  },
  examples: [
    // corpus/cases/009-node-test-spec-fail, lines 154-170
    {
      command: 'node --test --test-reporter=spec',
      input: `  ✔ keeps total 490 without a code (0.259137ms)
  ✔ adds 50 and 5 (8.75828ms)
✔ checkout (74.705132ms)
▶ pricing
  ✔ clamps 7 into 0..100 (7.875454ms)
  ✔ slugifies title #2 (0.496452ms)
  ✔ keeps total 30 without a code (0.279965ms)
  ✔ adds 4 and 1 (0.252513ms)
  ✔ multiplies 5 by 3 (0.237526ms)
  ✔ clamps 42 into 0..100 (0.225273ms)
  ✔ slugifies title #7 (0.358732ms)
  ✖ applies SAVE10 discount to 100 (6.215049ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    
    91 !== 90
    
        at TestContext.<anonymous> (/tmp/omni-corpus.tGh7it/proj/node-fail/test/pricing.test.js:28:12)
`,
      output: `[omni: 3 passing tests folded — omni retrieve <handle>]
▶ pricing
[omni: 7 passing tests folded — omni retrieve <handle>]
  ✖ applies SAVE10 discount to 100 (6.215049ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    
    91 !== 90
    
        at TestContext.<anonymous> (/tmp/omni-corpus.tGh7it/proj/node-fail/test/pricing.test.js:28:12)
`,
    },
  ],
} satisfies DistillerSpec;
