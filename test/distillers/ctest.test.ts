import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('ctest: 40 passing tests fold to the verdict; a failing test keeps its output and the FAILED list', async (t) => {
  const pass = await pipe(corpusCase('ctest-pass'));
  t.equal(pass.distiller, 'ctest');
  t.equal(folded(pass.markers, 'passing tests'), count(pass.input, / Passed +[\d.]+ sec$/));
  t.same(keptAll(pass, /tests passed|Total Test time/), []);
  const fail = await pipe(corpusCase('ctest-output-on-failure'));
  t.same(keptAll(fail, /Failed|FAILED|failed|Errors while|\*\*\*/), []);
});

