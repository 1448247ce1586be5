import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import { plural, textOf } from './shared.js';
import { LEAD, PASSED, TOOL_RUNNERS, type Hit, type Recogniser } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * pytest: `-v` result lines `path::test PASSED [ 12%]` are passing tests. The per-file
 * progress lines (`tests/x.py ....F. [ 50%]`) stay (one per file, they carry the F/E
 * marks), as do collection lines, every FAILURES/ERRORS section, the short test summary
 * and the `N passed in 0.5s` verdict. With `-q` the progress lines name no file: a line of
 * nothing but dots (every test on it passed) is recognised as noise; a line with an F, E, s
 * or x in it stays. pytest-xdist's `-v` (`-n 2`) prints each test's id alone when a worker
 * takes it and its result later, tagged with the worker: `[gw0] [ 12%] PASSED tests/x.py::test_y`
 * is a passing test, the bare id a lead-in (kept before a kept line). With `-rA` (or `-rp`) the
 * short test summary names every test by its result: `PASSED tests/x.py::test_y` is a passing
 * test again; the SKIPPED, XFAIL, FAILED and ERROR lines beside it stay.
 *
 * Under its `test session starts` banner pytest prints a session header: the interpreter and
 * pytest versions, the cache, root and config file, the test paths, the plugins and what some of
 * them set (hypothesis's profile, pytest-benchmark's defaults), then `collected N items`. It says
 * where and with what the run happened, not how it went; the banner and the verdict stay, and the
 * header's lines fold with the passing tests after them, the marker carrying the collected count.
 * Only lines of these known shapes fold, and only in an unbroken run right under the banner: the
 * first other line (xdist's worker lines, `collected 81 items / 2 deselected`, a plugin's own
 * header line not known here) ends the header, and it and every line after stay as before.
 */
const DOTS: Hit = { noun: 'all-passing progress lines' };
const DOTS_LINE = /^\.+\s*\[\s*\d+%\]\s*$/;
const PASSED_LINE = /^\S+::\S.* PASSED(\s+\[\s*\d+%\])?\s*$/;
const XDIST_PASSED = /^\[gw\d+\] \[\s*\d+%\] PASSED \S+::\S.*$/;
const XDIST_STARTED = /^\S+::\S+\s*$/;
const SUMMARY_PASSED = /^PASSED \S+::\S.*$/;
const BANNER = /^=+ test session starts =+$/;
const HEADER_LINE = /^(platform \S+ -- Python \S+, pytest-\S+, pluggy-\S+( -- \S.*)?|(cachedir|rootdir|configfile|inifile|testpaths|plugins): \S.*|hypothesis profile '[^']*'( -> \S.*)?|benchmark: \S+ \(defaults: .*\))$/;
const COLLECTED = /^(collecting \.\.\. )?collected (\d+) items?\s*$/;
/** Counted by its own noun too: a run that mixes producers (`make test`) is noted by the counts alone. */
const HEADER: Hit = { noun: 'session header lines', one: 'session header line' };

/** A passing test's line: its `-v` result, xdist's, or the short summary's. */
function isPassed(p: string): boolean {
  return PASSED_LINE.test(p) || XDIST_PASSED.test(p) || SUMMARY_PASSED.test(p);
}

/** What a hidden run was: header lines (with the collected count), passing tests, all-passing progress lines. */
function pytestNote(hidden: Line[]): string {
  let header = 0;
  let collected: string | null = null;
  let tests = 0;
  let dots = 0;
  for (const l of hidden) {
    const p = textOf(l);
    const c = COLLECTED.exec(p);
    if (c) { header++; collected = c[2]; }
    else if (isPassed(p)) tests++;
    else if (DOTS_LINE.test(p)) dots++;
    else if (HEADER_LINE.test(p)) header++;
  }
  const parts: string[] = [];
  if (header) parts.push(`${plural(header, 'session header line')}${collected === null ? '' : ` (collected ${collected} items)`}`);
  if (tests) parts.push(`${tests} passing tests`);
  if (dots) parts.push(`${dots} all-passing progress lines`);
  return parts.length ? `${parts.join(', ')} folded` : `${hidden.length} lines folded`;
}

function recogniser(): Recogniser {
  /** Whether the lines so far since the banner were all the header's. */
  let inHeader = false;
  return {
    see(_l, p) {
      if (inHeader) {
        if (HEADER_LINE.test(p)) return HEADER;
        inHeader = false;
        if (COLLECTED.test(p)) return HEADER;
      }
      if (BANNER.test(p)) { inHeader = true; return null; }
      return isPassed(p) ? PASSED : DOTS_LINE.test(p) ? DOTS : XDIST_STARTED.test(p) ? LEAD : null;
    },
    note: pytestNote,
  };
}

export default {
  name: 'pytest',
  family: 'test',
  producers: ['pytest', 'py.test'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^=+ test session starts =+$/),
  lines: recogniser,
  examples: [
    // corpus/cases/018-pytest-verbose-pass, lines 1-16
    {
      command: 'pytest -v',
      input: `================================================= test session starts ==================================================
platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack -- /usr/bin/python3
cachedir: .pytest_cache
rootdir: /tmp/omni-corpus.tGh7it/proj/py-pass
collecting ... collected 303 items

tests/test_catalog.py::test_reserve_catalog_01 PASSED                                                            [  0%]
tests/test_catalog.py::test_sku_catalog_02 PASSED                                                                [  0%]
tests/test_catalog.py::test_price_catalog_03 PASSED                                                              [  0%]
tests/test_catalog.py::test_restock_catalog_04 PASSED                                                            [  1%]
tests/test_catalog.py::test_reserve_catalog_05 PASSED                                                            [  1%]
tests/test_catalog.py::test_sku_catalog_06 PASSED                                                                [  1%]
tests/test_catalog.py::test_price_catalog_07 PASSED                                                              [  2%]
tests/test_catalog.py::test_restock_catalog_08 PASSED                                                            [  2%]
tests/test_catalog.py::test_reserve_catalog_09 PASSED                                                            [  2%]
tests/test_catalog.py::test_sku_catalog_10 PASSED                                                                [  3%]
`,
      output: `================================================= test session starts ==================================================
[omni: 4 session header lines (collected 303 items), 10 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
