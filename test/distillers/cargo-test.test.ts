import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

t.test('folds passing cargo tests and keeps warnings, Running headings and every test result', async (t) => {
  const d = await pipe(corpusCase('cargo-test-pass'));
  t.equal(d.distiller, 'cargo-test');
  const ok = /^test .* \.\.\. ok$/;
  t.equal(folded(d.markers, 'passing tests') + count(d.out, ok), count(d.input, ok), 'every passing test is folded and counted, or kept');
  t.ok(count(d.out, ok) <= 2, 'only the single tests of one-test binaries stay');
  t.same(keptAll(d, /^warning|-->|Running|Doc-tests|test result:|Finished/), []);
});


t.test('keeps every failing cargo test with its panic message and the failures list', async (t) => {
  for (const name of ['cargo-test-fail', 'cargo-test-fail-no-fail-fast']) {
    const d = await pipe(corpusCase(name));
    t.same(keptAll(d, /FAILED|panicked|left|right|^---- |failures:|test result|error/), [], name);
  }
});


t.test('a test binary that ran no test folds whole, heading and verdict; binaries that ran tests keep both', async (t) => {
  const d = await pipe(corpusCase('1090-cargo-test-workspace-pass'));
  t.equal(d.distiller, 'cargo-test');
  t.notOk(d.out.includes('Running unittests src/main.rs'), 'the binary crate\'s empty test binary folds');
  t.notOk(d.out.includes('running 0 tests'));
  t.equal(folded(d.markers, 'test binary that ran no test') + folded(d.markers, 'test binaries that ran no test'), count(d.input, /^test result: ok\. 0 passed; 0 failed; 0 ignored/));
  t.same(keptAll(d, /Running unittests src\/lib\.rs|Running tests\/|Doc-tests|test result: ok\. [1-9]|\.\.\. ignored$|Finished/), []);
  const ok = /^test .* \.\.\. ok$/;
  t.equal(folded(d.markers, 'passing tests') + count(d.out, ok), count(d.input, ok));
});

t.test('two binaries that ran no test in a row are one marker where they stood; a failing binary keeps its heading', async (t) => {
  const empty = (name: string) => `     Running unittests src/${name}.rs (target/debug/deps/${name}-0123456789abcdef)\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n`;
  const failing = '     Running tests/a.rs (target/debug/deps/a-0123456789abcdef)\n\nrunning 2 tests\ntest one ... ok\ntest two ... FAILED\n\nfailures:\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n';
  const input = `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.05s\n${empty('lib')}${empty('main')}${failing}`;
  const d = await pipe({ ...corpusCase('1090-cargo-test-workspace-pass'), output: Buffer.from(input) }, 'cargo test');
  t.same(d.markers, ['2 test binaries that ran no test folded'], 'one marker for the run of them');
  t.equal(d.lines[1], d.lines.find((l) => l.startsWith('[omni: 2 test binaries')), 'standing where they stood, after Finished');
  t.same(keptAll(d, /Running tests\/a\.rs|two \.\.\. FAILED|test result: FAILED|failures:/), []);
  // A section a failure or an unrecognised line breaks stays as it was.
  const broken = `${empty('lib').replace('running 0 tests\n', "running 0 tests\nthread 'main' panicked at src/lib.rs:1:1:\n")}`;
  const b = await pipe({ ...corpusCase('1090-cargo-test-workspace-pass'), output: Buffer.from(broken) }, 'cargo test');
  t.same(keptAll(b, /Running unittests|panicked|test result:/), [], 'a broken section keeps its heading and verdict');
  // A section still open at the end of the output is not folded.
  const open = '     Running unittests src/lib.rs (target/debug/deps/lib-0123456789abcdef)\n\nrunning 0 tests\n\n';
  const o = await pipe({ ...corpusCase('1090-cargo-test-workspace-pass'), output: Buffer.from(open) }, 'cargo test');
  t.same(keptAll(o, /Running unittests|running 0 tests/), [], 'an unfinished section stays');
  // A section is held for a few lines only: a long one goes on as if it never opened.
  const long = `     Running unittests src/lib.rs (target/debug/deps/lib-0123456789abcdef)\n\nrunning 0 tests\n${'test a ... ok\n'.repeat(70)}\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n`;
  const g = await pipe({ ...corpusCase('1090-cargo-test-workspace-pass'), output: Buffer.from(long) }, 'cargo test');
  t.same(keptAll(g, /Running unittests|test result:/), [], 'a section longer than the engine holds keeps its heading and verdict');
  t.equal(folded(g.markers, 'passing tests'), 70);
});
