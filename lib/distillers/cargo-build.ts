import type { DistillerSpec } from '../kit/spec.js';
import { isSubcommand, LEAD, PASSED, type Recogniser } from './runner.js';

/*
 * cargo: `test x ... ok` lines (unit, integration and doc-tests; nextest's `PASS [0.01s] x`)
 * are passing tests, and `running N tests` is their lead-in. Runs of progress lines (`Compiling x v0.1.0`,
 * `Checking`, `Downloaded`, …) fold to their first and last line. Warnings and errors with
 * their `-->` locations and code excerpts, `Running …` binary headings, failure sections,
 * `test result:` lines and `Finished` stay. `cargo test` (cargo-test.ts) reads its output
 * with the same lines: it compiles first.
 */
const TEST_OK = /^test \S.* \.\.\. ok\s*$|^\s+PASS \[\s*[\d.]+s\] \S/;
const RUNNING = /^running \d+ tests?\s*$/;
const PROGRESS = /^\s+(Compiling|Checking|Downloaded|Downloading|Fresh|Documenting|Updating|Locking|Adding|Blocking) \S/;

/** What a run of cargo's output recognises, build or test. */
export function cargoLines(): Recogniser {
  return {
    see: (_l, p) => (TEST_OK.test(p) ? PASSED : RUNNING.test(p) ? LEAD : null),
    foldKey: (_l, p) => (PROGRESS.test(p) ? 'cargo progress' : null),
    foldNoun: 'cargo progress lines',
  };
}

/** A line of cargo's own (a step, a test result): for sniffing and `npm run build`. */
export const CARGO_LINE = /^\s+(Compiling|Finished|Running|Checking) \S|^test result: /;

export default {
  name: 'cargo-build',
  family: 'build',
  matches: (argv) => isSubcommand(argv, 'cargo', ['build', 'b', 'check', 'c', 'clippy', 'doc', 'install']),
  rewrite: true,
  detect: (p) => CARGO_LINE.test(p),
  lines: cargoLines,
  examples: [
    // corpus/cases/505-cargo-build-workspace, lines 1-25
    {
      command: 'cargo build',
      input: `   Compiling part03 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part03)
   Compiling part02 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part02)
   Compiling part04 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part04)
   Compiling part07 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part07)
   Compiling part01 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part01)
   Compiling part12 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part12)
   Compiling part13 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part13)
   Compiling part08 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part08)
   Compiling part05 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part05)
   Compiling part10 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part10)
   Compiling part06 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part06)
   Compiling part09 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part09)
   Compiling part11 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part11)
   Compiling part14 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part14)
   Compiling app v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/app)
warning: unused variable: \`unused\`
 --> crates/app/src/main.rs:3:9
  |
3 |     let unused = 3;
  |         ^^^^^^ help: if this is intentional, prefix it with an underscore: \`_unused\`
  |
  = note: \`#[warn(unused_variables)]\` (part of \`#[warn(unused)]\`) on by default

warning: \`app\` (bin "app") generated 1 warning (run \`cargo fix --bin "app" -p app\` to apply 1 suggestion)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 1.84s
`,
      output: `   Compiling part03 v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/part03)
[omni: 13 cargo progress lines folded — omni retrieve <handle>]
   Compiling app v0.1.0 (/tmp/omni-corpus5.NWFESs/rs-workspace/crates/app)
warning: unused variable: \`unused\`
 --> crates/app/src/main.rs:3:9
  |
3 |     let unused = 3;
  |         ^^^^^^ help: if this is intentional, prefix it with an underscore: \`_unused\`
  |
  = note: \`#[warn(unused_variables)]\` (part of \`#[warn(unused)]\`) on by default

warning: \`app\` (bin "app") generated 1 warning (run \`cargo fix --bin "app" -p app\` to apply 1 suggestion)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 1.84s
`,
    },
  ],
} satisfies DistillerSpec;
