/**
 * The corpus is written by one harness (corpus/capture.mjs) from rows (corpus/rows/): a case is
 * a row and a fixture. The stored cases cannot all be captured again here (the npm registry,
 * Debian's archive, the projects they were built from), so the proof that the rows are the
 * cases is taken from what is stored: the row's keep steps over the stored output.txt give the
 * stored must_keep.txt to the byte, and its command, kind and family are the stored ones.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/omni.js';
import { mustKeep, mustKeepFile, nextId, idNumber, lit, re, notInOutput } from '../corpus/keep.mjs';
import { ROWS } from '../corpus/rows/index.mjs';

const CASES = join(ROOT, 'corpus', 'cases');
const folders = readdirSync(CASES).filter((d) => existsSync(join(CASES, d, 'output.txt'))).sort();
const byId = new Map(ROWS.map((r) => [r.id, r]));
const read = (id: string, f: string) => readFileSync(join(CASES, id, f), 'utf8');

t.test('every case folder has a row and every row a folder, one id each', async (t) => {
  t.ok(ROWS.length >= 256, `${ROWS.length} rows`);
  t.same(folders.filter((d) => !byId.has(d)), [], 'folders without a row');
  t.same(ROWS.map((r) => r.id).filter((id) => !folders.includes(id)), [], 'rows without a folder');
  t.equal(new Set(ROWS.map((r) => r.id)).size, ROWS.length, 'ids are unique');
  t.equal(new Set(ROWS.map((r) => idNumber(r.id))).size, ROWS.length, 'id numbers are unique');
});

t.test('the keep steps over the stored output give the stored must_keep.txt, byte for byte', async (t) => {
  const differ: string[] = [];
  for (const id of folders) {
    const row = byId.get(id);
    if (!row) continue;
    const got = mustKeepFile(mustKeep(readFileSync(join(CASES, id, 'output.txt')), row.keep, row.dialect));
    if (got !== read(id, 'must_keep.txt')) differ.push(id);
  }
  t.same(differ, [], `${folders.length} cases`);
});

t.test('every must-keep line is a byte substring of its output', async (t) => {
  const bad: string[] = [];
  for (const id of folders) {
    const out = readFileSync(join(CASES, id, 'output.txt'));
    for (const s of notInOutput(out, read(id, 'must_keep.txt').split('\n'))) bad.push(`${id}: ${s.slice(0, 60)}`);
  }
  t.same(bad, []);
});

t.test('a row states its case: command, kind and family as stored', async (t) => {
  // {T}, {SCRATCH}, {HOME} are the capture's scratch dirs; {rev}, {time} a value the row's
  // cmdFrom reads at capture time (a commit hash, npm's log file name).
  const pattern = (cmd: string) => new RegExp(`^${cmd.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(T|SCRATCH|HOME|rev|time)\}/g, '.+')}$`, 's');
  const bad: string[] = [];
  for (const id of folders) {
    const row = byId.get(id);
    if (!row) continue;
    if (!pattern(row.cmd).test(read(id, 'cmd.txt'))) bad.push(`${id}: cmd ${row.cmd}`);
    if (read(id, 'kind.txt') !== row.kind) bad.push(`${id}: kind ${row.kind}`);
    if (read(id, 'family.txt') !== row.family) bad.push(`${id}: family ${row.family}`);
    if (row.about && existsSync(join(CASES, id, 'about.txt')) && !read(id, 'about.txt').includes(row.about)) bad.push(`${id}: about`);
  }
  t.same(bad, []);
});

t.test('every case from 1000 on says what it exercises', async (t) => {
  t.same(ROWS.filter((r) => idNumber(r.id) >= 1000 && !(r.about && r.about.length > 40)).map((r) => r.id), []);
});

t.test('the checker: ANSI-free pieces, one line each, the k group, literals', async (t) => {
  const out = Buffer.from('PASS a\n\x1b[31mFAIL\x1b[0m b.js:3\nPASS a\nok  x:1: y\n');
  t.same(mustKeep(out, [re('PASS', 'FAIL'), lit('x:1')]), ['PASS a', 'FAIL', 'b.js:3', 'x:1']);
  t.same(mustKeep(out, [re('^ok +(?P<k>\\S+:\\d+)')]), ['x:1']);
  t.same(mustKeep(out, [re('(?i)pass')], 'grep'), ['PASS a', 'PASS a'], 'the grep dialect keeps repeats');
});

t.test('ids: the next free number of a named range, four digits above 999', async (t) => {
  t.equal(nextId('fresh2', []), 850);
  t.equal(nextId('ecosystems', ['1000-a', '1001-b', 1003]), 1002);
  t.throws(() => nextId('fresh2', Array.from({ length: 50 }, (_, i) => 850 + i)), /full/);
  t.throws(() => nextId('nope', []), /unknown/);
});
