import type { DistillerSpec } from '../kit/spec.js';
import { LEAD, PASSED, TOOL_RUNNERS, type Hit } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * pytest: `-v` result lines `path::test PASSED [ 12%]` are passing tests. The per-file
 * progress lines (`tests/x.py ....F. [ 50%]`) stay (one per file, they carry the F/E
 * marks), as do collection lines, every FAILURES/ERRORS section, the short test summary
 * and the `N passed in 0.5s` verdict. With `-q` the progress lines name no file: a line of
 * nothing but dots (every test on it passed) is recognised as noise; a line with an F, E, s
 * or x in it stays. pytest-xdist's `-v` (`-n 2`) prints each test's id alone when a worker
 * takes it and its result later, tagged with the worker: `[gw0] [ 12%] PASSED tests/x.py::test_y`
 * is a passing test, the bare id a lead-in (kept before a kept line).
 */
const DOTS: Hit = { noun: 'all-passing progress lines' };
const DOTS_LINE = /^\.+\s*\[\s*\d+%\]\s*$/;
const PASSED_LINE = /^\S+::\S.* PASSED(\s+\[\s*\d+%\])?\s*$/;
const XDIST_PASSED = /^\[gw\d+\] \[\s*\d+%\] PASSED \S+::\S.*$/;
const XDIST_STARTED = /^\S+::\S+\s*$/;

export default {
  name: 'pytest',
  family: 'test',
  producers: ['pytest', 'py.test'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^=+ test session starts =+$/),
  lines: () => ({
    see: (_l, p) => (PASSED_LINE.test(p) || XDIST_PASSED.test(p) ? PASSED : DOTS_LINE.test(p) ? DOTS : XDIST_STARTED.test(p) ? LEAD : null),
  }),
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
platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack -- /usr/bin/python3
cachedir: .pytest_cache
rootdir: /tmp/omni-corpus.tGh7it/proj/py-pass
collecting ... collected 303 items

[omni: 10 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
