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

t.test("a small package's passing tests fold: a lead-in is counted with the test it leads, not as a kind of its own", async (t) => {
  const d = await pipe(corpusCase('go-test-verbose-small-packages'));
  t.ok(d.out.includes('    rank_test.go:12: ties sort by key\n'), "a passing test's own log line stays");
  t.same(d.markers, ['2 passing tests folded', '6 passing tests folded']);
  t.same(keptAll(d, /^(ok|PASS|\?)\s|^PASS$/), []);
});

t.test('lead-ins left without the lines they lead are still named', async (t) => {
  const subs = Array.from({ length: 12 }, (_, i) => `=== RUN   TestWithTax/price_${String(i + 1).padStart(2, '0')}`);
  const input = ['=== RUN   TestWithTax', ...subs, '=== RUN   TestWithTax/half_cent', '    pricing_test.go:57: WithTax(5, 1000) = 5, want 6', '--- FAIL: TestWithTax (0.00s)', ''].join('\n');
  const d = await pipe({ ...corpusCase('go-test-verbose-small-packages'), output: Buffer.from(input) }, 'go test -v ./a/');
  t.same(d.markers, ['13 === RUN lines folded']);
});
