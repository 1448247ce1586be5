import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import type { Hit, Recogniser } from './hide.js';
import { subcommandRunner } from '../command/runners.js';
import { plural, textOf } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * RSpec, progress and documentation formats. In the documentation format every example is an
 * indented line under its group's heading: a passing one (and the headings of a run of them)
 * is noise; a failing one ends in `(FAILED - N)` and a pending one says `(PENDING: …)`, and
 * both stay. The body ends at `Pending:`, `Failures:` or `Finished in`; from there everything
 * stays: each failure's `Failure/Error:` with expected/got and its `# ./spec/…:N` locations,
 * the `N examples, M failures` verdict and the `rspec ./spec/x_spec.rb:12 # …` rerun list.
 * The progress format's line of dots and Fs stays (it says which failed, in order).
 */
const DOC_LINE = /^((?: {2})+)\S/;
const KEPT = /\((FAILED - \d+|PENDING(: .*)?)\)\s*$/;
const BODY_END = /^(Pending|Failures):|^Finished in |^Failed examples:/;

/** Every documentation line of the body: hidden, counted (or not) by `note`. */
const DOC: Hit = { noun: '' };

/** `bundle exec rspec`: Bundler runs the suite with the Gemfile's gems. */
const BUNDLE = subcommandRunner('bundle', 'exec');

function recogniser(): Recogniser {
  let body = true;
  let prev: { line: Line; indent: number } | null = null;
  /**
   * Documentation lines a deeper one followed: group headings, hidden with their examples but not
   * counted. A line is known to be one when the next line is seen, which is before the run it
   * may end is closed and noted.
   */
  const headings = new WeakSet<Line>();
  return {
    see(l, p) {
      if (!body) return null;
      if (BODY_END.test(p)) { body = false; return null; }
      const m = DOC_LINE.exec(p);
      const indent = m ? m[1].length : p.trim() ? 0 : -1;
      if (prev && prev.indent > 0 && indent > prev.indent) headings.add(prev.line);
      if (indent >= 0) prev = { line: l, indent };
      return m && !KEPT.test(p) ? DOC : null;
    },
    note(hidden) {
      let groups = 0;
      for (const l of hidden) if (headings.delete(l)) groups++;
      const examples = hidden.filter((l) => textOf(l).trim()).length - groups;
      return `${plural(examples, 'passing example')}${groups ? ` and ${plural(groups, 'group heading')}` : ''} folded`;
    },
  };
}

export default {
  name: 'rspec',
  family: 'test',
  producers: ['rspec'],
  runners: [BUNDLE],
  rewrite: true,
  detect: leadTest(/^\d+ examples?, \d+ failures?/),
  lines: recogniser,
  failures: [
    // The first line of each failure's block.
    /^\s*Failure\/Error:/,
    // A failing example in the documentation format.
    /\(FAILED - \d+\)\s*$/,
    // The rerun list: `rspec ./spec/importer_spec.rb:53 # Tally::Importer.rows reports …`.
    /^rspec \S+ # /,
  ],
  examples: [
    // corpus/cases/1001-rspec-doc-fail, lines 1-17
    {
      command: 'rspec --format documentation',
      input: `
Tally::Importer
  .rows
    imports a file of 1 rows
    imports a file of 2 rows
    imports a file of 3 rows
    imports a file of 4 rows
    imports a file of 5 rows
    imports a file of 6 rows
    imports a file of 7 rows
    imports a file of 8 rows
    imports a file of 9 rows
    imports a file of 10 rows
    imports a file of 11 rows
    imports a file of 12 rows
    reports the line of a row without a price (FAILED - 1)
    keeps the price in cents
`,
      output: `
Tally::Importer
[omni: 12 passing examples and 1 group heading folded — omni retrieve <handle>]
    reports the line of a row without a price (FAILED - 1)
    keeps the price in cents
`,
    },
    // corpus/cases/1080-bundle-exec-rspec-doc-fail, lines 41-58: through the runner rspec declares
    {
      command: 'bundle exec rspec --format documentation',
      input: `  with several lines
    totals 1 lines with VAT
    totals 2 lines with VAT
    totals 3 lines with VAT
    totals 4 lines with VAT
    totals 5 lines with VAT
    totals 6 lines with VAT
    totals 7 lines with VAT
    totals 8 lines with VAT
    totals 9 lines with VAT
    totals 10 lines with VAT (FAILED - 2)
    totals 11 lines with VAT (FAILED - 3)
    totals 12 lines with VAT (FAILED - 4)
    totals 13 lines with VAT (FAILED - 5)
    totals 14 lines with VAT (FAILED - 6)
    totals 15 lines with VAT (FAILED - 7)
    lists each sku once
    rejects a zero quantity
`,
      output: `[omni: 9 passing examples and 1 group heading folded — omni retrieve <handle>]
    totals 10 lines with VAT (FAILED - 2)
    totals 11 lines with VAT (FAILED - 3)
    totals 12 lines with VAT (FAILED - 4)
    totals 13 lines with VAT (FAILED - 5)
    totals 14 lines with VAT (FAILED - 6)
    totals 15 lines with VAT (FAILED - 7)
    lists each sku once
    rejects a zero quantity
`,
    },
  ],
} satisfies DistillerSpec;
