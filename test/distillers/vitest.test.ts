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
