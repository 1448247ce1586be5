import type { DistillerSpec } from '../kit/spec.js';
import type { Line } from '../kit/types.js';
import { isSubcommand, LEAD, PASSED, type Hit, type Recogniser } from './runner.js';
import { plural, textOf, warningExcerpts, type DiagnosticPart } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * cargo: `test x ... ok` lines (unit, integration and doc-tests; nextest's `PASS [0.01s] x`)
 * are passing tests, and `running N tests` is their lead-in. Runs of progress lines (`Compiling x v0.1.0`,
 * `Checking`, `Downloaded`, …) fold to their first and last line. Under a warning, rustc's and
 * clippy's source excerpt folds (below), one marker naming the lint. Warnings and errors with
 * their `-->` locations and `help:`/`note:` headlines, an error's excerpt, the `Running …`
 * heading and `test result:` line of a binary that ran tests, failure sections and `Finished`
 * stay. `cargo test` (cargo-test.ts) reads its output with the same lines: it compiles first.
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
 * Under a warning, rustc's and clippy's source excerpt folds: the gutter (`  |`), the source
 * lines and carets with their labels (`3 |     let x = 1;`, `  |         ^ help: …`), an
 * elision (`...`), a suggestion's diff (`20 -     return x;`, `20 +     x`), and the `= note:`
 * and `= help:` lines (the lint's docs link, its on-by-default note). The headline says what,
 * its ` --> src/x.rs:3:5` where; a `help:` or `note:` headline of its own stays, and its excerpt
 * folds like the warning's. The marker names the lint when the excerpt did. Under an error
 * nothing is taken (and a failing build comes back verbatim whatever is recognised).
 */
const LINT_DOCS = /^\s*= help: for further information visit (https:\/\/rust-lang\.github\.io\/rust-clippy\/\S*#([a-z0-9_]+)|https:\/\/doc\.rust-lang\.org\/\S+)$/;
const LINT_LEVEL = /^\s*= note: `#\[(warn|deny|allow|forbid)\(([\w:]+)\)\]`(?: \(part of `#\[\w+\([\w:]+\)\]`\))? on by default$/;
const WARNING_HEAD = /^warning(\[[\w-]+\])?: /;
const ERROR_HEAD = /^error(\[\w+\])?: /;
/** A line that goes on with the headline above it: its location, a `help:`/`note:` of its own. */
const SUB_HEAD = /^\s*(-->|:::) \S|^(help|note)(\[\w+\])?: /;
/** A line of rustc's excerpt: gutter, source, carets, `...`, a suggestion's diff, `= note:`/`= help:`. */
const EXCERPT_SHAPE = /^\s*\d*\s*\|( |$)|^\.\.\.$|^\s*= (note|help)(\[\w+\])?: |^\s*\d+ [-+~] /;
const EXCERPT: Hit = { noun: '' };

/** What a line is to rustc's diagnostics. */
function rustcPart(p: string): DiagnosticPart {
  if (WARNING_HEAD.test(p)) return 'warning';
  if (ERROR_HEAD.test(p)) return 'error';
  if (SUB_HEAD.test(p)) return 'sub';
  return EXCERPT_SHAPE.test(p) ? 'excerpt' : null;
}

/**
 * What one warning's folded excerpt says: the lint it named (`#[warn(clippy::len_zero)]`, from
 * its on-by-default note, else `clippy::len_zero` from its docs link: the name an `allow` wants),
 * most telling first.
 */
function excerptNotes(level: RegExpExecArray | null, docs: RegExpExecArray | null): string[] {
  if (level) return [`excerpt, #[${level[1]}(${level[2]})]`, 'excerpt folded'];
  if (docs?.[2]) return [`excerpt, clippy::${docs[2]}`, 'excerpt folded'];
  return ['excerpt folded'];
}

/**
 * A hidden run's note: a warning's excerpt (naming its lint), or the count of passing tests and
 * of test binaries that ran none.
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
    else if (!EXCERPT_SHAPE.test(p)) other++;
  }
  if (tests || binaries || other) {
    const parts: string[] = [];
    if (tests) parts.push(`${tests} passing tests`);
    if (binaries) parts.push(`${plural(binaries, 'test binary', 'test binaries')} that ran no test`);
    return parts.length ? `${parts.join(', ')} folded` : `${hidden.length} lines folded`;
  }
  return excerptNotes(level, docs);
}

/** What a run of cargo's output recognises, build or test. */
export function cargoLines(): Recogniser {
  const excerpt = warningExcerpts(rustcPart);
  return {
    see: (_l, p) => {
      if (excerpt(p)) return EXCERPT;
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
  detect: leadTest(CARGO_LINE),
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
[omni: excerpt, #[warn(unused_variables)] — omni retrieve <handle>]

warning: \`app\` (bin "app") generated 1 warning (run \`cargo fix --bin "app" -p app\` to apply 1 suggestion)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 1.84s
`,
    },
  ],
} satisfies DistillerSpec;
