import t from 'tap';
import { Spool } from '../../lib/pipeline/spool.js';

/** Bytes whose value says where they stood, so any slip shows. */
const stream = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + (i >> 8)) & 0xff));

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
