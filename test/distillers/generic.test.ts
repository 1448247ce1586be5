import t from 'tap';
import { corpusCase, keptAll, pipe } from './cases.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { distill } from '../helpers/omni.js';
import { FAILURE_OR_WARNING } from '../../lib/kit/words.js';

// generic owns what no spec does: it recognises nothing of any tool, squeezes blank runs and
// folds runs of alike noise lines (lib/distillers/generic.ts).
t.test('what no spec owns is generic\'s: an unknown program, several producers', async (t) => {
  for (const cmd of ['./deploy.sh --dry-run', 'wget -O /dev/null http://x', './build.sh && ./deploy.sh', 'rsync -av src/ dst/']) {
    t.equal(routeCommand(cmd).distiller, 'generic', cmd);
  }
});

t.test('a progress bar is drawn once: its redraws go, every other line stays', async (t) => {
  const d = await pipe(corpusCase('wget-progress-bar'));
  t.equal(d.distiller, 'generic');
  t.ok(d.out.length < d.input.length / 2, `${d.input.length} -> ${d.out.length} B`);
  t.same(keptAll(d, /^(--|Connecting|HTTP request|Length|Saving to)|saved \[/), []);
});

t.test('output it recognises nothing in comes back untouched', async (t) => {
  const d = await pipe(corpusCase('mypy-clean'));
  t.equal(d.distiller, 'generic');
  t.equal(d.out, d.input);
});

t.test('runs of lines sharing one template fold to their first line, a marker quoting one of them, and their last', async (t) => {
  const d = await pipe(corpusCase('wget-dot-progress'));
  t.equal(d.distiller, 'generic');
  t.ok(d.out.length < d.input.length / 2, `${d.input.length} -> ${d.out.length} B`);
  const m = d.markers.find((x) => /^\d+ lines like "/.test(x));
  t.ok(m, 'a marker quotes a line');
  const quoted = /^\d+ lines like "(.*)" folded$/.exec(m!)![1];
  t.ok(d.input.split('\n').includes(quoted), 'the quote is a real line');
  t.same(keptAll(d, /^\s+0K |100%|saved \[/), [], 'the first and the last line of the run, and the verdict');
  const v = await pipe(corpusCase('valgrind-recursive-leak'));
  t.ok(v.markers.some((x) => /lines like "==\d+==\s+by 0x[0-9A-F]+: build \(tree\.c:10\)"/.test(x)), 'repeated frames fold, through the ==PID== prefix');
  t.same(keptAll(v, /definitely lost|LEAK SUMMARY|ERROR SUMMARY|Conditional jump/), []);
});

t.test('what a template fold never hides: a table\'s rows, lines that are only values, trouble in the same shape', async (t) => {
  const psql = await pipe(corpusCase('psql-select-table'));
  t.equal(psql.out, psql.input, 'every row of a table is an answer, however alike');
  const seq = Array.from({ length: 300 }, (_, i) => `${i * 7919}`).join('\n') + '\n';
  const r = await distill(seq, { command: 'seq 300', door: 'pipe' });
  t.equal(r.output.toString(), seq, 'a column of numbers');
  const jobs = Array.from({ length: 40 }, (_, i) => `job ${i} done in ${i * 3}ms`);
  jobs[20] = 'job 20 failed in 60ms';
  jobs[30] = 'job 30 done in 90ms (deprecated queue)';
  const out = (await distill(jobs.join('\n') + '\n', { command: './run-jobs', door: 'pipe' })).output.toString();
  for (const k of [0, 19, 20, 21, 29, 30, 31, 39]) t.ok(out.split('\n').includes(jobs[k]), `kept: ${jobs[k]}`);
  t.equal((out.match(/^\[omni: \d+ lines like "job \d+ done in \d+ms" folded/gm) ?? []).length, 3, 'a run on each side of each line that says trouble');
});

t.test('a list of names is an answer: digits glued to a name\'s letters are part of it, never a template\'s variable', async (t) => {
  const names = Array.from({ length: 30 }, (_, i) => `src/lib/mod${i}.js`);
  const listing = ['src/', ...names, ...Array.from({ length: 12 }, (_, i) => `assets/icon${i}x${i}.png`), 'worker gw3 ready', 'worker gw4 ready', 'worker gw5 ready', 'worker gw6 ready'].join('\n') + '\n';
  const r = await distill(listing, { command: 'tar -cvzf out.tgz src assets', door: 'pipe' });
  t.equal(r.output.toString(), listing, 'every path, every worker');
  // One letter alone before digits is a separator: versions, ISO times and sizes still fold.
  const pulls = Array.from({ length: 20 }, (_, i) => `2026-12-01T1${i % 10}:00:0${i % 10}Z pulled layer v1.${i}.0 1920x10${i % 10}0`).join('\n') + '\n';
  const p = (await distill(pulls, { command: './pull-layers', door: 'pipe' })).output.toString();
  t.ok(p.length < pulls.length / 2, `${pulls.length} -> ${p.length} B`);
});

// Whether a line may fold (its words, a diagnostic's location, a table's columns, a word of
// trouble) is asked only once a neighbour shares its template: most lines share none, and the
// template comparison fails at the first differing char. The output is the same either way.
t.test('a line no neighbour shares a template with is never asked for its words of trouble', async (t) => {
  const test = RegExp.prototype.test;
  let asked = 0;
  const count = async (input: string) => {
    asked = 0;
    RegExp.prototype.test = function (this: RegExp, s: string) { if (this === FAILURE_OR_WARNING) asked++; return test.call(this, s); };
    try {
      return (await distill(input, { command: './run-jobs', door: 'pipe' })).output.toString();
    } finally {
      RegExp.prototype.test = test;
    }
  };
  const mixed = Array.from({ length: 60 }, (_, i) => (i % 2 ? `job ${i} done in ${i * 3}ms` : `fetched item-${i} from cache`)).join('\n') + '\n';
  t.equal(await count(mixed), mixed, 'nothing folds');
  t.equal(asked, 0, 'no line was asked');
  const alike = Array.from({ length: 60 }, (_, i) => `job ${i} done in ${i * 3}ms`).join('\n') + '\n';
  const out = await count(alike);
  t.match(out, /^\[omni: 58 lines like "job \d+ done in \d+ms" folded/m, 'a run of alike lines folds');
  t.ok(asked >= 60, `each line of the run was asked (${asked})`);
});
