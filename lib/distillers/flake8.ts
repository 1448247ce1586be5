import type { DistillerSpec } from '../kit/spec.js';
import { excerptsUnder, TOOL_RUNNERS } from './runner.js';

/*
 * flake8 and pycodestyle with `--show-source`: the report is the answer. Every finding's
 * headline (`./pkg/a.py:12:5: E231 missing whitespace after ','`) stays; under it the source
 * line as it is and the `^` caret line fold where they stood, when the run's excerpts are worth
 * their markers. What flake8 counts as the file not being read at all (E902, E999: a syntax
 * error) is an error: its excerpt stays, and every excerpt after it. A run that failed comes
 * back verbatim whatever is recognised (flake8 exits 1 on any finding unless `--exit-zero`).
 */
const HEADLINE = /^[^\s:][^:]*:\d+:\d+: ([A-Z]+\d+) \S/;
const CARETS = /^[ \t]*\^$/;
/** A file flake8 could not read or parse. */
const UNREAD = /^E9\d\d$/;

function finding(p: string): 'warning' | 'error' | null {
  const m = HEADLINE.exec(p);
  if (!m) return null;
  return UNREAD.test(m[1]) ? 'error' : 'warning';
}

export default {
  name: 'flake8',
  family: 'lint',
  producers: ['flake8', 'pycodestyle'],
  runners: TOOL_RUNNERS,
  lines: () => excerptsUnder(finding, CARETS),
  examples: [
    // corpus/cases/1194-flake8-show-source-exit-zero, lines 1-9: short source lines, so their excerpts are fewer bytes
    // than the markers that would stand for them, and the report comes back as it was.
    {
      command: 'flake8 --show-source --exit-zero',
      input: `./stockpile/report.py:1:1: F403 'from stockpile.store import *' used; unable to detect undefined names
from stockpile.store import *
^
./stockpile/report.py:2:1: F401 're' imported but unused
import re
^
./stockpile/report.py:6:5: F841 local variable 'unused' is assigned to but never used
    unused = width * 2
    ^
`,
      output: `./stockpile/report.py:1:1: F403 'from stockpile.store import *' used; unable to detect undefined names
from stockpile.store import *
^
./stockpile/report.py:2:1: F401 're' imported but unused
import re
^
./stockpile/report.py:6:5: F841 local variable 'unused' is assigned to but never used
    unused = width * 2
    ^
`,
    },
  ],
} satisfies DistillerSpec;
