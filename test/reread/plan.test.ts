/**
 * What a re-read is answered with (lib/reread/plan.ts), as pure functions of the reader's views
 * and the read: which view answers, when an "unchanged" claim is unsafe, where the window is,
 * and the numbers the host will put in front of each line of the reply.
 */
import t from 'tap';
import { planReread, renderReread, type FileView, type RereadPlan } from '../../lib/reread/plan.js';
import { fileRead, numberedLines, rebuild } from '../helpers/reread.js';

const AT = Date.UTC(2026, 11, 1, 17, 3, 12);
const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}: some text of the file`);
const file = (ls: string[], eol = true) => ls.join('\n') + (eol ? '\n' : '');
const view = (text: string, from = 1, count = Infinity, at = AT, kind: FileView['kind'] = 'shown'): FileView => ({ ...fileRead(text, from, count), at, kind });
const H = '0123456789abcdef';
const answered = (p: RereadPlan) => {
  if (p.kind === 'none') throw new Error(`none: ${p.why}`);
  return p;
};

t.test('unchanged: the whole file, a part of a whole read, the same part', async (t) => {
  const A = file(lines(50));
  const whole = answered(planReread([view(A)], fileRead(A)));
  t.same(renderReread(whole, fileRead(A), H), { content: `[omni: lines 1-50: unchanged since you read them at 17:03:12 — omni retrieve ${H}]`, startLine: 50 }, 'the empty line after the last newline is not named');
  const part = answered(planReread([view(A)], fileRead(A, 20, 5)));
  t.same(renderReread(part, fileRead(A, 20, 5), H), { content: `[omni: lines 20-24: unchanged since you read them at 17:03:12 — omni retrieve ${H}]`, startLine: 24 });
  const one = answered(planReread([view(A)], fileRead(A, 7, 1)));
  t.same(renderReread(one, fileRead(A, 7, 1), H).content, `[omni: line 7: unchanged since you read it at 17:03:12 — omni retrieve ${H}]`, 'one line');
  t.equal(planReread([view(A, 20, 5)], fileRead(A, 20, 5)).kind, 'unchanged', 'the same part twice');
  t.equal(planReread([view(A, 20, 5)], fileRead(A, 18, 5)).kind, 'none', 'a part not all of which was shown');
  t.equal(planReread([view(A, 1, 20)], fileRead(A)).kind, 'none', 'a whole file after its head only: the line ledger\'s business');
});

t.test('the newest view that covers the read answers, and a later part that saw other lines makes "unchanged" unsafe', async (t) => {
  const A = file(lines(50));
  const B = file(lines(50).map((l, i) => (i === 30 ? 'changed' : l)));
  const older = view(A, 1, Infinity, AT);
  const later = view(B, 25, 10, AT + 60_000);
  t.equal(planReread([later, older], fileRead(A)).kind, 'none', 'A, then B seen in part, then A again: no claim');
  const p = answered(planReread([later, older], fileRead(B)));
  t.equal(p.kind, 'changed', 'B whole after A whole and B in part: a diff against A');
  t.equal(p.since, AT, 'against the view that covers it, read at its time');
  const marker = view(A, 1, Infinity, AT + 1, 'marker');
  t.equal(planReread([marker, older], fileRead(A)).kind, 'none', 'asked again right after the marker');
  t.equal(planReread([marker, older], fileRead(A, 10, 5)).kind, 'unchanged', 'another part after the marker is still answered');
});

t.test('the window: at the top, at the end, a deletion, a changed final newline', async (t) => {
  const A = lines(40);
  const check = (label: string, B: string, expect: RegExp, startLine?: number) => {
    const p = answered(planReread([view(file(A))], fileRead(B)));
    const r = renderReread(p, fileRead(B), H);
    t.match(r.content.split('\n')[0], expect, `${label}: ${r.content.split('\n')[0]}`);
    if (startLine !== undefined) t.equal(r.startLine, startLine, `${label}: numbered from ${startLine}`);
    const rb = rebuild(numberedLines(file(A), 1), r, () => null);
    t.same(rb.problems, [], `${label}: reads back`);
    t.same([...numberedLines(B, 1)].filter(([n, l]) => rb.lines.get(n) !== l), [], `${label}: every line`);
  };
  check('a new first line', file(['new first', ...A]), /^\[omni: changed since you read it at 17:03:12: lines 1-2 below replace your line 1; whole file — /, 0);
  check('a changed last line', file([...A.slice(0, -1), 'new last']), /^\[omni: changed since you read it at 17:03:12: lines 1-38 as you read them, lines 39-41 below replace your lines 39-41; whole file — /, 38);
  check('two lines removed', file([...A.slice(0, 10), ...A.slice(12)]), /: lines 1-9 as you read them, lines 10-11 below replace your lines 10-13; whole file — /, 9);
  check('no newline at the end any more', file(A, false), /: lines 1-39 as you read them, line 40 below replaces your lines 40-41; whole file — /, 39);
});

t.test('a part read after lines moved above it', async (t) => {
  const A = file(lines(100));
  const B = file([...lines(100).slice(0, 5), 'import os', 'import sys', ...lines(100).slice(5)]);
  const same = answered(planReread([view(A)], fileRead(B, 32, 20)));
  t.match(renderReread(same, fileRead(B, 32, 20), H).content, /^\[omni: lines 32-51: unchanged since you read them at 17:03:12 \(then lines 30-49\) — /);
  const edited = file([...lines(100).slice(0, 5), 'import os', 'import sys', ...lines(100).slice(5, 40), 'edited', ...lines(100).slice(41)]);
  const r = renderReread(answered(planReread([view(A)], fileRead(edited, 32, 20))), fileRead(edited, 32, 20), H);
  t.match(r.content.split('\n')[0], /^\[omni: changed since you read it at 17:03:12: lines 32-41 are your lines 30-39 as you read them, lines 42-44 below replace your lines 40-42; lines 32-51 in full — /);
  const rb = rebuild(numberedLines(A, 1), r, () => null);
  t.same(rb.problems, []);
  t.same([...numberedLines(fileRead(edited, 32, 20).content, 32)].filter(([n, l]) => rb.lines.get(n) !== l), []);
});
