import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

t.test('a failing compile keeps every diagnostic whole: its errors, and its warnings with their excerpts, and the make error', async (t) => {
  // The pipe door knows no exit code: these are distilled, and still nothing of them is taken.
  for (const name of ['make-gcc-errors', 'gcc-errors-color']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'cc');
    t.same(keptAll(d, /error|warning|note|\*\*\*|\|/), [], name);
  }
});

t.test("a successful compile's warnings keep their headline; the excerpt under it folds", async (t) => {
  const d = await pipe(corpusCase('make-gcc-warnings'));
  t.equal(d.distiller, 'cc');
  t.same(keptAll(d, /warning|In function|^gcc .* -o bin\/tool/), []);
  t.equal(count(d.out, /^ +(\d+ )?\| /), 0, 'no excerpt line is left');
  t.equal(folded(d.markers, 'excerpts', 'excerpt'), count(d.input, /: warning: /));
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
  t.equal(folded(d.markers, 'compile commands', 'compile command'), count(d.input, / -c \S+\.c -o /));
  t.same(keptAll(d, /warning|In function|^cc -o |^ar rcs/), []);
  t.equal(count(d.out, /\^/), 0, 'the excerpt under the warning folds');
  // A lone `Leaving directory` line is recognised noise: it folds when its bytes pay for the
  // marker (the one bar, kit/marker.ts foldPays), like any run of them.
  t.ok(d.markers.some((m) => /make directory lines?\b/.test(m)), 'directory lines fold');
});


t.test("autoconf's configure: every `checking …` probe folds; config.status lines stay", async (t) => {
  const d = await pipe(corpusCase('hello-configure'));
  t.equal(d.distiller, 'cc');
  t.equal(count(d.out, /^checking /), 0, 'no probe left');
  t.equal(folded(d.markers, 'configure checks', 'configure check'), count(d.input, /^checking .+\.\.\./));
  t.same(keptAll(d, /^config\.status: |^configure: |WARNING|error:/), []);
});


t.test("automake's echoed recipes fold: one compile command per depbase block, generated-header recipes whole", async (t) => {
  const d = await pipe(corpusCase('hello-make'));
  t.equal(d.distiller, 'cc');
  t.equal(folded(d.markers, 'compile commands', 'compile command'), count(d.input, /^depbase=`echo /), 'a 3-line depbase block counts once');
  t.equal(count(d.out, /^\s*-e 's/), 0, 'no sed continuation line of a header recipe is left');
  t.equal(count(d.out, /^mv -f \$depbase/), 0);
  // The archive and link steps and the ar warning are not recipe noise.
  t.same(keptAll(d, /^ar |^ar: |^ranlib |^gcc .* -o hello |Making all in/), []);
});


t.test('a -Wall build keeps every warning and note headline with its context; continued compile commands fold whole', async (t) => {
  const d = await pipe(corpusCase('figlet-make-warnings'));
  t.equal(d.distiller, 'cc');
  t.same(keptAll(d, /: (warning|note): |In function|In file included|^gcc +-o /), []);
  t.equal(count(d.out, /-DDEFAULTFONTFILE/), 0, 'the continuation line of each compile command goes with it');
  t.equal(folded(d.markers, 'compile commands', 'compile command'), count(d.input, /^gcc -c /));
});


t.test('ninja status lines fold; node-gyp keeps its warnings and `gyp info ok`', async (t) => {
  const n = await pipe(corpusCase('cjson-ninja-build'));
  t.equal(n.distiller, 'cc');
  t.equal(folded(n.markers, 'build steps', 'build step'), count(n.input, /^\[\d+\/\d+\] /));
  const g = await pipe(corpusCase('node-gyp-rebuild'));
  t.equal(g.distiller, 'cc');
  t.equal(count(g.out, /^gyp info (?!ok)/), 0, 'gyp info lines fold');
  t.same(keptAll(g, /^gyp info ok|: (warning|note): |^ar |^rm /), []);
  t.equal(folded(g.markers, 'gyp info lines', 'gyp info line'), count(g.input, /^gyp info (?!ok)/));
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



t.test("a successful build: a warning's excerpt and the compile command after it fold as one marker; headlines, notes and link lines stay", async (t) => {
  for (const name of ['1170-make-nested-src-header-warnings', '1036-make-recursive-warnings-40-files']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'cc');
    t.same(keptAll(d, /: (warning|note): |In function|At top level|In file included|^ar |^cc -o /), [], name);
    t.ok(d.markers.includes('1 excerpt, 1 compile command folded'), name);
    t.ok(d.out.length < d.input.length * 0.8, `${name}: ${d.input.length} -> ${d.out.length}`);
  }
  const n = await pipe(corpusCase('1171-cmake-ninja-warnings-notes'));
  t.same(keptAll(n, /: (warning|note): |In function|At top level/), []);
  t.ok(n.markers.includes('1 excerpt, 1 build step folded'));
});

t.test('under an error nothing folds, and after it no warning excerpt does either: the build is failing', async (t) => {
  const { distill } = await import('../helpers/omni.js');
  // Files that compile clean before them: enough folded for the distilled form to go out at all.
  const clean = ['init', 'list', 'map', 'pool', 'queue', 'table'].map((f) => `cc -Wall -Wextra -O2 -c src/alpha/${f}.c -o build/alpha/${f}.o`);
  const lines = [
    ...clean,
    'cc -Wall -Wextra -O2 -c src/alpha/a.c -o build/alpha/a.o',
    'src/alpha/a.c: In function ‘first’:',
    'src/alpha/a.c:3:7: warning: unused variable ‘count’ [-Wunused-variable]',
    '    3 |   int count;',
    '      |       ^~~~~',
    'cc -Wall -Wextra -O2 -c src/alpha/b.c -o build/alpha/b.o',
    'src/alpha/b.c: In function ‘second’:',
    'src/alpha/b.c:5:3: error: ‘lenght’ undeclared (first use in this function)',
    '    5 |   lenght = strlen(name);',
    '      |   ^~~~~~',
    'src/alpha/b.c:5:3: note: each undeclared identifier is reported only once for each function it appears in',
    'src/alpha/b.c:9:12: warning: format ‘%d’ expects argument of type ‘int’, but argument 2 has type ‘long int’ [-Wformat=]',
    '    9 |   printf("%d\\n", total);',
    '      |           ~^   ~~~~~',
    '      |            |   |',
    '      |            int long int',
    '      |           %ld',
    'make: *** [Makefile:7: build/alpha/b.o] Error 1',
    '',
  ];
  const r = await distill(Buffer.from(lines.join('\n')), { command: 'make', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /^src\/alpha\/a\.c:3:7: warning: unused variable ‘count’ \[-Wunused-variable\]\n\[omni: 1 excerpt, 1 compile command folded — omni retrieve [0-9a-f]{16}\]\nsrc\/alpha\/b\.c: In function/m, "the successful file's excerpt folds with the next compile command");
  t.ok(out.endsWith(lines.slice(clean.length + 6).join('\n')), 'from the error on, every line stays');
});

t.test("clang 14's gutterless excerpt (source line, caret line) folds whole; a line after a headline with no caret line under it stays", async (t) => {
  const d = await pipe(corpusCase('1174-make-clang-14-warnings'));
  t.equal(d.distiller, 'cc');
  t.same(keptAll(d, /: (warning|note): |In file included|warnings? generated|^ar |^clang -o /), []);
  t.ok(d.markers.includes('1 excerpt folded'), d.markers.join('; '));
  t.equal(count(d.out, /^static inline int clamp_len/), 0, "the shared header's excerpt folds in every file");

  const { distill } = await import('../helpers/omni.js');
  const clean = ['init', 'list', 'map', 'pool', 'queue', 'table'].map((f) => `clang -Wall -O2 -c src/${f}.c -o build/${f}.o`);
  const lines = [
    ...clean,
    'src/a.c:4:10: warning: unused variable \'spare\' [-Wunused-variable]',
    'note: this line says more, and no caret line comes under it',
    'src/a.c:9:3: warning: unused parameter \'argv\' [-Wunused-parameter]',
    'static int helper(int argc, char **argv) { return argc; }',
    '                                   ^',
    '2 warnings generated.',
    '',
  ];
  const r = await distill(Buffer.from(lines.join('\n')), { command: 'make', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /\nnote: this line says more, and no caret line comes under it\n/);
  t.match(out, /unused parameter 'argv' \[-Wunused-parameter\]\n\[omni: 1 excerpt folded — omni retrieve [0-9a-f]{16}\]\n2 warnings generated\.\n/);
});

t.test("a hand-written Makefile's unindented quiet steps (`CC build/x.o`, `[CC] x.c`) fold as build steps; a warning, the link and other CC lines stay", async (t) => {
  const d = await pipe(corpusCase('c-home-make-test-pass'));
  t.equal(folded(d.markers, 'build steps', 'build step'), count(d.input, /^(CC|AR) build\//));
  t.same(keptAll(d, /warning: |In function|-o build\/test_\w+ |^core: /), []);
  const { distill } = await import('../helpers/omni.js');
  // Enough of them for the output to be worth distilling at all.
  const bracketed = Array.from({ length: 30 }, (_, i) => `[CC] src/storage/engine_module_${i}.c`);
  const keep = ['CC = gcc', 'CC build/a.o failed', 'CC x', 'LD: warning: build/app.o has no symbols', '[CC] building everything'];
  const input = Buffer.from(`${[...bracketed, ...keep, 'LD build/app.so', 'all done'].join('\n')}\n`);
  const out = (await distill(input, { command: 'make', door: 'pipe' })).output.toString('utf8');
  t.match(out, /\[omni: 30 build steps folded/);
  for (const l of keep) t.ok(out.split('\n').includes(l), `stays: ${l}`);
});

t.test("meson setup: the compiler checks fold where they stood; what it found of the system, its messages and summary stay", async (t) => {
  const d = await pipe(corpusCase('meson-setup-probes-pass'));
  t.equal(d.distiller, 'cc');
  const checks = /^(Has header "|Header "[^"]+" has symbol |Checking for (function|size of) "|Compiler for C supports arguments )/;
  t.equal(folded(d.markers, 'configure checks', 'configure check'), count(d.input, checks));
  t.same(keptAll(d, /^(Project name|Project version|C compiler for the host machine|Run-time dependency .* found|Found pkg-config|Message|Build targets in project|Found ninja)|WARNING: /), []);
  t.equal(d.markers.length, 1, 'the checks are one run: one marker where it stood');
  // Sniffed without a command, by the banner.
  const r = await distill(corpusCase('meson-setup-probes-pass').output, { door: 'pipe' });
  t.equal(r.distiller, 'cc');
});

t.test('a meson check that does not end in its answer is not one (a project prints what it likes)', async (t) => {
  const input = ['The Meson build system', ...Array.from({ length: 6 }, (_, i) => `Has header "h${i}.h" : YES `), 'Has header "broken.h" : YES but the compiler crashed', 'Checking for function "f" : NO ', 'Checking for function "g" : NO ', 'Checking for function "h" : NO ', ''].join('\n');
  const r = await distill(Buffer.from(input), { command: 'meson setup build', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /^Has header "broken\.h" : YES but the compiler crashed$/m);
  t.match(out, /\[omni: 6 configure checks folded/);
});

t.test("MakeMaker's make: the staging copies into blib/ fold as recipe echoes; what Makefile.PL wrote and the POD count stay", async (t) => {
  const d = await pipe(corpusCase('perl-makemaker-build-pass'));
  t.equal(folded(d.markers, 'recipe echoes', 'recipe echo'), count(d.input, /^cp \S+ blib\//));
  t.same(keptAll(d, /^(Generating a Unix-style Makefile|Writing Makefile for |Writing MYMETA|Manifying \d+ pod documents)/), []);
  // A copy anywhere else is what the recipe does, not MakeMaker's staging: it stays.
  const r = await distill(Buffer.from(['cp dist/app.js /var/www/app.js', 'cp dist/app.css /var/www/app.css', 'cp dist/index.html /var/www/index.html', ''].join('\n')), { command: 'make deploy', door: 'pipe' });
  t.equal(r.output.toString('utf8'), 'cp dist/app.js /var/www/app.js\ncp dist/app.css /var/www/app.css\ncp dist/index.html /var/www/index.html\n');
});
