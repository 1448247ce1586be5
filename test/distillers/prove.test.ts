import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('prove -v: every passing `ok N - name` folds under its file heading; plans, verdicts and the summary stay', async (t) => {
  const d = await pipe(corpusCase('prove-verbose-six-files-pass'));
  t.equal(d.distiller, 'prove');
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^ok \d+ - /));
  t.same(keptAll(d, /^t\/\S+\.t \.+ ?$|^1\.\.\d+$|^ok$|^All tests successful\.$|^Files=|^Result: PASS$/), []);
  t.ok(d.out.length < d.input.length * 0.25, `${d.input.length} -> ${d.out.length}`);
});

t.test('prove -v: a failing test keeps its `not ok` line and its diagnostics', async (t) => {
  const c = corpusCase('prove-verbose-six-files-pass');
  const text = c.output.toString('utf8')
    .replace(/^ok 7 - dates 7$/m, "not ok 7 - dates 7\n#   Failed test 'dates 7'\n#   at t/dates.t line 9.\n#          got: '2026-12-01'\n#     expected: '2026-12-02'")
    .replace('All tests successful.', 'Failed 1/35 subtests');
  const d = await pipe({ ...c, output: Buffer.from(text) });
  t.same(keptAll(d, /^not ok|^#|^Failed/), []);
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^ok \d+ - /));
});

t.test('bats --tap folds its passing tests; bats without --tap is not read as TAP', async (t) => {
  const d = await pipe(corpusCase('bats-tap-pass'));
  t.equal(d.distiller, 'prove');
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^ok \d+ /));
  t.same(keptAll(d, /^1\.\.60$/), []);
  const pretty = await pipe(corpusCase('bats-pretty-pass'));
  t.not(pretty.distiller, 'prove');
});
