// The archive's digest without node:crypto (lib/store/sha256.ts): a handle must be the same
// 16 hex characters whichever way it was computed, or a marker written by one process would not
// resolve in another, and identical bytes would be stored twice.
import t from 'tap';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { resetHashBudget, sha256Hex, WASM_BUDGET_BYTES } from '../../lib/base/sha256.js';

const reference = (d: Uint8Array) => createHash('sha256').update(d).digest('hex');
/** The digest as a fresh process computes it: in WebAssembly while the input fits the budget. */
const fresh = (d: Uint8Array) => {
  resetHashBudget();
  return sha256Hex(d);
};

t.test('agrees with node:crypto at every padding boundary and around the budget', async (t) => {
  const lengths = [0, 1, 3, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 65535, 65536, 65537, 300_000, WASM_BUDGET_BYTES - 1, WASM_BUDGET_BYTES, WASM_BUDGET_BYTES + 1];
  for (const len of lengths) {
    const d = new Uint8Array(len);
    for (let i = 0; i < len; i++) d[i] = (i * 7919 + len) & 255;
    t.equal(fresh(d), reference(d), `${len} bytes`);
  }
  t.equal(fresh(new Uint8Array(0)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'the empty message (FIPS 180-4 example)');
  t.equal(fresh(Buffer.from('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', '"abc" (FIPS 180-4 example)');
});

t.test('agrees with node:crypto on arbitrary bytes, including views into a larger buffer', async (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(64), (bytes, skip) => {
      // A Buffer that is a slice of a bigger one: the digest reads only its own bytes.
      const big = Buffer.concat([Buffer.alloc(skip, 0xaa), bytes, Buffer.alloc(7, 0x55)]);
      const view = big.subarray(skip, skip + bytes.length);
      return fresh(bytes) === reference(bytes) && fresh(view) === reference(bytes);
    }),
    { numRuns: 400 },
  );
  // A short input after a longer one: the module's memory still holds the longer one's bytes.
  resetHashBudget();
  const long = new Uint8Array(50_000).fill(1);
  t.equal(sha256Hex(long), reference(long));
  t.equal(sha256Hex(Buffer.from('x')), reference(Buffer.from('x')));
});

t.test('a run of digests across the budget: each one right, whichever side of it', async (t) => {
  resetHashBudget();
  for (let k = 0; k < 12; k++) {
    const d = new Uint8Array(9000 + k * 13).fill(k);
    t.equal(sha256Hex(d), reference(d), `digest ${k} (${d.length} bytes, ${(k + 1) * 9000} hashed so far)`);
  }
});
