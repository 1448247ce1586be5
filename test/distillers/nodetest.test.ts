import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds passing node --test spec lines and keeps suites and the ℹ summary', async (t) => {
  const d = await pipe(corpusCase('node-test-spec-pass'));
  t.equal(d.distiller, 'node-test');
  t.same(keptAll(d, /^▶ |^ℹ /), []);
  t.equal(folded(d.markers, 'passing tests') + folded(d.markers, 'passing suites'), count(d.input, /✔ /));
  t.equal(folded(d.markers, 'passing suites'), count(d.input, /^▶ /), 'the closing line of each suite is counted as a suite');
});

t.test('keeps every node --test spec failure with its assertion, values and stack', async (t) => {
  const d = await pipe(corpusCase('node-test-spec-fail'));
  t.same(keptAll(d, /✖|AssertionError|TypeError|!==|actual|expected|^\s+at |ℹ/), []);
});

t.test('the TAP reporter: passing subtests and their YAML fold, failures keep their YAML', async (t) => {
  const pass = await pipe(corpusCase('node-test-default-pass'));
  t.same(keptAll(pass, /^# (tests|pass|fail|suites) /), []);
  t.equal(folded(pass.markers, 'passing TAP results'), count(pass.input, /^\s+ok \d+ /));
  t.equal(count(pass.out, /^\s+duration_ms:/), count(pass.out, /^\s+---$/), 'no stray YAML line without its block');
  t.ok(pass.out.length < pass.input.length * 0.05);
  const fail = await pipe(corpusCase('node-test-tap-fail'));
  t.same(keptAll(fail, /not ok|error:|expected:|actual:|operator:|stack:|^# (tests|pass|fail|suites) /), []);
});
