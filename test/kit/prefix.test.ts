import t from 'tap';
import { bodyOf, Prefixes, prefixOf } from '../../lib/kit/prefix.js';
import { classify } from '../../lib/pipeline/classify.js';
import { RunState } from '../../lib/kit/stage.js';
import type { Batch, Line } from '../../lib/kit/types.js';

const line = (text: string, index = 0): Line => ({ kind: 'line', text, eol: '\n', tier: 'text', index, end: 0 });

/** Each text's prefix as a fresh run's Prefixes reads it, in order. */
function prefixes(texts: string[]): string[] {
  const p = new Prefixes();
  return texts.map((s, i) => {
    const l = line(s, i);
    l.plain = s;
    p.mark(l, s);
    return prefixOf(l);
  });
}

t.test('a driver\'s prefix is read once the driver announced it, and only then', async (t) => {
  t.same(prefixes([
    '@shop/web:test: PASS a.test.js', // before turbo announced the task: not a prefix yet
    '@shop/web:test: cache miss, executing 1a2b3c4d',
    '@shop/web:test: PASS a.test.js',
    '@shop/web:test:',
    '@shop/api:test: ok 1 - x',
  ]), ['', '@shop/web:test: ', '@shop/web:test: ', '@shop/web:test:', '']);
  t.same(prefixes([
    'packages/a test$ node --test',
    'packages/a test: ok 1 - adds',
    'packages/a test: Done',
    'packages/b test: ok 1 - adds',
  ]), ['', 'packages/a test: ', 'packages/a test: ', '']);
  t.same(prefixes(['web:build: cache hit, replaying logs 9f', 'web:build:   built dist/a.js']), ['web:build: ', 'web:build: ']);
});

t.test('a word and a colon alone are no prefix', async (t) => {
  t.same(prefixes(['Tests: 3 passed', 'src/a.c:12: warning: unused', 'Test Suites: 1 passed', 'a:b: c', '[gw0] [ 50%] PASSED t.py::x']), ['', '', '', '', '']);
});

t.test("valgrind's own lines carry its pid prefix wherever they stand", async (t) => {
  t.same(prefixes(['==123== Invalid read of size 4', '==123==', 'round 1 total 12', '--123-- Reading syms', '**9** crash']), ['==123== ', '==123==', '', '--123-- ', '**9** ']);
});

t.test('bodyOf is the line after its prefix', async (t) => {
  const l = line('@w:test: # pass 3');
  l.plain = l.text;
  l.prefix = '@w:test: '.length;
  t.equal(bodyOf(l), '# pass 3');
  t.equal(bodyOf(line('plain')), 'plain');
});

t.test('classify judges a prefixed line by what follows its prefix', async (t) => {
  const texts = ['@s/a:test: cache miss, executing 1', '@s/a:test: not ok 3 - adds', '@s/a:test: # fail 1', '@s/a:test: ', '==7==    at 0x1: f (a.c:2)', 'b:test: cache hit, replaying logs 2', 'b:test: not ok 3 - adds'];
  const got: Line[] = [];
  const stage = classify(new RunState());
  stage.on('data', (b: Batch) => { for (const it of b.items) if (it.kind === 'line') got.push(it); });
  stage.end({ items: texts.map(line).map((l, i) => ({ ...l, index: i })), end: 0 });
  await new Promise((r) => stage.on('end', r));
  t.same(got.map((l) => l.tier), ['text', 'failure', 'failure', 'noise', 'text', 'text', 'failure'], 'anchored patterns meet the producer\'s line');
  t.equal(got[1].text, '@s/a:test: not ok 3 - adds', 'the line itself is whole');
});
