import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds 500 passing bun tests to the file headings and the summary', async (t) => {
  const d = await pipe(corpusCase('bun-test-pass'));
  t.equal(d.distiller, 'bun-test');
  const pass = /^\(pass\) /;
  t.equal(folded(d.markers, 'passing tests') + count(d.out, pass), count(d.input, pass), 'every passing test folded and counted, or kept');
  t.same(keptAll(d, /^ *\d+ (pass|fail)|^Ran \d+ tests|^test\/.*:$/), []);
  t.ok(d.out.length < d.input.length * 0.1);
});

t.test('keeps every failing bun test with its code frame, expected and received values', async (t) => {
  const d = await pipe(corpusCase('bun-test-fail'));
  t.same(keptAll(d, /^\(fail\)|^error:|^Expected|^Received|^[-+] |^\d+ \||\^|at <anonymous>|tests failed|^ *\d+ (pass|fail)/), []);
  const pass = /^\(pass\) /;
  t.equal(folded(d.markers, 'passing tests') + count(d.out, pass), count(d.input, pass), 'every passing test folded and counted, or kept');
});
