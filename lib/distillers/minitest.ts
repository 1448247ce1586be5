import type { DistillerSpec } from '../kit/spec.js';
import { subcommandRunner } from '../command/runners.js';
import { PASSED, type Recogniser } from './runner.js';
import { programOf } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * Minitest, run by `rake test` (Rake::TestTask), `ruby -Itest test/test_x.rb` or through `bundle
 * exec`. Verbose (`-v`, `TESTOPTS=-v`) it prints one line per test, `Class#test_name = 0.00 s = .`,
 * whose last mark is the result: `.` passed and folds; `F`, `E` and `S` stay, and so do `Run
 * options`, each numbered Failure/Error/Skipped report with its location and the `N runs, …`
 * summary. Without -v the progress line of dots and letters stays (it says which failed, in order).
 */
const PASS_LINE = /^\S+#\S+ = \d+(\.\d+)? s = \.\s*$/;

/** `bundle exec ruby -Itest test/test_x.rb`: Bundler runs it with the Gemfile's gems. */
const BUNDLE = subcommandRunner('bundle', 'exec');

/** A test file by Minitest's naming: `test/test_tax.rb`, `test/tax_test.rb`, anything under test/. */
const TEST_FILE = /(^|\/)(test_[\w-]+|[\w-]+_test)\.rb$|^(\.\/)?test\/\S+\.rb$/;

/** `ruby -Itest test/test_tax.rb`: ruby running a test file. */
function runsTestFile(argv: string[]): boolean {
  return programOf(argv) === 'ruby' && argv.slice(1).some((a) => !a.startsWith('-') && TEST_FILE.test(a));
}

/**
 * `rake test`, `rake test:units`: the TestTask's. `bundle exec rake test` is left to what its
 * output's lines name (Bundler runs whatever the task runs), and Minitest's lines name it.
 */
function rakeTest(argv: string[]): boolean {
  return programOf(argv) === 'rake' && argv.slice(1).some((a) => a === 'test' || a.startsWith('test:'));
}

function recogniser(): Recogniser {
  return { see: (_l, p) => (PASS_LINE.test(p) ? PASSED : null) };
}

export default {
  name: 'minitest',
  family: 'test',
  runners: [BUNDLE],
  matches: (argv) => rakeTest(argv) || runsTestFile(argv) || runsTestFile(BUNDLE.runs?.(argv) ?? []),
  rewrite: true,
  // A task runner's output (`rake`, `make test`) is read by the spec whose lines it shows.
  detect: leadTest(/^# Running:\s*$|^\d+ runs, \d+ assertions, \d+ failures, \d+ errors, \d+ skips\s*$/),
  lines: recogniser,
  failures: [
    // A verbose line's mark: F failed, E raised.
    /^\S+#\S+ = \d+(\.\d+)? s = [FE]\s*$/,
  ],
  examples: [
    // corpus/cases/1093-rake-minitest-verbose-fail, lines 1-16
    {
      command: 'rake test TESTOPTS=-v',
      input: `Run options: -v --seed 55374

# Running:

TestEmpty#test_empty_string = 0.00 s = .
TestEmpty#test_zero = 0.00 s = E
TestWords#test_splits_2_words = 0.00 s = .
TestWords#test_skipped_for_now = 0.00 s = S
TestWords#test_splits_4_words = 0.00 s = .
TestWords#test_splits_6_words = 0.00 s = .
TestWords#test_splits_8_words = 0.00 s = .
TestWords#test_splits_5_words = 0.00 s = .
TestWords#test_splits_3_words = 0.00 s = .
TestWords#test_splits_7_words = 0.00 s = .
TestWords#test_splits_1_words = 0.00 s = .
TestAdd#test_adds_4 = 0.00 s = .
`,
      output: `Run options: -v --seed 55374

# Running:

TestEmpty#test_empty_string = 0.00 s = .
TestEmpty#test_zero = 0.00 s = E
TestWords#test_splits_2_words = 0.00 s = .
TestWords#test_skipped_for_now = 0.00 s = S
[omni: 8 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
