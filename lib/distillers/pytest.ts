import type { DistillerSpec } from '../kit/spec.js';
import { PASSED, TOOL_RUNNERS, type Hit } from './runner.js';

/*
 * pytest: `-v` result lines `path::test PASSED [ 12%]` are passing tests. The per-file
 * progress lines (`tests/x.py ....F. [ 50%]`) stay (one per file, they carry the F/E
 * marks), as do collection lines, every FAILURES/ERRORS section, the short test summary
 * and the `N passed in 0.5s` verdict. With `-q` the progress lines name no file: a line of
 * nothing but dots (every test on it passed) is recognised as noise; a line with an F, E, s
 * or x in it stays.
 */
const DOTS: Hit = { noun: 'all-passing progress lines' };
const DOTS_LINE = /^\.+\s*\[\s*\d+%\]\s*$/;
const PASSED_LINE = /^\S+::\S.* PASSED(\s+\[\s*\d+%\])?\s*$/;

export default {
  name: 'pytest',
  family: 'test',
  producers: ['pytest', 'py.test'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: (p) => /^=+ test session starts =+$/.test(p),
  lines: () => ({ see: (_l, p) => (PASSED_LINE.test(p) ? PASSED : DOTS_LINE.test(p) ? DOTS : null) }),
  examples: [],
} satisfies DistillerSpec;
