import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS } from './runner.js';
import { tapRecogniser } from './tap.js';

/*
 * Perl's `prove -v` and `bats --tap`: TAP whose top-level `ok N - name` lines are the tests
 * themselves (prove prints each file's own TAP under a `t/x.t ....` heading). A passing `ok`
 * folds; `not ok` with its `#   Failed test` comments, `# skip`/`# todo` results, plans, the
 * per-file verdict (`ok`, `Failed 1/12 subtests`), `All tests successful.`, `Files=…` and
 * `Result:` stay. Without `-v` prove prints one line per file: nothing to fold.
 */
export default {
  name: 'prove',
  family: 'test',
  producers: ['prove'],
  runners: TOOL_RUNNERS,
  // bats prints TAP only when asked; its pretty format is the generic distiller's.
  matches: (argv) => argv[0]?.slice(argv[0].lastIndexOf('/') + 1) === 'bats' && argv.some((a) => a === '--tap' || a === '-t' || a === '--formatter=tap'),
  rewrite: true,
  lines: () => tapRecogniser({ topLevel: true }),
  examples: [
    // corpus/cases/1103-prove-verbose-six-files-pass, two of its files cut to a few tests
    {
      command: 'prove -lv t',
      input: `t/dates.t .... 
ok 1 - dates 1
ok 2 - dates 2
ok 3 - dates 3
ok 4 - dates 4
ok 5 - dates 5
ok 6 - dates 6
ok 7 - dates 7
ok 8 - dates 8
ok 9 - dates 9
ok 10 - dates 10
1..10
ok
t/words.t .... 
ok 1 - words 1
ok 2 - words 2
ok 3 - words 3
ok 4 - words 4
ok 5 - words 5
ok 6 - words 6
ok 7 - words 7
ok 8 - words 8
1..8
ok
All tests successful.
Files=2, Tests=18,  0 wallclock secs ( 0.02 usr  0.01 sys +  0.13 cusr  0.05 csys =  0.21 CPU)
Result: PASS
`,
      output: `t/dates.t .... 
[omni: 10 passing TAP results folded — omni retrieve <handle>]
1..10
ok
t/words.t .... 
[omni: 8 passing TAP results folded — omni retrieve <handle>]
1..8
ok
All tests successful.
Files=2, Tests=18,  0 wallclock secs ( 0.02 usr  0.01 sys +  0.13 cusr  0.05 csys =  0.21 CPU)
Result: PASS
`,
    },
  ],
} satisfies DistillerSpec;
