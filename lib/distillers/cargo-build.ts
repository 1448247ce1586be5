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
  examples: [],
} satisfies DistillerSpec;
