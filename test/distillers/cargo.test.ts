import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds passing cargo tests and keeps warnings, Running headings and every test result', async (t) => {
  const d = await pipe(corpusCase('cargo-test-pass'));
  t.equal(d.distiller, 'cargo-test');
  const ok = /^test .* \.\.\. ok$/;
  t.equal(folded(d.markers, 'passing tests') + count(d.out, ok), count(d.input, ok), 'every passing test is folded and counted, or kept');
  t.ok(count(d.out, ok) <= 2, 'only the single tests of one-test binaries stay');
  t.same(keptAll(d, /^warning|-->|Running|Doc-tests|test result:|Finished/), []);
});

t.test('keeps every failing cargo test with its panic message and the failures list', async (t) => {
  for (const name of ['cargo-test-fail', 'cargo-test-fail-no-fail-fast']) {
    const d = await pipe(corpusCase(name));
    t.same(keptAll(d, /FAILED|panicked|left|right|^---- |failures:|test result|error/), [], name);
  }
});

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
