import t from 'tap';
import fc from 'fast-check';
import { BlockCutter, BLOCK_BYTES } from '../../lib/pipeline/blocks.js';
import { createPipeline } from '../../lib/pipeline/create.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { tempHome } from '../helpers/omni.js';
import { corpusCase } from '../distillers/cases.js';

const RUNS = Number(process.env.OMNI_PROPERTY_RUNS) || 40;

/** The offsets in the stream where `cut`'s pieces end. */
function ends(sizes: number[], flushAt: Set<number> = new Set()): { ends: number[]; bytes: Buffer } {
  const c = new BlockCutter();
  const out: Buffer[] = [];
  const at: number[] = [];
  let total = 0;
  let n = 0;
  for (const [i, size] of sizes.entries()) {
    const chunk = Buffer.alloc(size, n++ % 251);
    for (const p of c.push(chunk)) { out.push(p); total += p.length; at.push(total); }
    if (flushAt.has(i)) { const p = c.take(); if (p) { out.push(p); total += p.length; at.push(total); } }
  }
  const last = c.take();
  if (last) { out.push(last); total += last.length; at.push(total); }
  return { ends: at, bytes: Buffer.concat(out) };
}

t.test('the cutter hands on every byte in order, and its pieces end at fixed offsets of the stream', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 3 * BLOCK_BYTES }), { minLength: 1, maxLength: 12 }), (sizes) => {
      const { ends: at, bytes } = ends(sizes);
      const total = sizes.reduce((a, b) => a + b, 0);
      if (bytes.length !== total) return false;
      // Every piece but the last ends at a multiple of the block, whatever the chunks were.
      return at.slice(0, -1).every((e) => e % BLOCK_BYTES === 0) && at[at.length - 1] === total;
    }),
    { numRuns: RUNS * 5 },
  );
  // A flush after a pause adds one cut there; the cuts after it fall where they would have.
  const sizes = [10_000, 20_000, 50_000, 70_000, 1_000];
  const { ends: at } = ends(sizes, new Set([1]));
  t.same(at, [30_000, BLOCK_BYTES, 2 * BLOCK_BYTES, 151_000]);
});

/** A streamed run's output for `input` written in chunks of the given sizes (cycled). */
async function streamed(input: Buffer, sizes: number[], command?: string): Promise<Buffer> {
  // A finite hold window, as exec and pipe have; it ends at once (1 byte), so the run streams
  // from its first batch, and no timer can fire while the chunks are written back to back.
  const p = createPipeline(describeRun({ door: 'exec', command, hold: { bytes: 1, ms: 60_000, idleMs: 60_000 } }), { archive: new LazyStore(tempHome()).archive() });
  const out: Buffer[] = [];
  const done = new Promise<void>((resolve) => { p.on('data', (b: Buffer) => out.push(b)); p.on('end', () => resolve()); });
  let k = 0;
  for (let i = 0; i < input.length; k++) {
    const n = sizes[k % sizes.length];
    p.write(input.subarray(i, i + n));
    i += n;
  }
  p.end({ exitCode: 0 });
  await done;
  return Buffer.concat(out);
}

// Before the cut, this capture streamed through in 1000-byte writes and in 64 KiB ones gave
// different bytes: a run of transfers folded in one and went out whole in the other.
t.test("a first Maven build's captured output, streamed, gives the same bytes however it was chunked", async (t) => {
  const input = Buffer.concat(Array.from({ length: 4 }, () => corpusCase('mvn-package-first-run-pass').output));
  const one = await streamed(input, [1000], 'dd if=build.log bs=1000');
  t.ok(one.length < input.length, `${input.length} -> ${one.length} B`);
  for (const sizes of [[65_536], [4096, 17, 60_000], [123_457], [7, 100_000, 333]]) {
    t.ok((await streamed(input, sizes, 'dd if=build.log bs=1000')).equals(one), `chunks of ${sizes.join(', ')} B`);
  }
});
