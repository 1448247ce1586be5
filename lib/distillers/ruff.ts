import type { DistillerSpec } from '../kit/spec.js';
import { excerptBlocks, TOOL_RUNNERS, type Hit } from './runner.js';
import type { DiagnosticPart } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * ruff check (its default `full` output): the report is the answer. Every finding's headline
 * (`F401 [*] \`os\` imported but unused`), its ` --> file:line:col` location, a column-0
 * `help:` line, `Found N errors.` and the fixable count stay. Under a finding, the excerpt
 * folds where it stood: the gutter, the source lines with their context and carets (a
 * multi-line span's `/`, `|`, `|_`), and the fix's diff under `help:` (`  - old`, `3 + new`).
 * A syntax error (`invalid-syntax:`, ruff's own `error:`) is an error: its excerpt stays, and
 * every excerpt after it. A run that failed comes back verbatim whatever is recognised (ruff
 * exits 1 on any finding unless `--exit-zero`).
 */
const FINDING = /^[A-Z]+\d+ (\[\*\] )?\S/;
const ERROR_HEAD = /^(invalid-syntax|SyntaxError|error)(\[[\w-]+\])?: /;
/** A line that goes on with the headline above it: its location, a `help:`/`note:` of its own. */
const SUB_HEAD = /^\s*(-->|:::) \S|^(help|note|info): /;
/** A line of the excerpt: gutter, source, carets, `...`, a fix's diff line (numbered or not). */
const EXCERPT_SHAPE = /^\s*\d*\s*\|( |$)|^\s*\.\.\.$|^\s*\d* +[-+]( |$)/;
const EXCERPT: Hit = { noun: 'excerpts', one: 'excerpt' };

function ruffPart(p: string): DiagnosticPart {
  if (FINDING.test(p)) return 'warning';
  if (ERROR_HEAD.test(p)) return 'error';
  if (SUB_HEAD.test(p)) return 'sub';
  return EXCERPT_SHAPE.test(p) ? 'excerpt' : null;
}


export default {
  name: 'ruff',
  family: 'lint',
  producers: ['ruff'],
  runners: TOOL_RUNNERS,
  // `Found N errors.` is biome's line too: only the fixable count is ruff's own.
  detect: leadTest(/^\[\*\] \d+ fixable with the `--fix` option/),
  lines: () => excerptBlocks(ruffPart, EXCERPT),
  examples: [
    // corpus/cases/1193-ruff-check-exit-zero, lines 32-85
    {
      command: 'ruff check --exit-zero',
      input: `F401 [*] \`re\` imported but unused
 --> stockpile/report.py:2:8
  |
1 | from stockpile.store import *
2 | import re
  |        ^^
help: Remove unused import: \`re\`
  |
1 | from stockpile.store import *
  - import re
2 |
  |

F841 Local variable \`unused\` is assigned to but never used
 --> stockpile/report.py:6:5
  |
5 | def render(store, width=20):
6 |     unused = width * 2
  |     ^^^^^^
7 |     lines = []
8 |     for name,qty in sorted(store.items.items()):
  |
help: Remove assignment to unused variable \`unused\`

UP031 Use format specifiers instead of percent format
  --> stockpile/report.py:9:22
   |
 7 |     lines = []
 8 |     for name,qty in sorted(store.items.items()):
 9 |         lines.append("%s %d" % (name.ljust(width), qty))
   |                      ^^^^^^^
10 |     if len(lines) == 0 : return "empty"
11 |     return "\\n".join(lines)
   |
help: Replace with format specifiers

E701 Multiple statements on one line (colon)
  --> stockpile/report.py:10:24
   |
 8 |     for name,qty in sorted(store.items.items()):
 9 |         lines.append("%s %d" % (name.ljust(width), qty))
10 |     if len(lines) == 0 : return "empty"
   |                        ^
11 |     return "\\n".join(lines)
12 | def main():
   |

F405 \`Store\` may be undefined, or defined from star imports
  --> stockpile/report.py:13:9
   |
11 |     return "\\n".join(lines)
12 | def main():
13 |     s = Store("stock.json")
   |         ^^^^^
`,
      output: `F401 [*] \`re\` imported but unused
 --> stockpile/report.py:2:8
[omni: 1 excerpt folded — omni retrieve <handle>]
help: Remove unused import: \`re\`
  |
1 | from stockpile.store import *
  - import re
2 |
  |

F841 Local variable \`unused\` is assigned to but never used
 --> stockpile/report.py:6:5
[omni: 1 excerpt folded — omni retrieve <handle>]
help: Remove assignment to unused variable \`unused\`

UP031 Use format specifiers instead of percent format
  --> stockpile/report.py:9:22
[omni: 1 excerpt folded — omni retrieve <handle>]
help: Replace with format specifiers

E701 Multiple statements on one line (colon)
  --> stockpile/report.py:10:24
[omni: 1 excerpt folded — omni retrieve <handle>]

F405 \`Store\` may be undefined, or defined from star imports
  --> stockpile/report.py:13:9
[omni: 1 excerpt folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
