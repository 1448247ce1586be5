import type { DistillerSpec } from '../kit/spec.js';
import { PASSED, type Hit, type Recogniser } from './runner.js';

/*
 * The test runners C projects write themselves or vendor as one header, run as the project's
 * own binary (`./build/run_tests -v`, `make test`). A passing test is one whole line, in one of
 * the shapes these runners print:
 * - Unity: `tests/test_x.c:12:test_push:PASS`;
 * - greatest -v: `PASS test_push:  (3 ticks, 0.000 sec)`;
 * - acutest: `Test test_push...                          [ OK ]`;
 * - minunit and home-made ones: `PASS: test_push`, `[PASS] test_push`, `ok 3 test_push`,
 *   `test_push ... ok`, `  ✓ test_push`, `test_push: OK`. The last two shapes say nothing of a
 *   test unless the name does, so there the name must be a test's (`test_x`, `x_test`): a
 *   script's `database: OK` or `Connecting ... ok` is a status, never hidden.
 * A line merely containing `ok` or `PASS` is not one: each shape is the whole line. Everything
 * else stays: FAIL/IGNORE/`✗`/`not ok` lines, what a test printed, Unity's `----` rule, `N Tests
 * N Failures N Ignored` and `OK`/`FAIL`, greatest's `* Suite x:` headings (each names the tally
 * under it) and per-suite and total tallies, acutest's
 * `SUCCESS:`/`FAILED:` verdict, minunit's `ALL TESTS PASSED` / `Tests run: N`.
 */
const UNITY_PASS = /^[^\s:][^:]*:\d+:\w+:PASS\s*$/;
const GREATEST_PASS = /^PASS \w+: .*\(\d+ ticks, [\d.]+ sec\)\s*$|^PASS \w+: ?\s*$/;
const ACUTEST_PASS = /^Test \w+\.\.\. +\[ OK \]\s*$/;
const PASS_COLON = /^PASS: \w+\s*$/;
const PASS_BRACKET = /^\[(PASS|OK)\] \w+\s*$/;
/** Without TAP's ` - `: a TAP producer's `ok 1 - name` is its spec's (a top-level one may be a file). */
const OK_NUMBERED = /^ok \d+ \w+\s*$/;
/** A test's name: `test_push`, `testPush`, `push_test`. */
const TEST_NAME = '(test\\w*|\\w+_test)';
const DOTS_OK = new RegExp(`^${TEST_NAME} \\.{2,} ok\\s*$`);
const COLON_OK = new RegExp(`^${TEST_NAME}: (OK|ok|PASS|PASSED|passed)\\s*$`);
const CHECK_PASS = new RegExp(`^\\s*[✓✔√] ${TEST_NAME}\\s*$`);

/**
 * Each shape behind a cheap test of the line's bytes (its first characters, or a substring it
 * cannot lack), so most lines of a run's output never reach a regular expression.
 */
const SHAPES: ReadonlyArray<readonly [(p: string) => boolean, RegExp]> = [
  [(p) => p.includes(':PASS'), UNITY_PASS],
  [(p) => p.startsWith('PASS '), GREATEST_PASS],
  [(p) => p.startsWith('Test ') && p.includes('[ OK ]'), ACUTEST_PASS],
  [(p) => p.startsWith('PASS: '), PASS_COLON],
  [(p) => p.startsWith('[PASS] ') || p.startsWith('[OK] '), PASS_BRACKET],
  [(p) => p.startsWith('ok '), OK_NUMBERED],
  [(p) => p.includes(' ok'), DOTS_OK],
  [(p) => p.includes(': '), COLON_OK],
  [(p) => p.includes('✓') || p.includes('✔') || p.includes('√'), CHECK_PASS],
];

/** Is the whole line a passing test, in one of the shapes above? */
export function isPassLine(p: string): boolean {
  for (const [may, shape] of SHAPES) if (may(p) && shape.test(p)) return true;
  return false;
}

/** Lines only these runners print: a passing run names its runner by them. */
const VERDICT = /^\d+ Tests \d+ Failures \d+ Ignored\s*$|^\d+ tests? - \d+ passed, \d+ failed, \d+ skipped\b|^(SUCCESS: All unit tests have passed\.|FAILED: \d+ of \d+ unit tests? ha(s|ve) failed\.)\s*$|^ALL TESTS PASSED\s*$/;

function recogniser(): Recogniser {
  return {
    see: (_l, p): Hit | null => (isPassLine(p) ? PASSED : null),
  };
}

export default {
  name: 'c-runner',
  family: 'test',
  // Automake's driver prints `PASS: x` too: its lines are its spec's (COLLISIONS).
  detect: (p) => (isPassLine(p) && !PASS_COLON.test(p)) || VERDICT.test(p),
  lines: recogniser,
  examples: [
    // corpus/cases/1230-c-unity-make-run-pass, lines 29-40
    {
      command: './build/run_tests -v',
      input: `tests/run_tests.c:16:test_clamp_mid:PASS
hash seed 5381, 64 buckets
tests/run_tests.c:16:test_hash_stable:PASS
tests/run_tests.c:17:test_hash_differs:PASS
tests/run_tests.c:17:test_parse_ok:PASS
tests/run_tests.c:17:test_parse_neg:PASS
tests/run_tests.c:17:test_parse_bad:PASS
tests/run_tests.c:18:test_parse_long:IGNORE: waits for the 64-bit build
tests/run_tests.c:19:test_fmt_money:PASS
tests/run_tests.c:19:test_fmt_neg:PASS
tests/run_tests.c:19:test_sb_append:PASS
tests/run_tests.c:19:test_sb_trunc:PASS
tests/run_tests.c:20:test_q_len:PASS

-----------------------
22 Tests 0 Failures 1 Ignored 
OK
`,
      output: `tests/run_tests.c:16:test_clamp_mid:PASS
hash seed 5381, 64 buckets
[omni: 5 passing tests folded — omni retrieve <handle>]
tests/run_tests.c:18:test_parse_long:IGNORE: waits for the 64-bit build
[omni: 5 passing tests folded — omni retrieve <handle>]

-----------------------
22 Tests 0 Failures 1 Ignored 
OK
`,
    },
  ],
} satisfies DistillerSpec;
