import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds go test -v RUN/PASS lines and keeps each package verdict', async (t) => {
  const d = await pipe(corpusCase('go-test-verbose-pass'));
  t.equal(d.distiller, 'go-test');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\s*--- PASS: /));
  t.same(keptAll(d, /^(ok|PASS|FAIL|\?)\b/), []);
  t.ok(d.out.length < d.input.length * 0.1);
});

t.test('a failing go test keeps its RUN line, its log output and the FAIL lines', async (t) => {
  const d = await pipe(corpusCase('go-test-verbose-fail'));
  t.same(keptAll(d, /--- FAIL|_test\.go:\d+|^FAIL|^ok|panic/), []);
  const i = d.lines.findIndex((l) => /_test\.go:\d+/.test(l));
  t.match(d.lines[i - 1], /^=== RUN /, 'the failing test keeps its === RUN lead-in');
});
