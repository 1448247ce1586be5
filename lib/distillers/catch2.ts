import type { DistillerSpec } from '../kit/spec.js';
import type { Hit, Recogniser } from './runner.js';
import { leadTestAny } from '../base/lead.js';

/*
 * Catch2's console reporter. A passing run prints two lines (`===` and `All tests passed (37
 * assertions in 18 test cases)`), which stay. With `-s` every assertion is reported in a block:
 * a heading (a `---` rule, the test case and section names, a rule, the source location, a
 * `...` rule, a blank line) and per assertion `file:line: PASSED:` with its expression, `with
 * expansion:` and the values. A PASSED assertion and its lines are noise; the
 * heading goes with them, and when a FAILED assertion follows it the whole heading stays with
 * the failure (Hit.heading). A FAILED assertion and its lines stay, and so do the closing
 * `test cases: N | M passed | K failed` and `assertions:` counts. With `-d yes` each test case
 * and section is timed on a line of its own (`0.000 s: name`), passing or failing: noise either
 * way, the failures being reported in their own blocks. The `~~~` banner (the binary's name
 * and Catch2's version) says nothing of the run. A limit: a heading is one per section run, so
 * when a section's PASSED assertions come before its FAILED one the heading hides with them
 * (behind a marker in its place); the FAILED line still names its file and line.
 */
const RULE = /^-{79}\s*$/;
const DOTS = /^\.{79}\s*$/;
const LOCATION = /^\S.*(:\d+|\(\d+\))\s*$/;
const PASSED_LINE = /^\S.*(:\d+|\(\d+\)): PASSED:\s*$/;
const ASSERTION = /^\S.*(:\d+|\(\d+\)): [A-Za-z ]+:/;
const BANNER_LINE = /^~{79}\s*$|^\S+ is a Catch2? v\d+\.\d+\.\d+ host application\.\s*$|^Run with -\? for options\s*$/;
const TIMING_LINE = /^\d+\.\d{3} s: \S/;

const HEADING: Hit = { noun: '', heading: true };
const DETAIL: Hit = { noun: '' };
const BANNER: Hit = { noun: '' };
/** Catch2 reports assertions, not tests: a test case of one section has several. */
const PASSED: Hit = { noun: 'passing assertions', one: 'passing assertion' };
const TIMING: Hit = { noun: 'test timings', one: 'test timing' };

type State = 'out' | 'names' | 'location' | 'dots' | 'body';

function recogniser(): Recogniser {
  let state: State = 'out';
  /** Inside a PASSED assertion's lines (its expression and expansion). */
  let passing = false;
  return {
    see(_l, p) {
      if (RULE.test(p)) {
        state = state === 'names' ? 'location' : 'names';
        passing = false;
        return HEADING;
      }
      if (state === 'names') return HEADING;
      if (state === 'location') {
        state = LOCATION.test(p) ? 'dots' : 'out';
        return state === 'dots' ? HEADING : null;
      }
      if (state === 'dots') {
        state = DOTS.test(p) ? 'body' : 'out';
        return state === 'body' ? HEADING : null;
      }
      if (TIMING_LINE.test(p)) return TIMING;
      if (BANNER_LINE.test(p)) return BANNER;
      if (state !== 'body') return null;
      if (ASSERTION.test(p)) {
        passing = PASSED_LINE.test(p);
        return passing ? PASSED : null;
      }
      if (/^={79}\s*$/.test(p)) state = 'out';
      return passing && state === 'body' ? DETAIL : null;
    },
  };
}

export default {
  name: 'catch2',
  family: 'test',
  detect: leadTestAny(
    /^\S+ is a Catch2? v\d+\.\d+\.\d+ host application\.\s*$|^All tests passed \(\d+ assertions? in \d+ test cases?\)\s*$|^test cases: \d+ \| \d+ passed \| \d+ failed\s*$/,
    TIMING_LINE,
  ),
  lines: recogniser,
  examples: [
    // corpus/cases/1205-catch2-success-fail, lines 318-358
    {
      command: './build/money_test -s',
      input: `-------------------------------------------------------------------------------
split 1000 into 7 parts sums back
-------------------------------------------------------------------------------
/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:78
...............................................................................

/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:81: FAILED:
  REQUIRE( s == 1000 )
with expansion:
  1001 (0x3e9) == 1000 (0x3e8)

-------------------------------------------------------------------------------
split 1000 into 8 parts sums back
-------------------------------------------------------------------------------
/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:83
...............................................................................

/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:86: PASSED:
  REQUIRE( s == 1000 )
with expansion:
  1000 (0x3e8) == 1000 (0x3e8)

-------------------------------------------------------------------------------
tax of twenty percent
-------------------------------------------------------------------------------
/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:88
...............................................................................

/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:89: PASSED:
  REQUIRE( with_tax(1000, 200) == 1200 )
with expansion:
  1200 (0x4b0) == 1200 (0x4b0)

/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:90: PASSED:
  REQUIRE( with_tax(0, 200) == 0 )
with expansion:
  0 == 0

===============================================================================
test cases: 18 | 15 passed | 3 failed
assertions: 37 | 31 passed | 6 failed
`,
      output: `-------------------------------------------------------------------------------
split 1000 into 7 parts sums back
-------------------------------------------------------------------------------
/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:78
...............................................................................

/tmp/omni-corpus-1pgPPu/eco/runners-native/catch2/fail/money_test.cc:81: FAILED:
  REQUIRE( s == 1000 )
with expansion:
  1001 (0x3e9) == 1000 (0x3e8)

[omni: 3 passing assertions folded — omni retrieve <handle>]

===============================================================================
test cases: 18 | 15 passed | 3 failed
assertions: 37 | 31 passed | 6 failed
`,
    },
  ],
} satisfies DistillerSpec;
