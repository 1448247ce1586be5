import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('gcc errors and warnings keep their file:line, excerpt and the make error', async (t) => {
  for (const name of ['make-gcc-errors', 'make-gcc-warnings', 'gcc-errors-color']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'cc');
    t.same(keptAll(d, /error|warning|note|\*\*\*|\|/), [], name);
  }
});


t.test('cmake configure probes and object steps fold; Built target and done lines stay', async (t) => {
  const c = corpusCase('cmake-configure-build');
  const d = await pipe(c, 'cmake --build build');
  t.equal(d.distiller, 'cc');
  t.same(keptAll(d, /Built target|Configuring done|Generating done|Build files have been written|compiler identification/), []);
  t.ok(d.markers.some((m) => /configure checks/.test(m)), 'the Detecting/Check lines fold');
});


t.test('a recursive make folds directory and compile-command lines and keeps the warning and the link', async (t) => {
  const d = await pipe(corpusCase('make-recursive-warning'));
  t.equal(d.distiller, 'cc');
  t.equal(count(d.out, / -c \S+\.c -o /), 0, 'no compile command left');
  t.equal(folded(d.markers, 'compile commands'), count(d.input, / -c \S+\.c -o /));
  t.same(keptAll(d, /warning|\^|^cc -o |^ar rcs/), []);
  // A lone `Leaving directory` line is recognised noise: it folds when its bytes pay for the
  // marker (the one bar, kit/marker.ts foldPays), like any run of them.
  t.ok(d.markers.some((m) => /make directory lines/.test(m)), 'directory lines fold');
});


t.test("autoconf's configure: every `checking …` probe folds; config.status lines stay", async (t) => {
  const d = await pipe(corpusCase('hello-configure'));
  t.equal(d.distiller, 'cc');
  t.equal(count(d.out, /^checking /), 0, 'no probe left');
  t.equal(folded(d.markers, 'configure checks'), count(d.input, /^checking .+\.\.\./));
  t.same(keptAll(d, /^config\.status: |^configure: |WARNING|error:/), []);
});


t.test("automake's echoed recipes fold: one compile command per depbase block, generated-header recipes whole", async (t) => {
  const d = await pipe(corpusCase('hello-make'));
  t.equal(d.distiller, 'cc');
  t.equal(folded(d.markers, 'compile commands'), count(d.input, /^depbase=`echo /), 'a 3-line depbase block counts once');
  t.equal(count(d.out, /^\s*-e 's/), 0, 'no sed continuation line of a header recipe is left');
  t.equal(count(d.out, /^mv -f \$depbase/), 0);
  // The archive and link steps and the ar warning are not recipe noise.
  t.same(keptAll(d, /^ar |^ar: |^ranlib |^gcc .* -o hello |Making all in/), []);
});


t.test('a -Wall build keeps every warning, note, excerpt and caret; continued compile commands fold whole', async (t) => {
  const d = await pipe(corpusCase('figlet-make-warnings'));
  t.equal(d.distiller, 'cc');
  t.same(keptAll(d, /warning|note|In function|In file included|\||^gcc +-o /), []);
  t.equal(count(d.out, /-DDEFAULTFONTFILE/), 0, 'the continuation line of each compile command goes with it');
  t.equal(folded(d.markers, 'compile commands'), count(d.input, /^gcc -c /));
});


t.test('ninja status lines fold; node-gyp keeps its warnings and `gyp info ok`', async (t) => {
  const n = await pipe(corpusCase('cjson-ninja-build'));
  t.equal(n.distiller, 'cc');
  t.equal(folded(n.markers, 'build steps'), count(n.input, /^\[\d+\/\d+\] /));
  const g = await pipe(corpusCase('node-gyp-rebuild'));
  t.equal(g.distiller, 'cc');
  t.equal(count(g.out, /^gyp info (?!ok)/), 0, 'gyp info lines fold');
  t.same(keptAll(g, /^gyp info ok|warning|note|^ *\d* +\| |^ar |^rm /), []);
  t.equal(folded(g.markers, 'gyp info lines'), count(g.input, /^gyp info (?!ok)/));
});


t.test('a line after an echoed command that does not end in `\\` is judged on its own', async (t) => {
  const { distill } = await import('../helpers/omni.js');
  const input = Buffer.from(
    [
      'gcc -c -g -O2 -Wall -DX=\\"a\\" \\',
      '\t-DY=\\"b\\" -o a.o a.c',
      'a.c:3:5: warning: unused variable ‘n’ [-Wunused-variable]',
      '    3 |   int n; \\',
      '      |       ^',
      'gcc -c -g -O2 -Wall -DX=\\"a\\" \\',
      '\t-DY=\\"b\\" -o b.o b.c',
      'gcc -o tool a.o b.o',
      '',
    ].join('\n'),
  );
  const r = await distill(input, { command: 'make', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /a\.c:3:5: warning: unused variable/);
  t.match(out, / {4}3 \| {3}int n; \\\n {6}\| {7}\^/, 'an excerpt ending in `\\` does not swallow the caret line');
  t.match(out, /^gcc -o tool a\.o b\.o$/m);
});

