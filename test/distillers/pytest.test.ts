import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds 303 verbose PASSED lines to the session header and the verdict', async (t) => {
  const d = await pipe(corpusCase('pytest-verbose-pass'));
  t.equal(d.distiller, 'pytest');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, / PASSED\s+\[/));
  t.same(keptAll(d, /=+ .*passed.* =+|collected/), []);
  t.ok(d.out.length < d.input.length * 0.05);
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
