import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

const FRAME = /^ *(> +)?(\d+ +)*│/;

t.test("biome lint with warnings: every header, message, note and the verdict stay; each code frame folds where it stood", async (t) => {
  const d = await pipe(corpusCase('1195-biome-lint-warnings'));
  t.equal(d.distiller, 'biome');
  t.same(keptAll(d, /^src\/\S+:\d+:\d+ lint\/|^ {2}[!×i] |^Checked \d+ files|^Found \d+ warnings/), []);
  t.equal(count(d.out, FRAME), 0, 'no code frame line is left');
  // One marker per frame: a frame is a run of gutter lines between two of biome's other lines.
  const frames = d.input.split('\n').filter((l, i, a) => FRAME.test(l) && !FRAME.test(a[i - 1] ?? '')).length;
  t.equal(folded(d.markers, 'code frames', 'code frame'), frames);
  t.ok(d.out.length < d.input.length * 0.7, `${d.input.length} -> ${d.out.length}`);
});

t.test('biome: an error keeps its code frame, and so does every finding after it', async (t) => {
  const frame = ['  ', '    1 │ export function discount(price, code) {', '  > 2 │   if (code == "SPRING") return price * 0.9 + shippingFeeFor(code);', '      │            ^^', '    3 │ }', '  '];
  const finding = (sign: string, n: number) => [`src/d.js:${n}:12 lint/suspicious/noDoubleEquals  FIXABLE  ${'━'.repeat(30)}`, '', `  ${sign} Use === instead of ==`, ...frame, ''];
  const input = [...finding('!', 1), ...finding('×', 2), ...finding('!', 3), 'Checked 1 file in 2ms. No fixes applied.', 'Found 1 error.', 'Found 2 warnings.', ''].join('\n');
  const r = await distill(input, { command: 'npx biome lint src', door: 'pipe' });
  t.equal(r.distiller, 'biome');
  t.equal(count(r.output.toString('utf8'), /shippingFeeFor/), 2, "only the first warning's frame folds");
});

t.test('an npx-versioned package routes to its tool (`npx -y @biomejs/biome@1.9.4` is biome)', async (t) => {
  const r = await distill('Checked 1 file in 2ms. No fixes applied.\n', { command: 'npx -y @biomejs/biome@1.9.4 lint src', door: 'pipe' });
  t.equal(r.distiller, 'biome');
});
