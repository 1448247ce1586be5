import t from 'tap';
import { Spool } from '../../lib/pipeline/spool.js';

/** Bytes whose value says where they stood, so any slip shows. */
const stream = (n: number) => {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >> 8)) & 0xff;
  return b;
};

t.test('a range crossing the kept head and the rest comes back exactly', async (t) => {
  const input = stream(10_000);
  const spool = new Spool(4096);
  for (let i = 0; i < input.length; i += 700) spool.push(input.subarray(i, i + 700));
  for (const [from, to] of [[4000, 4200], [0, 10_000], [4095, 4097], [4096, 9999], [3000, 8000], [4096, 4096], [9999, 10_000]]) {
    const got = spool.slice(from, to);
    t.ok(got.equals(input.subarray(from, to)), `[${from}, ${to})`);
  }
  t.ok(spool.truncated, 'past the cap');
  t.ok(spool.all().equals(input.subarray(0, 4096)), 'all() is the head');
});

t.test('bytes not yet released are kept however far past the cap they are', async (t) => {
  const input = stream(64 << 10);
  const spool = new Spool(1024);
  for (let i = 0; i < input.length; i += 333) spool.push(input.subarray(i, i + 333));
  // Nothing released: everything is still there (a 4 MiB rolling window used to drop it).
  t.ok(spool.slice(1000, input.length).equals(input.subarray(1000)), 'head + window, one slice');
  spool.release(30_000);
  t.ok(spool.slice(30_000, 40_000).equals(input.subarray(30_000, 40_000)), 'from the release point on');
  t.ok(spool.slice(100, 900).equals(input.subarray(100, 900)), 'the head is never released');
  t.ok(spool.kept() <= 1024 + (input.length - 30_000) + 333, `only the head and the unreleased bytes are held (${spool.kept()})`);
});

t.test('a released range fails loudly instead of coming back short', async (t) => {
  const input = stream(20_000);
  const spool = new Spool(1000);
  for (let i = 0; i < input.length; i += 500) spool.push(input.subarray(i, i + 500));
  spool.release(15_000);
  t.throws(() => spool.slice(2000, 16_000), /released/);
});

t.test('a long head: exact bytes across the point where it is kept in one buffer', async (t) => {
  const input = stream((6 << 20) + 12_345);
  const spool = new Spool(4 << 20);
  // Odd chunk sizes, so chunks straddle the 1 MiB join point and the 4 MiB cap.
  for (let i = 0, k = 0; i < input.length; k++) { const n = 40_000 + ((k * 7919) % 50_000); spool.push(input.subarray(i, i + n)); i += n; }
  for (const [from, to] of [[0, 10], [(1 << 20) - 5, (1 << 20) + 5], [0, 4 << 20], [(4 << 20) - 3, (4 << 20) + 3], [123_456, 5_000_000], [0, input.length]]) {
    t.ok(spool.slice(from, to).equals(input.subarray(from, to)), `[${from}, ${to})`);
  }
  t.ok(spool.all().equals(input.subarray(0, 4 << 20)), 'all() is the head');
});

t.test('the end of a long run joins nothing: all() is the head already kept, not a copy of it', async (t) => {
  // A streamed run's closing receipt archives all(): joining the head there held it twice at
  // the run's peak (8 MiB more RSS on a long `omni pipe`).
  const input = stream(3 << 20);
  const spool = new Spool(8 << 20);
  for (let i = 0; i < input.length; i += 64 << 10) spool.push(input.subarray(i, i + (64 << 10)));
  const early = spool.slice(0, 16);
  const all = spool.all();
  t.ok(all.equals(input), 'the whole input');
  t.equal(all.buffer, early.buffer, 'the same memory as a slice taken before the end');
  // A short payload (a hook's) keeps its chunks as they came.
  const small = new Spool(8 << 20);
  const one = stream(20_000);
  small.push(one);
  t.equal(small.all(), one, 'one chunk, uncopied');
});

t.test('past the head the spool keeps its own copy, and a slice stays as it was taken', async (t) => {
  // The bytes past the head live in one window the run reuses, not in the chunks as they came
  // (a chunk held across two young-generation collections is promoted, and piles up dead).
  const input = stream(3 << 20);
  const spool = new Spool(4096);
  const reused = Buffer.alloc(50_000);
  const slices: Array<[number, Buffer]> = [];
  for (let i = 0; i < input.length; i += reused.length) {
    const n = Math.min(reused.length, input.length - i);
    input.copy(reused, 0, i, i + n);
    spool.push(reused.subarray(0, n));
    // The caller writes over its buffer: what the spool holds must not change with it.
    reused.fill(0);
    if (i >= 200_000) {
      const from = i - 150_000;
      slices.push([from, spool.slice(from, from + 100_000)]);
      spool.release(from);
    }
  }
  t.ok(spool.slice(input.length - 150_000, input.length).equals(input.subarray(input.length - 150_000)), 'the unreleased bytes, exactly');
  t.ok(slices.every(([from, s]) => s.equals(input.subarray(from, from + 100_000))), `${slices.length} slices taken along the way are unchanged`);
});
