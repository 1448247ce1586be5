import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('unittest -v: each `... ok` line folds, skips and the verdict stay', async (t) => {
  for (const name of ['unittest-verbose-pass', 'unittest-discover-verbose-pass']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'unittest', name);
    t.equal(folded(d.markers, 'passing tests'), count(d.input, / \.\.\. ok$/), `${name}: every ok line, counted`);
    t.same(keptAll(d, /^Ran \d+ tests? in |^OK|skipped '/), [], name);
    t.ok(d.out.length < d.input.length * 0.1, `${name}: ${d.input.length} -> ${d.out.length} B`);
  }
});

t.test('a failing unittest -v run keeps every FAIL line, report, traceback and the verdict', async (t) => {
  const d = await pipe(corpusCase('unittest-verbose-fail'));
  t.same(keptAll(d, / \.\.\. (FAIL|ERROR)$|^(FAIL|ERROR): |^Traceback|AssertionError|^FAILED \(|^Ran \d+ tests?/), []);
  t.equal(folded(d.markers, 'passing tests'), count(d.input, / \.\.\. ok$/));
});

t.test('without -v the progress line of dots and letters stays', async (t) => {
  const d = await pipe(corpusCase('unittest-fail'));
  t.same(keptAll(d, /^[.FEsxu]{10,}$|^FAILED \(/), []);
});
