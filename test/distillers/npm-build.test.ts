import t from 'tap';
import { corpusCase, count, folded, pipe } from './cases.js';

t.test('npm run build is read by the build family its output names', async (t) => {
  const c = corpusCase('make-recursive-warning');
  const d = await pipe(c, 'npm run build');
  t.equal(d.distiller, 'npm-build');
  t.equal(folded(d.markers, 'compile commands', 'compile command'), count(d.input, / -c \S+\.c -o /));
  const plain = await pipe(corpusCase('eslint-errors'), 'npm run build');
  t.equal(plain.markers.length, 0, 'output no build family recognises is not folded');
});

