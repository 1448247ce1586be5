import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import prettier from '../../lib/distillers/prettier.js';
import { distill } from '../helpers/omni.js';

t.test("the 'prettier' spec names itself by the lines of files --write left as they were", async (t) => {
  t.equal(prettier.name, 'prettier');
  for (const l of ['src/mod1.ts 93ms (unchanged)', 'docs/a b.md 1.2s (unchanged)']) t.ok(prettier.detect!(l), l);
  for (const l of ['src/mod19.ts 5ms', '[warn] src/mod3.js', 'Checking formatting...', 'built in 93ms (unchanged)x']) t.notOk(prettier.detect!(l), l);
});

t.test('prettier --write: the files it left unchanged fold where they stood; the files it rewrote stay', async (t) => {
  const d = await pipe(corpusCase('prettier-write-pass'));
  t.equal(d.distiller, 'prettier');
  t.same(keptAll(d, /^src\/\S+ \d+ms$/), [], 'every rewritten file');
  const unchanged = count(d.input, / \(unchanged\)$/);
  const left = count(d.out, / \(unchanged\)$/);
  t.equal(folded(d.markers, 'files left unchanged', 'file left unchanged') + left, unchanged, 'every unchanged line is folded or shown, none lost');
  t.ok(left <= 2, 'only a run too short to pay for a marker stays');
});

t.test('--check is answers only: its [warn] lines and verdict come back as they were', async (t) => {
  const c = corpusCase('prettier-check');
  const d = await pipe(c);
  t.equal(d.distiller, 'prettier');
  t.equal(d.out, d.input);
});

t.test("a line that states a failure is never folded, whatever its shape; an [error] line stays", async (t) => {
  const lines = Array.from({ length: 16 }, (_, i) => `src/module${i}.ts ${i + 2}ms (unchanged)`);
  const input = [...lines.slice(0, 8), '[error] src/bad.ts: SyntaxError: Unexpected token (3:1)', ...lines.slice(8), ''].join('\n');
  const r = await distill(Buffer.from(input), { command: 'prettier --write src', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /^\[error\] src\/bad\.ts: SyntaxError: Unexpected token \(3:1\)$/m);
  t.equal((out.match(/\[omni: 8 files left unchanged folded/g) ?? []).length, 2);
});
