import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds the passing node-tap subtests to one line per file, the coverage table and the verdict', async (t) => {
  const d = await pipe(corpusCase('tap-pass'));
  t.equal(d.distiller, 'tap');
  t.same(keptAll(d, /^ok \d+ - |^# \{ total|\|/), []);
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^\s+ok \d+ /));
  t.ok(d.out.length < d.input.length * 0.05);
});

t.test('keeps every failing tap assertion with its diff, source and stack', async (t) => {
  const d = await pipe(corpusCase('tap-fail'));
  t.same(keptAll(d, /not ok|^\s+[-+]\d+$|stack:|diff:|fileName|lineNumber|# \{ total/), []);
  t.ok(d.lines.some((l) => /# Subtest: pricing: applies SAVE10 discount to 100/.test(l)), 'the failing subtest keeps its heading');
});

t.test('a skipped or todo TAP result is not a passed test', async (t) => {
  const { tapRecogniser } = await import('../../lib/distillers/tap.js');
  const rec = tapRecogniser();
  const see = (p: string) => rec.see({ kind: 'line', text: p, eol: '\n', tier: 'text', index: 0, end: 0 }, p);
  t.equal(see('    ok 3 - uploads # SKIP no network'), null);
  t.equal(see('    ok 4 - retries # TODO'), null);
  t.not(see('    ok 5 - adds 2 and 3'), null);
  t.equal(see('ok 6 - src/ok_handler.ts'), null, 'a top-level file result stays');
  t.equal(see('src/ok 7 - handler'), null, 'an ok inside a path is not a passed test');
});
