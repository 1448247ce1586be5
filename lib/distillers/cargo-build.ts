import type { DistillerSpec } from '../kit/spec.js';
import type { Line } from '../kit/types.js';
import { isSubcommand, LEAD, PASSED, type Hit, type Recogniser } from './runner.js';
import { plural, textOf } from './shared.js';

/*
 * cargo: `test x ... ok` lines (unit, integration and doc-tests; nextest's `PASS [0.01s] x`)
 * are passing tests, and `running N tests` is their lead-in. Runs of progress lines (`Compiling x v0.1.0`,
 * `Checking`, `Downloaded`, …) fold to their first and last line. Under a warning, rustc's and
 * clippy's lint boilerplate (the lint's docs link, its on-by-default note) folds, one marker
 * naming the lint. Warnings and errors with their `-->` locations, code excerpts and their own
 * help and notes, the `Running …` heading and `test result:` line of a binary that ran tests,
 * failure sections and `Finished` stay. `cargo test` (cargo-test.ts) reads its output
 * with the same lines: it compiles first.
 */
const TEST_OK = /^test \S.* \.\.\. ok\s*$|^\s+PASS \[\s*[\d.]+s\] \S/;
const RUNNING = /^running \d+ tests?\s*$/;
const PROGRESS = /^\s+(Compiling|Checking|Downloaded|Downloading|Fresh|Documenting|Updating|Locking|Adding|Blocking) \S/;
/** A test binary's heading: `Running unittests src/lib.rs (target/…)`, `Doc-tests name`. */
const BINARY = /^\s+(Running|Doc-tests) \S/;
/** The verdict of a binary that ran no test: nothing passed, failed or was ignored (a filter may have left none). */
const RAN_NONE = /^test result: ok\. 0 passed; 0 failed; 0 ignored; 0 measured; \d+ filtered out(;|$)/;

/*
 * A test binary that ran no test (`Running unittests src/main.rs`, blank, `running 0 tests`,
 * blank, `test result: ok. 0 passed; …`) folds whole, heading and verdict: it says no more than
 * the marker's count of such binaries. A binary that ran tests keeps its heading and its
 * verdict, whatever became of its test lines; which is which shows only at the verdict, so the
 * engine holds the few lines of a section until then (Hit.section): its heading opens it, the
 * verdict of a binary that ran none closes it.
 */
const HEADING: Hit = { noun: '', section: 'opens' };
const NONE_RAN: Hit = { noun: '', section: 'closes' };

/*
 * rustc's and clippy's lint boilerplate under a warning: the link to the lint's page (`= help:
 * for further information visit https://rust-lang.github.io/rust-clippy/…#len_zero`), the note
 * that the lint is on by default (`= note: \`#[warn(clippy::len_zero)]\` on by default`, printed
 * for a lint's first warning), and the empty gutter line before them. The same words under
 * every warning; the warning, its location, source, carets and every other help or note stay.
 * Under an error nothing is taken.
 */
const LINT_DOCS = /^\s*= help: for further information visit (https:\/\/rust-lang\.github\.io\/rust-clippy\/\S*#([a-z0-9_]+)|https:\/\/doc\.rust-lang\.org\/\S+)$/;
const LINT_LEVEL = /^\s*= note: `#\[(warn|deny|allow|forbid)\(([\w:]+)\)\]`(?: \(part of `#\[\w+\([\w:]+\)\]`\))? on by default$/;
const GUTTER = /^\s*\|$/;
const WARNING_HEAD = /^warning(\[\w+\])?: /;
const ERROR_HEAD = /^error(\[\w+\])?: /;
const BOILERPLATE: Hit = { noun: 'lint boilerplate lines' };
const GUTTER_HIT: Hit = { noun: '' };

/**
 * A hidden run's note. The lint boilerplate of one warning names the lint and what was said of
 * it (`#[warn(clippy::len_zero)] on by default, docs link`); anything else counts its passing
 * tests and the test binaries that ran none.
 */
function cargoNote(hidden: Line[]): string | string[] {
  let level: RegExpExecArray | null = null;
  let docs: RegExpExecArray | null = null;
  let tests = 0;
  let binaries = 0;
  let other = 0;
  for (const l of hidden) {
    const p = textOf(l);
    const lv = LINT_LEVEL.exec(p);
    const dc = lv ? null : LINT_DOCS.exec(p);
    if (lv) level = lv;
    else if (dc) docs = dc;
    else if (TEST_OK.test(p)) tests++;
    else if (RAN_NONE.test(p)) binaries++;
    else if (!GUTTER.test(p)) other++;
  }
  if (tests || binaries || other || !(level || docs)) {
    const parts: string[] = [];
    if (tests) parts.push(`${tests} passing tests`);
    if (binaries) parts.push(`${plural(binaries, 'test binary', 'test binaries')} that ran no test`);
    return parts.length ? `${parts.join(', ')} folded` : `${hidden.length} lines folded`;
  }
  const lint = level?.[2] ?? (docs?.[2] ? `clippy::${docs[2]}` : null);
  const said = [level ? `#[${level[1]}(${level[2]})] on by default` : '', docs ? 'docs link' : ''].filter(Boolean).join(', ');
  const plain = [level ? 'lint level note' : '', docs ? 'docs link' : ''].filter(Boolean).join(', ');
  return lint && !level ? [`${lint}: ${said}`, plain] : [said, plain];
}

/** What a run of cargo's output recognises, build or test. */
export function cargoLines(): Recogniser {
  let inWarning = false;
  return {
    see: (_l, p) => {
      if (WARNING_HEAD.test(p)) inWarning = true;
      else if (ERROR_HEAD.test(p)) inWarning = false;
      else if (inWarning && (LINT_DOCS.test(p) || LINT_LEVEL.test(p))) return BOILERPLATE;
      else if (inWarning && GUTTER.test(p)) return GUTTER_HIT;
      return TEST_OK.test(p) ? PASSED : RUNNING.test(p) ? LEAD : BINARY.test(p) ? HEADING : RAN_NONE.test(p) ? NONE_RAN : null;
    },
    note: cargoNote,
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
[omni: #[warn(unused_variables)] on by default — omni retrieve <handle>]

warning: \`app\` (bin "app") generated 1 warning (run \`cargo fix --bin "app" -p app\` to apply 1 suggestion)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 1.84s
`,
    },
  ],
} satisfies DistillerSpec;
