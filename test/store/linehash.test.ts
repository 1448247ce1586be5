import t from 'tap';
import { lineHash, packHashes, ShownSet, SortedHashSet } from '../../lib/store/linehash.js';

function pairsOf(lines: string[]): Uint32Array {
  const p = new Uint32Array(lines.length * 2);
  const h = new Uint32Array(2);
  lines.forEach((l, i) => {
    lineHash(l, h);
    p[i * 2] = h[0];
    p[i * 2 + 1] = h[1];
  });
  return p;
}

t.test('line hashes are 64-bit, stable and differ for near-identical lines', async (t) => {
  const h = new Uint32Array(2);
  lineHash('TypeError: x is not a function', h);
  const a = [...h];
  lineHash('TypeError: x is not a function', h);
  t.same([...h], a);
  lineHash('TypeError: y is not a function', h);
  t.notSame([...h], a);
  const seen = new Set<string>();
  for (let i = 0; i < 100000; i++) {
    lineHash(`line ${i}`, h);
    seen.add(`${h[0]}:${h[1]}`);
  }
  t.equal(seen.size, 100000, 'no collisions among 100k lines');
});

t.test('the sorted set finds exactly the packed hashes, across several blobs', async (t) => {
  const a = Array.from({ length: 3000 }, (_, i) => `a ${i}`);
  const b = Array.from({ length: 5000 }, (_, i) => `b ${i}`);
  const set = new SortedHashSet([packHashes(pairsOf(a), a.length), packHashes(pairsOf(b), b.length)]);
  t.equal(set.size, 8000);
  const probe = (l: string) => {
    const p = pairsOf([l]);
    return set.has(p[0], p[1]);
  };
  t.ok(a.every(probe) && b.every(probe), 'every member found');
  t.notOk(['c 1', 'a 3000', 'b -1', ''].some(probe), 'non-members not found');
});

t.test('the sorted set keeps the newest hashes when over its cap', async (t) => {
  const newest = ['n1', 'n2'];
  const oldest = ['o1', 'o2'];
  const set = new SortedHashSet([packHashes(pairsOf(newest), 2), packHashes(pairsOf(oldest), 2)], 3);
  t.equal(set.size, 3);
  const has = (l: string) => {
    const p = pairsOf([l]);
    return set.has(p[0], p[1]);
  };
  t.same([has('n1'), has('n2'), has('o1'), has('o2')], [true, true, true, false]);
});

t.test('the open-addressing set is bounded: adds past capacity are refused', async (t) => {
  const s = new ShownSet(4);
  const p = pairsOf(['a', 'b', 'c', 'd', 'e']);
  const added = [0, 1, 2, 3, 4].map((i) => s.add(p[i * 2], p[i * 2 + 1]));
  t.same(added, [true, true, true, true, false]);
  t.equal(s.size, 4);
  t.equal(s.add(p[0], p[1]), false, 'a duplicate is not new');
  t.ok(s.has(p[6], p[7]));
  t.notOk(s.has(p[8], p[9]));
});

t.test('a packed blob read at an unaligned offset gives the same set', async (t) => {
  const lines = ['x', 'y', 'z'];
  const packed = packHashes(pairsOf(lines), 3);
  const shifted = Buffer.alloc(packed.length + 1);
  packed.copy(shifted, 1);
  const s = new ShownSet(8);
  s.addPacked(shifted.subarray(1));
  t.equal(s.size, 3);
  const sorted = new SortedHashSet([shifted.subarray(1)]);
  const p = pairsOf(['y']);
  t.ok(sorted.has(p[0], p[1]));
});
