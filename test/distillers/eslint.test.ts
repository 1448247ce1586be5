import t from 'tap';
import { corpusCase, keptAll, pipe } from './cases.js';

t.test('eslint problems are the answer: every row stays', async (t) => {
  const d = await pipe(corpusCase('eslint-errors'));
  t.equal(d.distiller, 'eslint');
  t.same(keptAll(d, /\S/), []);
});

