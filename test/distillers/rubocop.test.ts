import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';
import { MARKER_RE } from '../../lib/kit/marker.js';

const HEADLINE = /^\S+\.rb:\d+:\d+: [CWRIEF]: /;

/** A rubocop report of long source lines: its excerpts are worth their markers. */
function report(severities: string[]): string {
  const lines = ['Inspecting 1 file', 'C', '', 'Offenses:', ''];
  severities.forEach((s, i) => {
    const src = `      result = ledger.entries.select { |entry| entry.memo == memo && entry.amount > threshold_${i} }.first`;
    lines.push(`lib/ledger/book.rb:${10 + i}:7: ${s}: Style/Example${i}: A message about this offence that the headline carries.`, src, `      ${'^'.repeat(src.length - 6)}`);
  });
  lines.push('', `1 file inspected, ${severities.length} offenses detected`, '');
  return lines.join('\n');
}

t.test("rubocop: every offence's headline and the summary stay; a convention or warning's excerpt folds where it stood", async (t) => {
  const input = report(['C', 'W', 'C', 'R', 'C']);
  const r = await distill(input, { command: 'rubocop --fail-level E', door: 'pipe' });
  t.equal(r.distiller, 'rubocop');
  const out = r.output.toString('utf8');
  const lines = out.split('\n');
  for (const l of input.split('\n').filter((x) => HEADLINE.test(x) || /inspected|^Offenses:|^Inspecting/.test(x))) t.ok(lines.includes(l), l);
  t.equal(count(out, /^\s*\^+$|result = ledger/), 0, 'no source or caret line is left');
  const markers = lines.filter((l) => MARKER_RE.test(l)).map((l) => MARKER_RE.exec(l)![1]);
  t.equal(folded(markers, 'excerpts', 'excerpt'), 5);
  // Each marker stands right under its headline.
  lines.forEach((l, i) => { if (MARKER_RE.test(l)) t.match(lines[i - 1], HEADLINE); });
});

t.test('rubocop: an error offence keeps its excerpt, and so does every offence after it', async (t) => {
  const input = report(['C', 'E', 'C', 'W']);
  const r = await distill(input, { command: 'rubocop --fail-level F', door: 'pipe' });
  t.equal(r.distiller, 'rubocop');
  const out = r.output.toString('utf8');
  t.equal(count(out, /result = ledger/), 3, 'only the first (convention) excerpt folds');
  t.equal(count(out, /^\s*\^+$/), 3);
});

t.test("rubocop's corpus runs: every headline, the progress row and the summary stay, and nothing grows", async (t) => {
  for (const name of ['1190-rubocop-fail-level-e-conventions', '1191-rubocop-clang-format', '1192-rubocop-simple-format']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'rubocop', name);
    t.same(keptAll(d, /^\S+\.rb:\d+:\d+: [CWRIEF]: |^[CWRIEF]: +\d+: +\d+: |files? inspected/), [], name);
    t.ok(d.out.length <= d.input.length, name);
  }
});
