/**
 * The rule checkers can fail: each one, given a real omni output it accepts, rejects the same
 * output broken the way its rule forbids (a dropped line, a moved marker, a grown output, a
 * marker without a handle, a false "already shown", ...). Without this a property that passes
 * could be a checker that never looks.
 */
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { openStore } from '../../lib/store/open.js';
import { putBlob } from '../../lib/store/archive.js';
import { formatMarker } from '../../lib/kit/marker.js';
import { corpusCase } from '../helpers/cases.js';
import { closeStores, pipeBuffered, retrieverFor, propHome } from '../helpers/doors.js';
import { holds } from '../helpers/property.js';
import {
  checkFailuresKept, checkHandles, checkIdentical, checkLedger, checkNotLarger, checkNothingLost, checkReadNumbering, markersIn, shownKeys, splitLines,
} from '../helpers/markers.js';

t.teardown(closeStores);
const home = propHome();
const retrieve = retrieverFor(home);
const lines = (b: Buffer) => splitLines(b).map((l) => Buffer.concat([l.body, Buffer.from(l.eol)]));
const join = (ls: Buffer[]) => Buffer.concat(ls);
const markerLines = (b: Buffer) => lines(b).map((l, i) => [l, i] as const).filter(([l]) => l.toString().startsWith('[omni:')).map(([, i]) => i);

t.test('P1 catches a dropped line, a moved marker, a wrong handle and a marker glued to a line', async (t) => {
  const c = corpusCase('501-jest-verbose-pass');
  const out = await pipeBuffered(c.output, { command: c.cmd, home });
  t.equal(checkNothingLost(c.output, out, retrieve), null, 'the real output passes');
  const ls = lines(out);
  const ms = markerLines(out);
  t.ok(ms.length >= 2, 'it has fold markers');
  const text = ls.findIndex((l, i) => !ms.includes(i) && l.length > 10);
  t.ok(checkNothingLost(c.output, join(ls.filter((_, i) => i !== text)), retrieve), 'a dropped line is caught');
  const moved = [...ls];
  const [m] = moved.splice(ms[0], 1);
  moved.push(m);
  t.ok(checkNothingLost(c.output, join(moved), retrieve), 'a marker moved to the end is caught');
  const swapped = [...ls];
  [swapped[ms[0]], swapped[ms[1]]] = [swapped[ms[1]], swapped[ms[0]]];
  t.ok(checkNothingLost(c.output, join(swapped), retrieve), 'two markers swapped are caught');
  const glued = [...ls];
  glued[ms[0] - 1] = Buffer.from(glued[ms[0] - 1].toString().replace(/\n$/, ''));
  t.ok(checkNothingLost(c.output, join(glued), retrieve), 'a marker glued to the line before it is caught');
  const other = markersIn(out)[1].handle;
  const wrong = [...ls];
  wrong[ms[0]] = Buffer.from(wrong[ms[0]].toString().replace(/[0-9a-f]{16}\]/, `${other}]`));
  t.ok(checkNothingLost(c.output, join(wrong), retrieve), 'a marker naming another run is caught');
});

t.test('P1 with a whole-input handle: normalised lines pass, a fold hiding lines from several places does not', async (t) => {
  const c = corpusCase('059-git-log-graph-color');
  const out = await pipeBuffered(c.output, { command: c.cmd, home });
  t.match(out.toString(), /whole output — omni retrieve/, 'colour removed, with a whole-output handle');
  t.equal(checkNothingLost(c.output, out, retrieve), null, 'the real output passes');
  // A fold that hides lines 2 and 4 (not contiguous), printed where line 2 stood.
  const inLines = lines(c.output);
  const s = openStore({ home });
  const h = putBlob(s, Buffer.concat([inLines[1], inLines[3]]));
  s.close();
  const ls = lines(out);
  ls.splice(1, 1, Buffer.from(formatMarker('2 lines folded', h) + '\n'));
  ls.splice(3, 1);
  t.match(checkNothingLost(c.output, join(ls), retrieve) ?? '', /not one contiguous run/, 'a fold of lines from several places is caught');
  // Without the whole-input handle, stripped colour is a loss.
  const noWhole = lines(out).filter((l) => !/whole output/.test(l.toString()));
  t.ok(checkNothingLost(c.output, join(noWhole), retrieve), 'normalised lines without a whole-input handle are caught');
});

t.test('P1 with a whole-input handle still catches a fold moved away from its run', async (t) => {
  const c = corpusCase('757-cjson-cmake-configure');
  const out = await pipeBuffered(c.output, { command: c.cmd, home });
  t.match(out.toString(), /whole output — omni retrieve/, 'a whole-output handle');
  t.equal(checkNothingLost(c.output, out, retrieve), null, 'the real output passes');
  const ls = lines(out);
  const first = markerLines(out)[0];
  const moved = [...ls];
  const [m] = moved.splice(first, 1);
  moved.splice(moved.length - 1, 0, m);
  t.match(checkNothingLost(c.output, join(moved), retrieve) ?? '', /stands away/, 'the moved fold is caught');
});

t.test('P2 catches a grown output', async (t) => {
  const input = Buffer.from('a\nb\n');
  t.equal(checkNotLarger(input, input), null);
  t.ok(checkNotLarger(input, Buffer.from('a\nb\nc')), 'one byte more is caught');
});

t.test('P3 catches a lost or cut failure line and a receipt when nothing was removed', async (t) => {
  const c = corpusCase('002-jest-fail');
  t.equal(checkFailuresKept(c.output, c.output, retrieve), null, 'the raw bytes pass');
  const ls = lines(c.output);
  const fail = ls.findIndex((l) => l.toString().startsWith('FAIL '));
  t.ok(checkFailuresKept(c.output, join(ls.filter((_, i) => i !== fail)), retrieve), 'a dropped FAIL line is caught');
  const cut = [...ls];
  cut[fail] = Buffer.from(cut[fail].toString().slice(0, 8) + '\n');
  t.ok(checkFailuresKept(c.output, join(cut), retrieve), 'a cut FAIL line is caught');
  const s = openStore({ home });
  const h = putBlob(s, c.output, { kind: 'raw' });
  s.close();
  const receipt = Buffer.concat([c.output, Buffer.from(formatMarker('exit 1: output was condensed while streaming; full output', h) + '\n')]);
  t.match(checkFailuresKept(c.output, receipt, retrieve) ?? '', /nothing was removed/, 'a receipt on the raw bytes is caught');
});

t.test('P4 and P5 catch one changed byte', async (t) => {
  const a = Buffer.from('{"a": 1}\n');
  t.equal(checkIdentical(a, Buffer.from(a)), null);
  t.ok(checkIdentical(a, Buffer.from('{"a": 2}\n')), 'a changed byte is caught');
  t.ok(checkIdentical(a, a.subarray(0, -1)), 'a missing byte is caught');
});

t.test('P6 catches a marker without a handle and a handle that retrieves nothing', async (t) => {
  const c = corpusCase('501-jest-verbose-pass');
  const out = await pipeBuffered(c.output, { command: c.cmd, home });
  t.equal(checkHandles(out, retrieve), null, 'the real output passes');
  t.ok(checkHandles(Buffer.concat([out, Buffer.from('[omni: lines 1-400 not shown]\n')]), retrieve), 'a marker without a handle is caught');
  t.ok(checkHandles(Buffer.concat([out, Buffer.from(formatMarker('3 lines folded', 'deadbeefdeadbeef') + '\n')]), retrieve), 'an unknown handle is caught');
  // A note may quote a line holding `]`: the marker still ends at its handle.
  const s = openStore({ home });
  const h = putBlob(s, Buffer.from('(pass) a > b [0.02ms]\n'));
  s.close();
  t.equal(checkHandles(Buffer.from(formatMarker('2 lines like "(pass) a > b [0.01ms]" folded', h) + '\n'), retrieve), null, 'a quote with a ] in it is a marker with its handle');
  t.ok(checkHandles(Buffer.from('[omni: 2 lines like "(pass) a > b [0.01ms]" folded]\n'), retrieve), 'and without its handle it is caught');
});

t.test('P7 catches "already shown" over a line the reader never got', async (t) => {
  const run = Buffer.from(['alpha one', 'beta two', 'gamma three'].join('\n') + '\n');
  const s = openStore({ home });
  const h = putBlob(s, run);
  s.close();
  const out = Buffer.from(`head\n${formatMarker('3 lines already shown', h)}\n`);
  t.equal(checkLedger(out, retrieve, shownKeys('alpha one\nbeta two\n  gamma three'), new Set()), null, 'lines delivered before pass');
  t.ok(checkLedger(out, retrieve, shownKeys('alpha one\nbeta two'), new Set()), 'a line never delivered is caught');
  t.ok(checkLedger(out, retrieve, new Set(), shownKeys(run)), 'lines only another session saw are not "already shown"');
});

t.test('Read numbering catches a line under the wrong number', async (t) => {
  const content = ['l1', 'l2', 'l3', 'l4'].join('\n');
  t.equal(checkReadNumbering(content, 1, '[omni: lines 1-2 not shown] [omni: x — omni retrieve 0000000000000000]\nl3\nl4', 2), null, 'a head fold numbered right passes');
  t.ok(checkReadNumbering(content, 1, '[omni: x — omni retrieve 0000000000000000]\nl3\nl4', 1), 'a shifted tail is caught');
  t.ok(checkReadNumbering(content, 1, '[omni: x — omni retrieve 0000000000000000]\nl3\nl4\n', 2), 'a line past the end is caught');
});

t.test('a failing property reports its shrunk counterexample in the assertion', async (t) => {
  const seen: string[] = [];
  const fake = { pass: (m: string) => seen.push(`pass ${m}`), fail: (m: string) => seen.push(`fail ${m}`), comment: () => {} } as unknown as Test;
  await holds(fake, 'over ten', fc.integer({ min: 0, max: 1000 }), (n) => (n > 10 ? `${n} is over ten` : null), { numRuns: 200 });
  t.equal(seen.length, 1, 'one assertion');
  t.match(seen[0], /^fail over ten: 11 is over ten \| counterexample \(after \d+ shrinks, seed \d+\): 11$/, 'shrunk to the smallest failing input, named in the message');
  seen.length = 0;
  await holds(fake, 'small', fc.integer({ min: 0, max: 10 }), (n) => (n > 10 ? 'over' : null), { numRuns: 20 });
  t.match(seen[0], /^pass small: holds on 20 generated inputs/, 'a holding property passes');
});
