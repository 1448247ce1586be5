import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';
import { MARKER_RE } from '../../lib/kit/marker.js';

const HEADLINE = /^\S+\.py:\d+:\d+: [A-Z]+\d+ /;

/** flake8 --show-source over long source lines: its excerpts are worth their markers. */
function report(codes: string[]): string {
  const lines: string[] = [];
  codes.forEach((c, i) => {
    lines.push(`./stockpile/store.py:${10 + i}:9: ${c} a finding that the headline names in full`);
    lines.push(`        result = sorted(self.items.items(), key=lambda kv: (kv[1], kv[0]))[: limit_${i}]`, '        ^');
  });
  return `${lines.join('\n')}\n`;
}

t.test("flake8 --show-source: every finding's headline stays; the source and caret lines under it fold", async (t) => {
  const input = report(['E231', 'F841', 'E501', 'W291']);
  const r = await distill(input, { command: 'flake8 --show-source --exit-zero', door: 'pipe' });
  t.equal(r.distiller, 'flake8');
  const out = r.output.toString('utf8');
  const lines = out.split('\n');
  for (const l of input.split('\n').filter((x) => HEADLINE.test(x))) t.ok(lines.includes(l), l);
  t.equal(count(out, /result = sorted|^\s*\^$/), 0, 'no excerpt line is left');
  t.equal(folded(lines.filter((l) => MARKER_RE.test(l)).map((l) => MARKER_RE.exec(l)![1]), 'excerpts', 'excerpt'), 4);
});

t.test("flake8: a file it could not parse (E999) keeps its excerpt, and so does every finding after it", async (t) => {
  const r = await distill(report(['E231', 'W291', 'E501', 'E999', 'F841']), { command: 'flake8 --show-source', door: 'pipe' });
  t.equal(r.distiller, 'flake8');
  t.equal(count(r.output.toString('utf8'), /result = sorted/), 2);
});

t.test("flake8's corpus run: every headline stays, and nothing grows", async (t) => {
  const d = await pipe(corpusCase('1194-flake8-show-source-exit-zero'));
  t.equal(d.distiller, 'flake8');
  t.same(keptAll(d, HEADLINE), []);
  t.ok(d.out.length <= d.input.length);
});
