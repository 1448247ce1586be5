import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

const RULE = /^-{79}$/;

t.test('Catch2 -s: every PASSED assertion block folds, the verdict stays', async (t) => {
  const d = await pipe(corpusCase('catch2-success-pass'));
  t.equal(d.distiller, 'catch2');
  t.equal(folded(d.markers, 'passing assertions', 'passing assertion'), count(d.input, /: PASSED:$/));
  t.same(keptAll(d, /^All tests passed/), []);
  t.ok(d.out.length < d.input.length * 0.05, `${d.input.length} -> ${d.out.length} B`);
});

t.test('Catch2 -s with failures: each FAILED block keeps its whole heading, expression and expansion', async (t) => {
  const d = await pipe(corpusCase('catch2-success-fail'));
  t.equal(d.distiller, 'catch2');
  t.same(keptAll(d, /: FAILED:$|^test cases: |^assertions: |^ {2}(10 == 11|11 == 12|12 == 13|13 == 14)$|^ {2}1001 \(0x3e9\) == /), []);
  for (const name of ['  105 milli', '  135 milli', 'split 1000 into 6 parts sums back', 'split 1000 into 7 parts sums back']) {
    const i = d.lines.indexOf(name);
    t.ok(i > 0, `${name}: kept`);
    t.match(d.lines[i + 1], RULE, `${name}: its rule kept under it`);
  }
  t.ok(d.out.length < d.input.length / 2, `${d.input.length} -> ${d.out.length} B`);
});

t.test('Catch2 -d yes: the per-section timings fold, counted as timings, not as passing tests', async (t) => {
  const d = await pipe(corpusCase('catch2-durations-pass'));
  t.equal(d.distiller, 'catch2');
  t.equal(folded(d.markers, 'test timings', 'test timing'), count(d.input, /^\d+\.\d{3} s: /));
  t.notMatch(d.out, /passing tests/);
  t.same(keptAll(d, /^All tests passed/), []);
});

t.test('Catch2 without -s: a failing run has only failures, and every line of them stays', async (t) => {
  const d = await pipe(corpusCase('catch2-fail'));
  t.same(keptAll(d, /: FAILED:$|^ {2}(REQUIRE|CHECK)\(|^with expansion:|^test cases: |milli$|sums back$/), []);
});
