import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('cargo build keeps every warning with its location and code excerpt', async (t) => {
  const d = await pipe(corpusCase('cargo-build-warnings'));
  t.equal(d.distiller, 'cargo-build');
  t.same(keptAll(d, /\S/), [], 'three scattered Compiling lines are not worth a fold');
});


t.test('a workspace build folds its run of Compiling lines to the first and last', async (t) => {
  const d = await pipe(corpusCase('cargo-build-workspace'));
  t.equal(d.distiller, 'cargo-build');
  const compiling = count(d.input, /^\s+Compiling /);
  t.ok(compiling >= 10, `${compiling} crates compiled`);
  t.equal(count(d.out, /^\s+Compiling /) + folded(d.markers, 'cargo progress lines'), compiling);
  t.same(keptAll(d, /warning|-->|\^|Finished/), []);
});
