import t from 'tap';
import { corpusCase, count, folded, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

t.test('a runner output it cannot parse comes back unchanged', async (t) => {
  const c = corpusCase('npm-test-unparseable');
  const d = await pipe(c);
  t.equal(d.distiller, 'npm-test');
  t.equal(d.markers.length, 0);
  t.equal(d.out, d.input, 'byte for byte');
});

t.test('a green TAP run whose summary says fail 0 is folded like any green run', async (t) => {
  const d = await pipe(corpusCase('node-test-tap-pass-zero-failed'));
  t.ok(d.lines.includes('# fail 0'));
  // node:test's TAP: top-level results fold too (issue 10, defect 3).
  t.equal(folded(d.markers, 'passing TAP results'), count(d.input, /^\s*ok \d+ /));
});

t.test('an ok inside a path is not a passed test', async (t) => {
  const c = corpusCase('grep-ok-handler');
  for (const command of ['npx tap', 'node --test', 'go test ./...', 'cargo test']) {
    const d = await pipe(c, command);
    t.equal(d.markers.filter((m) => /passing/.test(m)).length, 0, `${command}: nothing counted as passing`);
  }
});

t.test('omni pipe without a command picks the runner from the first lines', async (t) => {
  const expect: Record<string, string> = {
    'jest-fail-color': 'jest',
    'vitest-fail': 'vitest',
    'tap-pass': 'tap',
    'pytest-verbose-pass': 'pytest',
    'go-test-verbose-pass': 'go-test',
    'cargo-test-pass': 'cargo-test',
    'jest-verbose-pass': 'jest',
  };
  for (const [name, spec] of Object.entries(expect)) {
    const r = await distill(corpusCase(name).output, { door: 'pipe' });
    t.equal(r.distiller, spec, name);
  }
});
