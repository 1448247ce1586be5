import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds 400 passing mocha tests to the suite headings and the verdict', async (t) => {
  const d = await pipe(corpusCase('mocha-pass'));
  t.equal(d.distiller, 'mocha');
  const passing = count(d.input, /^\s+✔ /);
  t.equal(passing, 400, 'the case has its 400 passing tests');
  t.equal(folded(d.markers, 'passing tests'), passing, 'every one of them folded into a marker');
  t.ok(d.out.includes('400 passing ('));
  t.same(keptAll(d, /^ {2}[a-z]+$/), [], 'suite headings kept');
  t.ok(d.out.length < d.input.length * 0.1);
});

t.test('keeps every numbered mocha failure with its assertion and stack', async (t) => {
  const d = await pipe(corpusCase('mocha-fail'));
  t.same(keptAll(d, /^\s+\d+\) |AssertionError|TypeError|^\s+at |failing|passing|^[-+]/), []);
  t.ok(d.out.includes('91 !== 90'));
});

t.test('asked for TAP, each top-level ok line is a passing test: folded, the footer kept', async (t) => {
  for (const name of ['mocha-tap-nested-pass', 'mocha-tap-pass']) {
    const c = corpusCase(name);
    const d = await pipe(c);
    t.equal(d.distiller, 'mocha', name);
    const oks = count(d.input, /^ok \d+ /);
    t.ok(oks > 50, `${name}: the case has its passing tests`);
    t.equal(folded(d.markers, 'passing TAP results'), oks - count(d.input, /^ok \d+ .*# SKIP/), `${name}: every passing one folded`);
    t.same(keptAll(d, /^# (tests|pass|fail) \d+|^1\.\.\d+$|# SKIP/), [], `${name}: footer, plan and skipped tests kept`);
  }
  const spec = await pipe(corpusCase('mocha-pass'), 'npx mocha --reporter spec');
  t.equal(folded(spec.markers, 'passing TAP results'), 0, 'the spec reporter is read as before');
});
