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
  // node:test's TAP: every passing result folds, top-level (a file's describe) or nested.
  t.equal(folded(pass.markers, 'passing TAP results'), count(pass.input, /^\s*ok \d+ /));
  t.equal(count(pass.out, /^\s+duration_ms:/), count(pass.out, /^\s+---$/), 'no stray YAML line without its block');
  t.ok(pass.out.length < pass.input.length * 0.05);
  const fail = await pipe(corpusCase('node-test-tap-fail'));
  t.same(keptAll(fail, /not ok|error:|expected:|actual:|operator:|stack:|^# (tests|pass|fail|suites) /), []);
});

t.test('node:test TAP of top-level tests (no describe) is distilled: oks and YAML fold, the summary stays', async (t) => {
  const d = await pipe(corpusCase('node-test-tap-toplevel-pass'));
  t.equal(d.distiller, 'node-test');
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^ok \d+ /), 'every top-level ok is counted');
  t.same(keptAll(d, /^# (tests|pass|fail|suites|cancelled|skipped|todo|duration_ms) |^1\.\.\d+$|^TAP version/), []);
  t.equal(count(d.out, /^\s+duration_ms:/), 0, 'no stray YAML line');
  t.ok(d.out.length < d.input.length * 0.1, `${d.input.length} -> ${d.out.length} B`);
});

t.test('node:test TAP of top-level tests with failures keeps each not ok with its YAML block', async (t) => {
  const d = await pipe(corpusCase('node-test-tap-toplevel-fail'));
  t.same(keptAll(d, /^not ok |^# Subtest: parses record (37|151) |^  (error|expected|actual|operator|stack|failureType|code|name):|^# (tests|pass|fail) /), []);
  for (const n of [37, 151]) t.ok(d.out.includes(`not ok ${n} - parses record ${n} of the ledger`), `not ok ${n}`);
  t.ok(d.out.length < d.input.length * 0.25, `${d.input.length} -> ${d.out.length} B`);
});

t.test('node:test TAP with mixed nesting folds top-level and nested oks alike, keeps SKIP and TODO', async (t) => {
  const d = await pipe(corpusCase('node-test-tap-mixed'));
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^\s*ok \d+ /) - count(d.input, /^\s*ok \d+ .*# (SKIP|TODO)/));
  t.same(keptAll(d, /# (SKIP|TODO)|^# (tests|pass|fail|suites) /), []);
});
