import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import ghc from '../../lib/distillers/ghc.js';
import { distill } from '../helpers/omni.js';

const COMPILING = /^\[ *\d+ of \d+\] Compiling /;

t.test("the 'ghc' spec names itself by GHC's per-module line, and owns ghc and cabal's building commands", async (t) => {
  t.equal(ghc.name, 'ghc');
  t.ok(ghc.detect!('[ 3 of 13] Compiling Tally.Count      ( src/Tally/Count.hs, dist/Count.o )'));
  t.ok(ghc.detect!('[1 of 1] Compiling Main             ( app/Main.hs, app/Main.o )'));
  for (const l of ['Compiling Tally.Count', '[ 3 of 13] Building x', '   Compiling tally v0.1.0 (/src/tally)']) t.notOk(ghc.detect!(l), l);
  const input = Buffer.from(corpusCase('cabal-build-pass').output);
  for (const command of ['cabal build', 'cabal build all', 'cabal v2-build exe:tally', 'cabal test', 'cabal install exe:tally', 'ghc --make -isrc app/Main.hs', 'cd hs-tally && cabal build']) {
    t.equal((await distill(input, { command, door: 'pipe' })).distiller, 'ghc', command);
  }
  for (const command of ['cabal update', 'cabal sdist', 'cabal --version', 'cabal run tally']) t.not((await distill(input, { command, door: 'pipe' })).distiller, 'ghc', command);
  // With no command, the output's lines name it.
  t.equal((await distill(input, { door: 'pipe' })).distiller, 'ghc');
});

t.test('cabal build: each module compiled and each cabal step folds; the plan, the warnings and the link stay', async (t) => {
  const d = await pipe(corpusCase('cabal-build-pass'));
  t.equal(d.distiller, 'ghc');
  t.equal(folded(d.markers, 'modules compiled', 'module compiled'), count(d.input, COMPILING));
  t.same(keptAll(d, /^In order, the following will be built|^ - hs-tally-\S+ \(|^Linking |^Warning: |^Build profile: /), []);
  t.notOk(d.lines.some((l) => COMPILING.test(l)));
  t.ok(d.out.length < d.input.length * 0.25, `${d.input.length} -> ${d.out.length} B`);
});

t.test("-Wall: every warning stays whole where GHC printed it, the modules around it fold", async (t) => {
  const d = await pipe(corpusCase('cabal-build-wall-warnings-pass'));
  t.same(keptAll(d, /: warning: \[-W|^ {4}\S|^ {6}except|^ +\||^\d+ \| /), []);
  // Each warning stands between the folds of the modules compiled before and after it.
  const warnings = d.lines.map((l, i) => (/: warning: /.test(l) ? i : -1)).filter((i) => i >= 0);
  t.equal(warnings.length, 4);
  t.match(d.lines[warnings[0] - 2], /^\[omni: .*modules? compiled folded/);
  t.equal(folded(d.markers, 'modules compiled', 'module compiled'), count(d.input, COMPILING));
});

t.test('a type error is never folded: through the hook with its exit status, the raw bytes; in a pipe, every error line', async (t) => {
  const c = corpusCase('cabal-build-type-error-fail');
  const d = await pipe(c);
  t.same(keptAll(d, /: error:|Couldn't match|^ +\||^\d+ \| |In the |Failed to build/), []);
  const r = await distill(c.output, { command: c.cmd, door: 'hook', exitCode: 1 });
  t.same(r.output, c.output);
});

t.test('a Compiling line that states a warning stays', async (t) => {
  const mods = (from: number) => Array.from({ length: 5 }, (_, i) => `[${String(from + i).padStart(2)} of 20] Compiling M${from + i} ( src/M${from + i}.hs, dist/M${from + i}.o )`);
  const input = [...mods(1), '[ 6 of 20] Compiling M6 ( src/M6.hs, dist/M6.o ) [warning: -Wdeprecations in src/M6.hs]', ...mods(7), 'Linking dist/app ...', ''].join('\n');
  const out = (await distill(Buffer.from(input), { command: 'ghc --make src/Main.hs', door: 'pipe', exitCode: 0 })).output.toString('utf8');
  t.match(out, /^\[ 6 of 20\] Compiling M6 .* \[warning: -Wdeprecations in src\/M6\.hs\]$/m);
  t.equal((out.match(/\[omni: 5 modules compiled folded/g) ?? []).length, 2);
});
