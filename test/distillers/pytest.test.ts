import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds 303 verbose PASSED lines with the session header, between the banner and the verdict', async (t) => {
  const d = await pipe(corpusCase('pytest-verbose-pass'));
  t.equal(d.distiller, 'pytest');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, / PASSED\s+\[/));
  t.same(keptAll(d, /=+ .*passed.* =+|test session starts/), []);
  t.same(d.markers, ['4 session header lines (collected 303 items), 303 passing tests folded'], 'one marker, carrying the collected count');
  t.ok(d.out.length < d.input.length * 0.05);
});

const HEADER_SHAPES = /^(platform |cachedir: |hypothesis profile |benchmark: |rootdir: |configfile: |testpaths: |plugins: |(collecting \.\.\. )?collected \d+ items$)/;

t.test('the session header of a run with plugins (hypothesis, benchmark, pyproject testpaths) folds under the banner, -v and not', async (t) => {
  for (const [name, lines] of [['pytest-plugins-header-verbose-pass', 9], ['pytest-plugins-header-pass', 7]] as const) {
    const d = await pipe(corpusCase(name));
    t.equal(count(d.input, HEADER_SHAPES), lines, `${name}: the header as pytest printed it`);
    t.equal(count(d.out, HEADER_SHAPES), 0, `${name}: no header line is left`);
    t.equal(d.lines[0], d.input.split('\n')[0], `${name}: the banner stays`);
    t.match(d.lines[1], new RegExp(`^\\[omni: ${lines} session header lines \\(collected 66 items\\) folded — `), `${name}: the marker stands where the header stood`);
    t.same(keptAll(d, /SKIPPED|XFAIL|^\S+\.py [.sx]+ |=+ 64 passed, 1 skipped, 1 xfailed/), [], `${name}: the skip, the xfail, the progress lines and the verdict stay`);
  }
});

t.test('a header line of a shape not known here ends the header: it and every line after stay', async (t) => {
  const c = corpusCase('pytest-plugins-header-pass');
  const text = c.output.toString('utf8');
  const odd = text.replace('configfile: pyproject.toml\n', 'configfile: pyproject.toml\nUsing --randomly-seed=2607\n').replace('collected 66 items', 'collected 66 items / 2 deselected / 64 selected');
  const d = await pipe({ ...c, output: Buffer.from(odd) });
  t.same(keptAll(d, /randomly-seed|^testpaths: |^plugins: |deselected/), []);
  t.match(d.markers[0], /^4 session header lines folded$/, 'platform, benchmark, rootdir and configfile fold');
  // A header shape anywhere else is no header: only lines right under the banner fold.
  const late = text.replace('tests/test_props.py', 'rootdir: /elsewhere\ntests/test_props.py');
  const l = await pipe({ ...c, output: Buffer.from(late) });
  t.ok(l.lines.includes('rootdir: /elsewhere'));
});

t.test('a header folded in a mixed run (`make test`) is counted in its marker, with the collected count as under pytest alone', async (t) => {
  const d = await pipe(corpusCase('make-test-pytest'));
  t.equal(count(d.out, HEADER_SHAPES), 0);
  t.ok(d.markers.some((m) => /^4 session header lines \(collected 60 items\), 60 passing tests folded$/.test(m)), d.markers.join(' | '));
});

t.test('keeps the FAILURES section, E lines and the short summary of a failing run', async (t) => {
  const d = await pipe(corpusCase('pytest-fail'));
  t.same(keptAll(d, /^E |FAILED|failed|^>|\.py:\d+|^_+ |^=+/), []);
  t.same(keptAll(d, /\[\s*\d+%\]$/), [], 'the per-file progress lines with their F marks stay');
});

t.test('a collection error comes back with every line of its traceback', async (t) => {
  const d = await pipe(corpusCase('pytest-collection-error'));
  t.same(keptAll(d, /\S/), [], 'nothing recognised, nothing hidden');
  t.equal(d.markers.filter((m) => /passing/.test(m)).length, 0);
});

t.test('pytest -q: lines of nothing but passing dots fold, the verdict stays', async (t) => {
  const d = await pipe(corpusCase('pytest-quiet-pass'));
  t.equal(folded(d.markers, 'all-passing progress lines') + count(d.out, /^\.+\s+\[/), count(d.input, /^\.+\s+\[/));
  t.ok(d.out.includes('600 passed in'));
  t.ok(d.out.length < d.input.length / 2);
});

t.test('pytest-xdist -v: `[gw0] [ 12%] PASSED x::y` lines and the ids the workers took fold, the verdict stays', async (t) => {
  const c = corpusCase('pytest-xdist-verbose-pass');
  const d = await pipe(c);
  t.equal(d.distiller, 'pytest');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /^\[gw\d+\] \[\s*\d+%\] PASSED /));
  t.equal(count(d.out, /^\S+::\S+\s*$/), 0, 'no bare test id is left');
  t.same(keptAll(d, /test session starts|^\[gw\d+\] (linux|Python)|^gw0 |scheduling|=+ 160 passed/), []);
  t.ok(d.out.length < d.input.length * 0.1, `${d.input.length} -> ${d.out.length}`);
  // A test that failed keeps its result line, wherever the worker printed it.
  const lines = c.output.toString('utf8').split('\n');
  const i = lines.findIndex((l) => /^\[gw1\] \[ 5\d%\] PASSED /.test(l));
  const failed = lines[i].replace('PASSED', 'FAILED');
  lines[i] = failed;
  const f = await pipe({ ...c, output: Buffer.from(lines.join('\n')) });
  t.ok(f.lines.includes(failed), failed);
  t.equal(folded(f.markers, 'passing tests'), count(d.input, /^\[gw\d+\] \[\s*\d+%\] PASSED /) - 1);
});

t.test('-rA: the short summary\'s `PASSED x::y` lines fold, its SKIPPED and XFAIL lines and the verdict stay', async (t) => {
  const d = await pipe(corpusCase('pytest-ra-summary-pass'));
  t.equal(count(d.input, /^PASSED \S+::/), 64);
  t.equal(count(d.out, /^PASSED /), 0);
  t.equal(folded(d.markers, 'passing tests'), 64);
  t.same(keptAll(d, /^(SKIPPED|XFAIL) |short test summary info|=+ 64 passed/), []);
  // A FAILED line among them stays where it stood, the PASSED lines on either side fold.
  const c = corpusCase('pytest-ra-summary-pass');
  const failing = c.output.toString('utf8').replace('PASSED tests/test_price.py::test_cents[one]', 'FAILED tests/test_price.py::test_cents[one] - assert 99 == 100');
  const f = await pipe({ ...c, output: Buffer.from(failing) });
  t.ok(f.lines.includes('FAILED tests/test_price.py::test_cents[one] - assert 99 == 100'));
  t.equal(folded(f.markers, 'passing tests'), 63);
});
