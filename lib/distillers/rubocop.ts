import type { DistillerSpec } from '../kit/spec.js';
import { subcommandRunner } from '../command/runners.js';
import { excerptsUnder } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * rubocop (progress, clang and the other formatters that quote the source): the report is
 * the answer. Every offence's headline (`lib/a.rb:12:5: C: [Correctable] Style/Foo: message`),
 * the progress row, `Offenses:` and the `N files inspected, N offenses detected` summary stay.
 * Under a convention, refactor, info or warning offence (C, R, I, W) the excerpt folds: the
 * offending source line as it is (a multi-line offence's first line with ` ...`) and the caret
 * line under it; the headline says what and where, the excerpt shows the line again. Under an
 * error or fatal offence (E, F: a syntax error) nothing is taken, nor after one; a run that
 * failed (rubocop's exit at its --fail-level) comes back verbatim whatever is recognised.
 */
const BUNDLE = subcommandRunner('bundle', 'exec');
/** An offence's headline: `path:line:col: C: …`, its severity letter captured. */
const HEADLINE = /^[^\s:][^:]*:\d+:\d+: ([CWRIEF]): \S/;
const CARETS = /^\s*\^+$/;

function offence(p: string): 'warning' | 'error' | null {
  const m = HEADLINE.exec(p);
  if (!m) return null;
  return m[1] === 'E' || m[1] === 'F' ? 'error' : 'warning';
}

export default {
  name: 'rubocop',
  family: 'lint',
  producers: ['rubocop'],
  runners: [BUNDLE],
  detect: leadTest(/^\d+ files? inspected, (no|\d+) offen[cs]es? detected/),
  lines: () => excerptsUnder(offence, CARETS),
  examples: [
    // corpus/cases/1191-rubocop-clang-format, lines 13-21: short source lines, so their excerpts are fewer bytes
    // than the markers that would stand for them, and the report comes back as it was.
    {
      command: 'rubocop --format clang --fail-level E lib',
      input: `lib/ledger/book.rb:2:3: C: Style/Documentation: Missing top-level documentation comment for class Ledger::Book.
  class Book
  ^^^^^^^^^^
lib/ledger/book.rb:8:7: W: Lint/UselessAssignment: Useless assignment to variable - unused.
      unused = entry.amount
      ^^^^^^
lib/ledger/book.rb:16:9: C: [Correctable] Style/SelfAssignment: Use self-assignment shorthand +=.
        total = total + e.amount
        ^^^^^^^^^^^^^^^^^^^^^^^^
`,
      output: `lib/ledger/book.rb:2:3: C: Style/Documentation: Missing top-level documentation comment for class Ledger::Book.
  class Book
  ^^^^^^^^^^
lib/ledger/book.rb:8:7: W: Lint/UselessAssignment: Useless assignment to variable - unused.
      unused = entry.amount
      ^^^^^^
lib/ledger/book.rb:16:9: C: [Correctable] Style/SelfAssignment: Use self-assignment shorthand +=.
        total = total + e.amount
        ^^^^^^^^^^^^^^^^^^^^^^^^
`,
    },
  ],
} satisfies DistillerSpec;
