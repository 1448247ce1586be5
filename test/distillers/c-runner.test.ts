import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { routeCommand, mixPlan } from '../../lib/distillers/registry.js';
import { distill } from '../helpers/omni.js';

// The test runners C projects write themselves or vendor as a header (lib/distillers/c-runner.ts):
// run as the project's own binary, alone or after `make`, their whole-line passing shapes fold.

/** The runner lines of one shape, exactly as the runners of corpus cases 1230-1237 print them. */
const PASSING = [
  'tests/run_tests.c:14:test_rb_push:PASS',
  'PASS test_rb_push:  (51 ticks, 0.000 sec)',
  'Test test_rb_push...                          [ OK ]',
  'PASS: test_rb_push',
  '[PASS] test_rb_push',
  'ok 1 test_clamp_low',
  'test_parse_ok ... ok',
  '  ✓ test_rb_push',
  'test_rb_push: OK',
];

async function passing(lines: string[], command = './build/run_tests -v'): Promise<string> {
  const input = Buffer.from(`${lines.join('\n')}\n`);
  const r = await distill(input, { command, door: 'pipe' });
  return r.output.toString('utf8');
}

t.test('each passing shape folds, counted, where a run of it stood; the tally stays', async (t) => {
  for (const shape of PASSING) {
    const run = Array.from({ length: 12 }, (_, i) => shape.replace(/test_(\w+)/, `test_$1_${i}`));
    const out = await passing(['suite cx', ...run, '12 of 12 tests passed', 'ALL TESTS PASSED']);
    t.match(out, /\[omni: 12 passing tests folded/, shape);
    t.match(out, /^12 of 12 tests passed$/m, `${shape}: the tally stays`);
  }
});

t.test('a line merely holding `ok` or `PASS`, or a status that names no test, is not a passing test', async (t) => {
  const lines = [
    'database: OK', 'cache: OK', 'queue: OK', 'mailer: OK', 'search: OK', 'storage: OK',
    'Connecting ... ok', 'Migrating ... ok', 'Seeding ... ok', 'Warming ... ok',
    'ok 3 test_push but slow', 'ok 4 - test_pop', 'PASS: test_push (retried)', 'tests/run_tests.c:14:test_push:PASS then FAIL',
    '[PASS] test_push, test_pop', '  ✓ push works', 'ALL TESTS PASSED',
  ];
  const out = await passing(lines);
  t.notMatch(out, /passing tests? folded/, 'nothing is counted as a passing test');
  for (const l of lines) t.ok(out.includes(l), `stays: ${l}`);
});

t.test('make && ./build/run_tests -v: the program run by its path is read by the runner its lines name', async (t) => {
  const r = routeCommand('make && ./build/run_tests -v');
  t.ok(r.mixed, 'two producers');
  t.ok(r.producers!.some((p) => p.sniffed), 'the program is read by what its lines name');
  t.ok(mixPlan(r).candidates.some((s) => s.name === 'c-runner'), 'c-runner may join');
  t.match(r.reason, /\.\/build\/run_tests \(generic \+ what its output's lines name\)/, 'explain says so');
  const d = await pipe(corpusCase('c-unity-make-run-pass'));
  t.equal(folded(d.markers, 'passing tests'), count(d.input, /:PASS$/));
  t.same(keptAll(d, /warning: |In function|:IGNORE|^hash seed|^-+$|^\d+ Tests \d+ Failures|^OK$/), []);
});

t.test('greatest, acutest, minunit and home-made runners after make keep their tallies and what a test printed', async (t) => {
  const cases: Array<[string, RegExp, RegExp]> = [
    ['c-greatest-make-j2-pass', /^PASS test_\w+: /, /^\* Suite \w+:$|^\d+ tests? - \d+ passed|^Total: |^Pass: \d+|^hash seed/],
    ['c-acutest-make-v1-pass', /^Test test_\w+\.\.\. +\[ OK \]$/, /^SUCCESS: |^hash seed|warning: /],
    ['c-minunit-kbuild-quiet-pass', /^PASS: test_\w+$/, /^ALL TESTS PASSED$|^Tests run: |^hash seed/],
    ['c-home-rebuild-run-pass', /^test_\w+: OK$/, /^\d+ of \d+ tests passed$|^hash seed/],
  ];
  for (const [name, pass, keep] of cases) {
    const d = await pipe(corpusCase(name));
    // A lone passing line (greatest's one-test suite) stays: a marker would not pay for it.
    t.ok(count(d.out, pass) <= 1, `${name}: passing lines fold`);
    t.equal(folded(d.markers, 'passing tests'), count(d.input, pass) - count(d.out, pass), `${name}: every folded passing line counted`);
    t.same(keptAll(d, keep), [], `${name}: tallies stay`);
  }
});

t.test('make test running three home-made runners: [PASS], `ok N`, `... ok` lines fold, each binary\'s echo and tally stay', async (t) => {
  const d = await pipe(corpusCase('c-home-make-test-pass'));
  t.ok(folded(d.markers, 'passing tests') >= 14, d.markers.join(' | '));
  t.same(keptAll(d, /^\.\/build\/test_\w+ -v$|^core: |^# util: |^Ran \d+ tests: |^hash seed/), []);
});

t.test('a runner that exits 0 after a failing test keeps its failing line', async (t) => {
  const d = await pipe(corpusCase('c-home-check-exit0-failing'));
  t.equal(d.distiller, 'c-runner', 'sniffed by its lines');
  t.same(keptAll(d, /✗ |passing$|failing$|^cx$/), []);
  t.ok(folded(d.markers, 'passing tests') > 0);
});

t.test('a failing run comes back byte for byte', async (t) => {
  const c = corpusCase('c-unity-make-run-fail');
  const r = await distill(c.output, { command: c.cmd, door: 'hook', exitCode: 1 });
  t.equal(r.output.toString('utf8'), c.output.toString('utf8'));
});
