import t from 'tap';
import { corpusCase, count, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

t.test("ruff check: every finding's headline, location and help line stay; its excerpts fold where they stood", async (t) => {
  const d = await pipe(corpusCase('1193-ruff-check-exit-zero'));
  t.equal(d.distiller, 'ruff');
  t.same(keptAll(d, /^[A-Z]+\d+ |-->|^help:|^Found \d+ errors|fixable/), []);
  t.ok(d.markers.length >= 10, `${d.markers.length} markers`);
  t.ok(d.markers.every((m) => m === '1 excerpt folded'), d.markers.join('; '));
  // Each marker stands under its finding's location or its help line.
  d.lines.forEach((l, i) => { if (d.markers.length && /^\[omni: /.test(l)) t.match(d.lines[i - 1], /-->|^help:/); });
  t.ok(d.out.length < d.input.length * 0.75, `${d.input.length} -> ${d.out.length}`);
});

t.test('ruff: a syntax error keeps its excerpt, and so does every finding after it', async (t) => {
  const excerpt = ['  |', '1 | def parse_rows(text, *, strict = False, limit = None, encoding = "utf-8"):', '  |                                                                  ^', '2 |     return [row.split(",") for row in text.splitlines() if row.strip()]', '  |'];
  const input = [
    'F401 [*] `os` imported but unused', ' --> a.py:1:8', ...excerpt, '',
    'invalid-syntax: Expected an expression', ' --> a.py:1:9', ...excerpt, '',
    'F841 Local variable `x` is assigned to but never used', ' --> a.py:2:5', ...excerpt, '',
    'Found 3 errors.', '',
  ].join('\n');
  const r = await distill(input, { command: 'ruff check --exit-zero', door: 'pipe' });
  t.equal(r.distiller, 'ruff');
  t.equal(count(r.output.toString('utf8'), /def parse_rows/), 2, 'only the first finding\'s excerpt folds');
});
