import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('tsc diagnostics come back with every location and code frame', async (t) => {
  for (const name of ['tsc-errors', 'tsc-errors-pretty']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'tsc');
    t.same(keptAll(d, /\S/), [], `${name}: every line kept`);
  }
});

t.test('eslint problems are the answer: every row stays', async (t) => {
  const d = await pipe(corpusCase('eslint-errors'));
  t.equal(d.distiller, 'eslint');
  t.same(keptAll(d, /\S/), []);
});

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

t.test('webpack keeps every warning block, the asset lines and the verdict', async (t) => {
  for (const name of ['webpack-warnings', 'webpack-error']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'bundler');
    t.same(keptAll(d, /WARNING|ERROR|asset|compiled|Module|error/), [], name);
  }
});

t.test('a recursive make folds directory and compile-command lines and keeps the warning and the link', async (t) => {
  const d = await pipe(corpusCase('make-recursive-warning'));
  t.equal(d.distiller, 'cc');
  t.equal(count(d.out, / -c \S+\.c -o /), 0, 'no compile command left');
  t.equal(folded(d.markers, 'compile commands'), count(d.input, / -c \S+\.c -o /));
  t.same(keptAll(d, /warning|\^|^cc -o |^ar rcs|Leaving directory/), []);
});

t.test('npm run build is read by the build family its output names', async (t) => {
  const c = corpusCase('make-recursive-warning');
  const d = await pipe(c, 'npm run build');
  t.equal(d.distiller, 'npm-build');
  t.equal(folded(d.markers, 'compile commands'), count(d.input, / -c \S+\.c -o /));
  const plain = await pipe(corpusCase('eslint-errors'), 'npm run build');
  t.equal(plain.markers.length, 0, 'output no build family recognises is not folded');
});

t.test('ctest: 40 passing tests fold to the verdict; a failing test keeps its output and the FAILED list', async (t) => {
  const pass = await pipe(corpusCase('ctest-pass'));
  t.equal(pass.distiller, 'ctest');
  t.equal(folded(pass.markers, 'passing tests'), count(pass.input, / Passed +[\d.]+ sec$/));
  t.same(keptAll(pass, /tests passed|Total Test time/), []);
  const fail = await pipe(corpusCase('ctest-output-on-failure'));
  t.same(keptAll(fail, /Failed|FAILED|failed|Errors while|\*\*\*/), []);
});
