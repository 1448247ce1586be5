import type { DistillerSpec } from '../kit/spec.js';
import { excerptBlocks, TOOL_RUNNERS, type Hit } from './runner.js';
import type { DiagnosticPart } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * biome (lint, check, format, ci): the report is the answer. Every finding's header
 * (`src/a.js:10:18 lint/suspicious/noDoubleEquals  FIXABLE  ━━━━`), its `! message` (a
 * warning) or `× message` (an error), its `i` notes, `Checked N files in Nms.` and `Found N
 * warnings.` stay. Under a warning, each code frame folds where it stood: the numbered source
 * lines with the `>` on the offending one and the carets, and a fix's diff frame (`  2    │ -
 * import …`); the message says what, the header where. Under an error nothing is taken, nor
 * after one; a run that failed comes back verbatim whatever is recognised.
 */
/** A code frame's line: its line numbers (one column, or two in a diff) and the `│` gutter. */
const FRAME = /^ *(> +)?(\d+ +)*│/;
const WARNING = /^ {2}! \S/;
const ERROR = /^ {2}[×✖] \S/;
/** An `i` note, or the blank-but-indented line biome puts between a diagnostic's parts. */
const GOES_ON = /^ {2}i \S|^\s+$/;
const FRAME_HIT: Hit = { noun: 'code frames', one: 'code frame' };

function biomePart(p: string): DiagnosticPart {
  if (WARNING.test(p)) return 'warning';
  if (ERROR.test(p)) return 'error';
  if (GOES_ON.test(p)) return 'sub';
  return FRAME.test(p) ? 'excerpt' : null;
}


export default {
  name: 'biome',
  family: 'lint',
  producers: ['biome', '@biomejs/biome'],
  runners: TOOL_RUNNERS,
  detect: leadTest(/^Checked \d+ files? in \d+(\.\d+)?[mµn]?s\. (No fixes applied|Fixed \d+ files?)\./),
  lines: () => excerptBlocks(biomePart, FRAME_HIT),
  examples: [
    // corpus/cases/1195-biome-lint-warnings, lines 98-117
    {
      command: 'npx biome lint src',
      input: `src/cart.js:2:8 lint/correctness/noUnusedImports  FIXABLE  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  ! This import is unused.
  
    1 │ import { readFileSync } from 'node:fs';
  > 2 │ import path from 'node:path';
      │        ^^^^
    3 │ 
    4 │ var taxRate = 0.2;
  
  i Unused imports might be the result of an incomplete refactoring.
  
  i Safe fix: Remove the unused import.
  
     1  1 │   import { readFileSync } from 'node:fs';
     2    │ - import·path·from·'node:path';
     3  2 │   
     4  3 │   var taxRate = 0.2;
  

`,
      output: `src/cart.js:2:8 lint/correctness/noUnusedImports  FIXABLE  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  ! This import is unused.
  
[omni: 1 code frame folded — omni retrieve <handle>]
  
  i Unused imports might be the result of an incomplete refactoring.
  
  i Safe fix: Remove the unused import.
  
[omni: 1 code frame folded — omni retrieve <handle>]
  

`,
    },
  ],
} satisfies DistillerSpec;
