import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { routeCommand } from '../../lib/distillers/registry.js';

t.test('a GoogleTest binary run by its path: RUN/OK pairs and suite brackets fold, the verdict stays', async (t) => {
  const c = corpusCase('gtest-pass');
  t.equal(routeCommand(c.cmd).distiller, 'generic', 'the command names no tool: the output does');
  const d = await pipe(c);
  t.equal(d.distiller, 'gtest');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\[ {7}OK \] /));
  t.same(keptAll(d, /^\[ {2}PASSED {2}\]|^\[==========\] \d+ tests? from .* ran|DISABLED/), []);
  t.notMatch(d.out, /^\[ RUN {6}\]|^\[----------\]/m, 'no lead-in or suite bracket is left on a passing run');
  t.ok(d.out.length < d.input.length * 0.1, `${d.input.length} -> ${d.out.length} B`);
});

t.test("a failing GoogleTest run keeps each failure's RUN line, message and FAILED lines", async (t) => {
  const d = await pipe(corpusCase('gtest-fail'));
  t.equal(d.distiller, 'gtest');
  t.same(keptAll(d, /: Failure$|Which is: |Expected equality|^\[ {2}FAILED {2}\]|FAILED TESTS|^\[ {2}PASSED {2}\]/), []);
  const i = d.lines.findIndex((l) => /: Failure$/.test(l));
  t.match(d.lines[i - 1], /^\[ RUN {6}\] CentsRound\.Milli105$/, 'the failing test keeps its RUN lead-in');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\[ {7}OK \] /));
});

t.test("cmocka's gtest-like runner: OK lines fold; ERROR, LINE, FAILED and SKIPPED stay", async (t) => {
  const pass = await pipe(corpusCase('cmocka-pass'));
  t.equal(pass.distiller, 'gtest');
  t.equal(folded(pass.markers, 'passing tests'), count(pass.input, /^\[ {7}OK \] /));
  t.same(keptAll(pass, /^\[ {2}(PASSED|SKIPPED) \]|^\[==========\] \d+ test\(s\) run/), []);
  const fail = await pipe(corpusCase('cmocka-fail'));
  t.same(keptAll(fail, /^\[ {2}ERROR {3}\]|^\[ {3}LINE {3}\]|^\[ {2}FAILED {2}\]|FAILED TEST/), []);
});
