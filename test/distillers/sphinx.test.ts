import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import sphinx from '../../lib/distillers/sphinx.js';
import { distill } from '../helpers/omni.js';

const PROGRESS = /^[a-z][a-z ]+\.\.\. \[ {0,2}\d{1,3}%\] \S/;

t.test("the 'sphinx' spec names itself by Sphinx's banner, and owns sphinx-build", async (t) => {
  t.equal(sphinx.name, 'sphinx');
  t.ok(sphinx.detect!('Running Sphinx v5.3.0'));
  t.ok(sphinx.detect!('Running Sphinx v7.2.6+/1a2b3c'));
  for (const l of ['reading sources... [ 50%] index', 'Running Sphinx', 'build succeeded.', 'Running tests/stats.rs (target/debug/deps/stats-1)']) t.notOk(sphinx.detect!(l), l);
  t.same(sphinx.producers, ['sphinx-build', 'sphinx']);
});

t.test('sphinx-build from clean: every progress line folds where it stood, the statuses and the verdict stay', async (t) => {
  const d = await pipe(corpusCase('sphinx-build-html-pass'));
  t.equal(d.distiller, 'sphinx');
  t.equal(folded(d.markers, 'progress lines', 'progress line'), count(d.input, /^(reading sources|writing output)\.\.\. \[/), 'the one-line highlighting phase is not worth a marker');
  t.same(keptAll(d, /^(build succeeded\.|The HTML pages are in |updating environment: |building \[html\]: |pickling environment\.\.\. done|highlighting module code)/), []);
  t.equal(d.markers.length, 2, 'one marker per phase, where its lines stood');
  t.ok(d.lines.indexOf('looking for now-outdated files... none found') > d.lines.findIndex((l) => l.startsWith('[omni:')), 'the first marker stands before what followed its lines');
  t.ok(d.out.length < d.input.length * 0.6, `${d.input.length} -> ${d.out.length} B`);
});

t.test('make html with warnings: each WARNING and ERROR stays whole, the progress folds, under make', async (t) => {
  const d = await pipe(corpusCase('sphinx-make-html-warnings-pass'));
  t.equal(d.distiller, 'cc', "make's own lines are cc's; the banner adds sphinx's");
  t.same(keptAll(d, /WARNING: |ERROR: |^unknown option: |^   :bogus: yes$|^build succeeded, 3 warnings\.$|^The HTML pages are in /), []);
  // A warning that Sphinx prints on its status line, in the shape of autoconf's probes.
  t.ok(d.lines.some((l) => l.startsWith('checking consistency... ') && l.includes(': WARNING: document isn')), 'the status line carrying a warning is not folded as a probe');
  t.equal(folded(d.markers, 'progress lines', 'progress line'), count(d.input, /^(reading sources|writing output)\.\.\. \[/));
});

t.test('a line that states a failure is never folded, whatever its shape', async (t) => {
  const input = ['Running Sphinx v5.3.0', ...Array.from({ length: 6 }, (_, i) => `reading sources... [ ${(i + 1) * 10}%] page${i}`), 'reading sources... [ 70%] broken: Exception occurred while reading', ...Array.from({ length: 3 }, (_, i) => `reading sources... [ ${80 + i * 10}%] more${i}`), 'build succeeded.', ''].join('\n');
  const r = await distill(Buffer.from(input), { command: 'sphinx-build -b html docs out', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /^reading sources\.\.\. \[ 70%\] broken: Exception occurred while reading$/m);
  t.match(out, /^build succeeded\.$/m);
  t.match(out, /\[omni: 6 progress lines folded/);
});

t.test('the progress shape alone names nothing: without the banner or the command another tool owns it', async (t) => {
  const lines = Array.from({ length: 12 }, (_, i) => `reading sources... [ ${(i + 1) * 8}%] page${i}`);
  for (const l of lines) t.match(l, PROGRESS);
  const r = await distill(Buffer.from(lines.join('\n') + '\n'), { door: 'pipe' });
  t.not(r.distiller, 'sphinx');
});

t.test('reached through the runners Python projects use', async (t) => {
  const input = Buffer.from(corpusCase('sphinx-build-html-pass').output);
  for (const command of ['python3 -m sphinx -b html docs docs/_build', 'uv run sphinx-build -b html docs docs/_build', 'poetry run sphinx-build docs out']) {
    const r = await distill(input, { command, door: 'pipe' });
    t.equal(r.distiller, 'sphinx', command);
  }
});

t.test('a progress line that carries a warning or an error is an answer, not progress', async (t) => {
  const pages = (from: number) => Array.from({ length: 6 }, (_, i) => `writing output... [ ${from + i * 5}%] page${from + i}`);
  const input = ['Running Sphinx v5.3.0', ...pages(10), 'writing output... [ 40%] api: WARNING: undefined label: intro', ...pages(50), 'build succeeded, 1 warning.', ''].join('\n');
  const r = await distill(Buffer.from(input), { command: 'sphinx-build -b html docs out', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /^writing output\.\.\. \[ 40%\] api: WARNING: undefined label: intro$/m);
  t.equal((out.match(/\[omni: 6 progress lines folded/g) ?? []).length, 2, 'the runs on either side fold, each where it stood');
});
