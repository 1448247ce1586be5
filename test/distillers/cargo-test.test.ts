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

