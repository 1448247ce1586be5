import type { DistillerSpec } from '../kit/spec.js';
import { CHECK_LINE, PASSED, type Hit } from './runner.js';
import { tapRecogniser } from './tap.js';

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
  detect: (p) => /^ℹ (tests|pass|fail) \d+$|^> node (.+ )?--test\b/.test(p),
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
  examples: [],
} satisfies DistillerSpec;
