import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('keeps every failing vitest test with its assertion and the summary', async (t) => {
  for (const name of ['vitest-fail', 'vitest-fail-color']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'vitest');
    t.same(keptAll(d, /×|❯|→|FAIL|AssertionError|TypeError|Expected|Received|Test Files|Tests {2}/), [], `${name}: failure lines all kept`);
    t.equal(count(d.out, /^\s+✓ (?!.*\(\d+ tests?)/), 0, `${name}: no per-test pass line left`);
    t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\s+✓ /) - count(d.input, /^\s*✓ .*\(\d+ tests?\)/), `${name}: counted`);
  }
});

t.test('the per-file vitest lines and the verdict stay on a green run', async (t) => {
  const d = await pipe(corpusCase('vitest-pass'));
  t.same(keptAll(d, /✓ test\/.*\(\d+ tests\)|Test Files|Tests {2}/), []);
});

t.test('folds 500 passing vitest tests (verbose reporter) to the verdict', async (t) => {
  const d = await pipe(corpusCase('vitest-verbose-pass'));
  t.equal(d.distiller, 'vitest');
  t.equal(folded(d.markers, 'passing tests'), 500);
  t.same(keptAll(d, /Test Files|Tests {2}|Duration|RUN/), []);
  t.ok(d.out.length < d.input.length * 0.05);
});

t.test('asked for flat TAP, each top-level ok line is a passing test; nested TAP keeps its files', async (t) => {
  for (const name of ['vitest-tap-flat-nested-pass', 'vitest-tap-flat-pass']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'vitest', name);
    const oks = count(d.input, /^ok \d+ - /);
    t.ok(oks > 50, `${name}: the case has its passing tests`);
    t.equal(folded(d.markers, 'passing TAP results'), oks - count(d.input, /^ok \d+ .*# (SKIP|TODO)/), `${name}: every passing one folded`);
    t.same(keptAll(d, /^TAP version|^1\.\.\d+$|# (SKIP|TODO)/), [], `${name}: version, plan and skipped tests kept`);
  }
  const input = ['TAP version 13', '1..1', 'ok 1 - test/a.test.js # time=3ms {', '    1..2', '    ok 1 - adds # time=1ms', '    ok 2 - subtracts # time=1ms', '}', ''].join('\n');
  const d = await pipe({ ...corpusCase('vitest-tap-flat-pass'), output: Buffer.from(input), cmd: 'npx vitest run --reporter=tap' });
  t.ok(d.lines.includes('ok 1 - test/a.test.js # time=3ms {'), 'nested: the file\'s own ok line stays');
});
