import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('keeps every failing jest test with its expected and received values', async (t) => {
  const d = await pipe(corpusCase('jest-fail-color'));
  t.equal(d.distiller, 'jest');
  for (const s of ['● users › parses age as a number', '-   "age": 36,', '+   "age": "36",', 'Expected: 90', 'Received: 91',
    "TypeError: Cannot read properties of undefined (reading 'trim')", 'at Object.toEqual (test/users.test.js:41:33)',
    '✕ parses age as a number', 'Tests:       3 failed, 297 passed, 300 total', 'Test Suites: 2 failed, 4 passed, 6 total']) {
    t.ok(d.out.includes(s), `keeps ${s}`);
  }
  t.same(keptAll(d, /FAIL|PASS|●|✕|Expected|Received|^\s+at /), [], 'no failure, suite or stack line is lost');
});

t.test('folds the passing jest tests and counts exactly the lines it recognised', async (t) => {
  const d = await pipe(corpusCase('jest-fail-color'));
  const passing = count(d.input, /^\s+✓ /);
  t.ok(passing > 250, `${passing} passing lines in the input`);
  t.equal(count(d.out, /^\s+✓ /), 0, 'no passing-test line is left');
  t.equal(folded(d.markers, 'passing tests'), passing, 'the markers count every hidden passing test');
  t.ok(d.out.length < d.input.length * 0.3, 'the output is a fraction of the input');
});

t.test('a jest run with nothing to fold comes back unchanged', async (t) => {
  const d = await pipe(corpusCase('jest-pass'));
  t.equal(d.changed, false);
  t.equal(d.markers.length, 0);
});

t.test('npm test that runs jest is read as jest output', async (t) => {
  const c = corpusCase('jest-fail-color');
  const d = await pipe(c, 'cd app && CI=1 npm test');
  t.equal(d.distiller, 'npm-test');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\s+✓ /));
  t.ok(d.out.includes('Tests:       3 failed, 297 passed, 300 total'));
});

t.test('folds 500 passing jest tests to one line per suite and the verdict', async (t) => {
  const d = await pipe(corpusCase('501-jest-verbose-pass'));
  t.equal(folded(d.markers, 'passing tests'), 500);
  t.same(keptAll(d, /^PASS |^Tests:|^Test Suites:|^Snapshots:|^Time:/), []);
  t.ok(d.out.length < d.input.length * 0.1, `${d.out.length} of ${d.input.length} bytes`);
});

t.test('a passing test whose name reads like a failure is never hidden, and the rest still folds', async (t) => {
  const d = await pipe(corpusCase('jest-verbose-error-names'));
  t.ok(d.lines.includes('    ✓ throws TypeError on a missing email (11 ms)'), 'classified failure: kept');
  t.ok(d.lines.includes('    ✓ exit code 1 is mapped to failure (1 ms)'), 'classified failure: kept');
  t.ok(d.markers.length >= 4, 'the ordinary passing tests still fold (the gate did not fall back to raw)');
  t.equal(folded(d.markers, 'passing tests') + count(d.out, /^\s+✓ /), count(d.input, /^\s+✓ /));
});

t.test('a wholly passing file is its PASS line and one marker; console output, skipped and todo tests stay', async (t) => {
  const d = await pipe(corpusCase('1088-jest-verbose-four-files-pass'));
  t.equal(d.distiller, 'jest');
  const ticks = count(d.input, /^\s+✓ /);
  t.equal(folded(d.markers, 'passing tests'), ticks, 'every passing test is counted');
  t.equal(count(d.out, /^\s+✓ /), 0);
  t.equal(d.markers.length, 4, 'one marker per file');
  // Each PASS line is followed by its one marker.
  for (const f of ['ledger', 'words', 'flat', 'pending']) {
    const i = d.lines.indexOf(`PASS test/${f}.test.js`);
    t.ok(i >= 0 && /^\[omni: \d+ passing tests folded/.test(d.lines[i + 1] ?? ''), `PASS test/${f}.test.js, then its marker`);
  }
  for (const heading of ['  ledger', '    posting', '      in euros', '      in cents', '  words', '  pending work']) {
    t.notOk(d.lines.includes(heading), `describe heading ${JSON.stringify(heading)} folds with its file`);
  }
  t.match(d.markers[0], /^17 passing tests folded with 4 describe headings$/, 'the marker says what it stands for');
  t.same(keptAll(d, /console\.log|splitting a b c|at Object\.log|○ skipped|✎ todo|^Tests:|^Test Suites:/), []);
});

t.test('a file with a failure keeps its describe headings, the path to each ✕; the passing files fold whole', async (t) => {
  const d = await pipe(corpusCase('1089-jest-verbose-four-files-fail'));
  t.same(keptAll(d, /^FAIL |✕|●|Expected|Received|^ {2}ledger$|^ {4}posting$|^ {6}in (euros|cents)$/), []);
  t.equal(folded(d.markers, 'passing tests') + count(d.out, /^\s+✓ /), count(d.input, /^\s+✓ /));
  for (const f of ['words', 'flat', 'pending']) {
    const i = d.lines.indexOf(`PASS test/${f}.test.js`);
    t.ok(i >= 0 && /^\[omni: /.test(d.lines[i + 1] ?? ''), `PASS test/${f}.test.js, then its marker`);
  }
  t.notOk(d.lines.includes('  words'), 'a passing file\'s heading folds');
});
