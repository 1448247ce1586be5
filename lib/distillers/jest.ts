import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import { plural, textOf } from './shared.js';
import { CHECK_LINE, LEAD, PASSED, TOOL_RUNNERS, type Recogniser } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * jest: `✓ name (3 ms)` (verbose) lines are passing tests. `PASS file` lines stay (one per
 * suite, they say what ran), so do skipped/todo tests, every `FAIL` block and the `Tests:` /
 * `Test Suites:` summary. jest states a file's verdict on its first line, before its tree: under
 * `PASS file` every line up to the blank line that ends the tree is a describe heading or a
 * test, so there the headings fold with the tests (the file is one marker, a skipped or todo
 * test still standing where it stood); under `FAIL file` they stay, the path to each ✕.
 */
const VERDICT = /^\s*(PASS|FAIL) +\S/;
/** An indented line of the tree that is no test: a describe heading (a test's line starts with its mark). */
const HEADING = /^ {2,}[^\s✓✔√✕×○✎●]/;

function recogniser(): Recogniser {
  let passing = false;
  let last = -1;
  const headings = new WeakSet<Line>();
  return {
    see(l, p) {
      // The engine shows a recogniser no blank line: a gap in the indices was one, which ends the tree.
      if (l.index !== last + 1) passing = false;
      last = l.index;
      const v = VERDICT.exec(p);
      if (v) { passing = v[1] === 'PASS'; return null; }
      if (CHECK_LINE.test(p)) return PASSED;
      if (passing && HEADING.test(p)) { headings.add(l); return LEAD; }
      // A blank line or anything unindented (a console block, the summary) ends the file's tree.
      if (!/^ {2}/.test(p)) passing = false;
      return null;
    },
    note(hidden) {
      let tests = 0;
      let groups = 0;
      for (const l of hidden) {
        if (headings.has(l)) groups++;
        else if (CHECK_LINE.test(textOf(l))) tests++;
      }
      return `${tests} passing tests folded${groups ? ` with ${plural(groups, 'describe heading')}` : ''}`;
    },
  };
}

export default {
  name: 'jest',
  family: 'test',
  producers: ['jest'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^\s*(PASS|FAIL) +\S|^Test Suites: |^Tests: {2,}\d|^> jest(\s|$)/),
  lines: recogniser,
  examples: [
    // corpus/cases/850-jest-toplevel-each-fail, lines 1-16
    {
      command: 'npx jest --ci',
      input: `FAIL ./money.test.js
  ✓ toCents(1.07) is 107 (1 ms)
  ✓ toCents(2.14) is 214
  ✓ toCents(3.21) is 321
  ✓ toCents(4.28) is 428
  ✓ toCents(5.35) is 535 (1 ms)
  ✓ toCents(6.42) is 642 (2 ms)
  ✓ toCents(7.49) is 749
  ✓ toCents(8.56) is 856
  ✓ toCents(9.63) is 963
  ✓ toCents(10.70) is 1070 (1 ms)
  ✓ toCents(11.77) is 1177 (1 ms)
  ✓ toCents(12.84) is 1284
  ✕ toCents(13.91) is 1392 (1 ms)
  ✓ toCents(14.98) is 1498 (1 ms)
  ✓ toCents(15.05) is 1505
`,
      output: `FAIL ./money.test.js
[omni: 12 passing tests folded — omni retrieve <handle>]
  ✕ toCents(13.91) is 1392 (1 ms)
  ✓ toCents(14.98) is 1498 (1 ms)
  ✓ toCents(15.05) is 1505
`,
    },
  ],
} satisfies DistillerSpec;
