import type { DistillerSpec } from '../kit/spec.js';
import { isSubcommand } from './runner.js';
import { CARGO_LINE, cargoLines } from './cargo-build.js';

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
  detect: (p) => CARGO_LINE.test(p),
  lines: cargoLines,
  examples: [],
} satisfies DistillerSpec;
