import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('webpack keeps every warning block, the asset lines and the verdict', async (t) => {
  for (const name of ['webpack-warnings', 'webpack-error']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'bundler');
    t.same(keptAll(d, /WARNING|ERROR|asset|compiled|Module|error/), [], name);
  }
});


t.test("webpack's module tree folds (groups, `+ N modules` rest lines); assets, the asset rest line and the verdict stay", async (t) => {
  const d = await pipe(corpusCase('webpack-split-build'));
  t.equal(d.distiller, 'bundler');
  t.equal(count(d.out, /modules by path|^\s+\+ \d+ modules?$|\[built\]/), 0, 'no module line left');
  t.same(keptAll(d, /^\s*asset |^assets by |^\+ \d+ assets|compiled/), []);
  t.equal(folded(d.markers, 'module lines'), count(d.input, /modules by path|^\s+\+ \d+ modules?$|\[built\]|^(orphan|runtime|cacheable) modules /));
});
