import t from 'tap';
import { corpusCase, keptAll, pipe } from './cases.js';

t.test('tsc diagnostics come back with every location and code frame', async (t) => {
  for (const name of ['tsc-errors', 'tsc-errors-pretty']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'tsc');
    t.same(keptAll(d, /\S/), [], `${name}: every line kept`);
  }
});

