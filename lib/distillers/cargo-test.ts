import type { DistillerSpec } from '../kit/spec.js';
import { isSubcommand } from './runner.js';
import { CARGO_LINE, cargoLines } from './cargo-build.js';
import { leadTest } from '../base/lead.js';

/*
 * cargo test (and nextest): passing `test x ... ok` lines fold, with their `running N tests`
 * lead-in; the compile steps before them fold like a build's (cargo-build.ts, whose lines these
 * are). Failures with their panic message, the failures list and every `test result:` stay.
 */
export default {
  name: 'cargo-test',
  family: 'test',
  matches: (argv) => isSubcommand(argv, 'cargo', ['test', 't', 'nextest']),
  rewrite: true,
  detect: leadTest(CARGO_LINE),
  lines: cargoLines,
  examples: [
    // corpus/cases/023-cargo-test-fail, lines 112-126
    {
      command: 'cargo test',
      input: `test tests::area_089 ... ok
test tests::area_090 ... ok
test tests::area_091 ... ok
test tests::area_092 ... ok
test tests::area_093 ... ok
test tests::area_094 ... ok
test tests::area_095 ... ok
test tests::area_096 ... ok
test tests::area_097 ... ok
test tests::area_098 ... ok
test tests::area_099 ... ok
test tests::area_100 ... FAILED
test tests::area_101 ... ok
test tests::area_102 ... ok
test tests::area_103 ... ok
`,
      output: `[omni: 11 passing tests folded — omni retrieve <handle>]
test tests::area_100 ... FAILED
[omni: 3 passing tests folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
