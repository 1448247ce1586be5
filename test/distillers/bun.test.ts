import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds 500 passing bun tests to the file headings and the summary', async (t) => {
  const d = await pipe(corpusCase('bun-test-pass'));
  t.equal(d.distiller, 'bun-test');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\(pass\) /));
  t.same(keptAll(d, /^ *\d+ (pass|fail)|^Ran \d+ tests|^test\/.*:$/), []);
  t.ok(d.out.length < d.input.length * 0.1);
});

t.test('keeps every failing bun test with its code frame, expected and received values', async (t) => {
  const d = await pipe(corpusCase('bun-test-fail'));
  t.same(keptAll(d, /^\(fail\)|^error:|^Expected|^Received|^[-+] |^\d+ \||\^|at <anonymous>|tests failed|^ *\d+ (pass|fail)/), []);
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\(pass\) /));
});
