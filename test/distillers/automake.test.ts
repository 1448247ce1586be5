import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import automake from '../../lib/distillers/automake.js';

t.test("the 'automake' spec names itself by the test driver's lines, not by other runners' PASS", async (t) => {
  t.equal(automake.name, 'automake');
  for (const l of ['PASS: tests/round_1', 'FAIL: tests/round_4', 'SKIP: tests/currency', '# TOTAL: 21', 'Testsuite summary for money 1.0']) t.ok(automake.detect!(l), l);
  for (const l of ['PASS src/a.test.js', '--- PASS: TestX (0.00s)', 'FAIL: test_x (tests.test_a.A.test_x)', 'PASS', 'ERROR: No matching distribution found for requests']) t.notOk(automake.detect!(l), l);
});

t.test("make check: automake's PASS lines fold, the summary box and make's lines around it stay", async (t) => {
  const d = await pipe(corpusCase('automake-check-pass'));
  t.equal(d.distiller, 'cc', "make's own lines are cc's");
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^PASS: /));
  t.same(keptAll(d, /^SKIP: |^# [A-Z]+: +\d+$|^Testsuite summary/), []);
  t.match(d.out, /\d+ idle sub-make lines/, "a sub-make's `'x' is up to date.` lines fold (cc)");
  t.ok(d.out.length < d.input.length / 3, `${d.input.length} -> ${d.out.length} B`);
});

t.test("a failing make check keeps its FAIL lines in place, the counts and make's errors", async (t) => {
  const d = await pipe(corpusCase('automake-check-fail'));
  t.same(keptAll(d, /^FAIL: |^# FAIL: +4$|See \.\/test-suite\.log|\*\*\* \[/), []);
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^PASS: /));
  t.equal(d.lines.filter((l) => l === 'FAIL: tests/round_4').length, 1);
});
