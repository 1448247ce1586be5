import type { DistillerSpec } from '../kit/spec.js';
import type { Hit } from './hide.js';
import { STATES_WARNING_OR_ERROR, programOf, subcommand } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * GHC's builds, under cabal (`cabal build`, `cabal test`, `cabal install`, `cabal bench`) or alone (`ghc --make`): one
 * `[ 3 of 13] Compiling Tally.Count ( src/Tally/Count.hs, <object paths> )` line per module, and
 * cabal's `Configuring`/`Preprocessing`/`Building library for x-0.1.0.0..` steps per component,
 * are progress. A step's lines stay when what follows them stays (GHC's warnings under `Building
 * library for …`), so a warning keeps the component it was found in. What stays: every warning
 * and error with its excerpt, cabal's own warnings, the build plan (`In order, the following will
 * be built`, one line per component), what was linked, and a test suite's verdict and summary.
 */
const COMPILED: Hit = { noun: 'modules compiled', one: 'module compiled' };
const STEP: Hit = { noun: 'cabal step lines', one: 'cabal step line', heading: true };
const QUIET: Hit = { noun: '' };

/** GHC's per-module line, with what it adds after the paths (`[Source file changed]`, `[TH]`). */
const COMPILING = /^\[ *\d+ of \d+\] Compiling [\w.']+ +\( [^,()]+, [^()]+ \)(?: \[[^\]]*\])*$/;
const COMPONENT = /(?:library|executable '[\w.-]+'|test suite '[\w.-]+'|benchmark '[\w.-]+'|foreign library '[\w.-]+')/.source;
const CABAL_STEP = new RegExp(`^(?:Configuring|Preprocessing|Building) ${COMPONENT}(?: instance)? for [\\w.-]+\\.\\.$`);
const RESOLVING = /^Resolving dependencies\.\.\.$/;
/** cabal's building commands; `cabal run`'s output is the program's (as `cargo run`'s is not cargo-build's). */
const CABAL_SUBS = new Set(['build', 'v2-build', 'new-build', 'test', 'v2-test', 'new-test', 'install', 'v2-install', 'bench', 'v2-bench']);

function see(plain: string): Hit | null {
  const c = plain.charCodeAt(0);
  if (c === 0x5b /* [ */) return COMPILING.test(plain) && !STATES_WARNING_OR_ERROR.test(plain) ? COMPILED : null;
  if (c === 0x43 /* C */ || c === 0x50 /* P */ || c === 0x42 /* B */) return CABAL_STEP.test(plain) ? STEP : null;
  if (c === 0x52 /* R */) return RESOLVING.test(plain) ? QUIET : null;
  return null;
}

export default {
  name: 'ghc',
  family: 'build',
  producers: ['ghc'],
  matches: (argv) => programOf(argv) === 'cabal' && CABAL_SUBS.has(subcommand(argv)),
  rewrite: true,
  detect: leadTest(/^\[ *\d+ of \d+\] Compiling [\w.']+ +\( /),
  lines: () => ({ see: (_l, p) => see(p), others: 'keep' }),
  examples: [
    // corpus/cases/1274-cabal-build-pass, lines 3-12 and 24 (the object paths shortened)
    {
      command: 'cabal build',
      input: `Resolving dependencies...
Build profile: -w ghc-9.0.2 -O1
In order, the following will be built (use -v for more details):
 - hs-tally-0.1.0.0 (lib) (first run)
Configuring library for hs-tally-0.1.0.0..
Preprocessing library for hs-tally-0.1.0.0..
Building library for hs-tally-0.1.0.0..
[ 1 of 4] Compiling Tally            ( src/Tally.hs, dist-newstyle/build/Tally.o, dist-newstyle/build/Tally.dyn_o )
[ 2 of 4] Compiling Tally.Types      ( src/Tally/Types.hs, dist-newstyle/build/Tally/Types.o, dist-newstyle/build/Tally/Types.dyn_o )
[ 3 of 4] Compiling Tally.Words      ( src/Tally/Words.hs, dist-newstyle/build/Tally/Words.o, dist-newstyle/build/Tally/Words.dyn_o )
[ 4 of 4] Compiling Tally.Count      ( src/Tally/Count.hs, dist-newstyle/build/Tally/Count.o, dist-newstyle/build/Tally/Count.dyn_o )
Linking dist-newstyle/build/tally ...
`,
      output: `Resolving dependencies...
Build profile: -w ghc-9.0.2 -O1
In order, the following will be built (use -v for more details):
 - hs-tally-0.1.0.0 (lib) (first run)
[omni: 3 cabal step lines, 4 modules compiled folded — omni retrieve <handle>]
Linking dist-newstyle/build/tally ...
`,
    },
  ],
} satisfies DistillerSpec;
