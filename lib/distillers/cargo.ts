import { familySpec, isSubcommand, LEAD, PASSED, type Family, type Recogniser } from './runner.js';

/*
 * cargo: `test x ... ok` lines (unit, integration and doc-tests; nextest's `PASS [0.01s] x`)
 * are passing tests, and `running N tests` is their lead-in. Runs of progress lines (`Compiling x v0.1.0`,
 * `Checking`, `Downloaded`, …) fold to their first and last line. Warnings and errors with
 * their `-->` locations and code excerpts, `Running …` binary headings, failure sections,
 * `test result:` lines and `Finished` stay.
 */
const TEST_OK = /^test \S.* \.\.\. ok\s*$|^\s+PASS \[\s*[\d.]+s\] \S/;
const RUNNING = /^running \d+ tests?\s*$/;
const PROGRESS = /^\s+(Compiling|Checking|Downloaded|Downloading|Fresh|Documenting|Updating|Locking|Adding|Blocking) \S/;

function cargoRecogniser(): Recogniser {
  return {
    see: (_l, p) => (TEST_OK.test(p) ? PASSED : RUNNING.test(p) ? LEAD : null),
    foldKey: (_l, p) => (PROGRESS.test(p) ? 'cargo progress' : null),
    foldNoun: 'cargo progress lines',
  };
}

const DETECT = /^\s+(Compiling|Finished|Running|Checking) \S|^test result: /;

export const CARGO_TEST_FAMILY: Family = { name: 'cargo-test', detect: (p) => DETECT.test(p), recogniser: cargoRecogniser };
export const CARGO_BUILD_FAMILY: Family = { name: 'cargo-build', detect: (p) => DETECT.test(p), recogniser: cargoRecogniser };

export const CARGO_TEST = familySpec(CARGO_TEST_FAMILY, 'test', [], (argv) => isSubcommand(argv, 'cargo', ['test', 't', 'nextest']));
export const CARGO_BUILD = familySpec(CARGO_BUILD_FAMILY, 'build', [], (argv) =>
  isSubcommand(argv, 'cargo', ['build', 'b', 'check', 'c', 'clippy', 'doc', 'install']),
);

CARGO_TEST.test = 'test/distillers/cargo.test.ts';

CARGO_BUILD.test = 'test/distillers/cargo.test.ts';
