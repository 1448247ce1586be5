// omni_run's bounded reader (lib/mcp/capped-output.ts), for inputs it did not choose: whatever
// the chunks, an output within the cap comes back whole; past it head + cut + tail is the
// output, the head and tail come back within the cap, and memory held stays within the cap
// plus the archived part of the cut.
import t from 'tap';
import fc from 'fast-check';
import { CappedOutput, resultCapBytes, HOST_RESULT_CHARS, RESULT_RESERVE_BYTES } from '../../lib/mcp/capped-output.js';
import { cappedOutput } from '../../lib/mcp/tools.js';

function feed(chunks: Buffer[], cap: number, keep: number) {
  const c = new CappedOutput(cap, keep);
  let maxHeld = 0;
  for (const ch of chunks) {
    c.push(ch);
    maxHeld = Math.max(maxHeld, c.held());
  }
  return { r: c.finish(), maxHeld };
}

const text = fc.array(fc.oneof(fc.constantFrom('\n', 'é', '✓', '𝄞', 'x'), fc.string({ maxLength: 30 })), { maxLength: 200 }).map((a) => a.join(''));

t.test('property: whole within the cap; head + cut + tail past it; bounded memory', async (t) => {
  fc.assert(
    fc.property(text, fc.integer({ min: 8, max: 400 }), fc.integer({ min: 0, max: 2000 }), fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 8 }), (s, cap, keep, sizes) => {
      const all = Buffer.from(s);
      const chunks: Buffer[] = [];
      for (let i = 0, k = 0; i < all.length; k++) {
        const n = sizes[k % sizes.length];
        chunks.push(all.subarray(i, i + n));
        i += n;
      }
      const { r, maxHeld } = feed(chunks, cap, keep);
      if (maxHeld > cap + keep) return false;
      if (r.total !== all.length) return false;
      if (all.length <= cap) return r.cut === null && r.head.equals(all);
      if (!r.cut) return false;
      if (r.head.length + r.tail.length > cap) return false;
      if (r.head.length + r.cut.bytes + r.tail.length !== all.length) return false;
      const cut = all.subarray(r.head.length, r.head.length + r.cut.bytes);
      // The kept part is the cut's start (all of it when it fits the archive cap).
      if (!cut.subarray(0, r.cut.kept.length).equals(r.cut.kept)) return false;
      if (r.cut.kept.length < Math.min(r.cut.bytes, keep)) return false;
      // Cut at line ends or character boundaries: valid UTF-8 in, valid UTF-8 out.
      return Buffer.from(r.head.toString('utf8')).equals(r.head) && Buffer.from(r.tail.toString('utf8')).equals(r.tail);
    }),
    { numRuns: 500 },
  );
  t.pass('500 generated outputs');
});

t.test('the head and the tail are cut at line ends', async (t) => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join('');
  const { r } = feed([Buffer.from(lines)], 100, 1 << 20);
  t.match(r.head.toString(), /^line 0\n[\s\S]*\n$/);
  t.match(r.tail.toString(), /^line \d+\n[\s\S]*line 99\n$/);
  const out = cappedOutput(r, 100, () => 'abcdef0123456789').toString();
  t.match(out, /\n\[omni: \d+ B cut from the middle of 790 B of output: omni_run hands on at most 100 B, what the host takes of a tool result — omni retrieve abcdef0123456789\]\nline/);
  t.notMatch(out, /not kept/);
});

t.test('a cut larger than the archive cap says so; an archive that fails says so', async (t) => {
  const { r } = feed([Buffer.from('a\n'.repeat(1000))], 100, 64);
  t.equal(r.cut?.kept.length, 64);
  t.match(cappedOutput(r, 100, () => 'abcdef0123456789').toString(), /the first 64 B of the cut archived, the rest not kept — omni retrieve abcdef0123456789\]/);
  t.match(cappedOutput(r, 100, () => null).toString(), /\[omni: [^\]]*; not archived \(the store could not take it\)\]/);
});

t.test('the cap: what the host takes of a tool result, less a reserve', async (t) => {
  t.equal(resultCapBytes({}), HOST_RESULT_CHARS - RESULT_RESERVE_BYTES);
  t.equal(resultCapBytes({ MAX_MCP_OUTPUT_TOKENS: '50000' }), 200_000 - RESULT_RESERVE_BYTES, 'the host\'s own setting raises it');
  t.equal(resultCapBytes({ MAX_MCP_OUTPUT_TOKENS: 'lots' }), HOST_RESULT_CHARS - RESULT_RESERVE_BYTES);
});
