import t from 'tap';
import { distillCase } from '../helpers/cases.js';

for (const name of ['725-cat-source', '726-head-source', '727-sed-n']) {
  t.test(`a read (${name.slice(4)}) passes unchanged`, async (t) => {
    const { r, c } = await distillCase(name);
    t.equal(r.distiller, 'read');
    t.ok(r.output.equals(c.output));
  });
}

t.test('a read of a file with repeated lines is not folded', async (t) => {
  // The same bytes as an nginx log, read as a source file: reads are never distilled.
  const { r, c } = await distillCase('741-nginx-access-log', 'cat fixtures/access.txt');
  t.equal(r.distiller, 'read');
  t.ok(r.output.equals(c.output));
});
