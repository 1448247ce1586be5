import t from 'tap';
import { pipeStream, propHome, retrieverFor, closeStores } from '../helpers/doors.js';
import { SPOOL_CAP_BYTES } from '../../lib/pipeline/spool.js';
import { openStore } from '../../lib/store/open.js';
import { BLOB_PART_BYTES } from '../../lib/store/archive.js';

// A stream longer than the spool's head: its closing receipt names the first SPOOL_CAP_BYTES
// bytes, archived in pieces. `omni retrieve` must still give back exactly those bytes.

t.teardown(closeStores);

/** Coloured lines, so the run is changed and owes its closing receipt; each line unique. */
function colouredLog(bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const line = `\x1b[32m✓\x1b[0m handles case ${i} (\x1b[2m${(i * 7919) % 997} ms\x1b[0m)\n`;
    parts.push(line);
    n += Buffer.byteLength(line);
  }
  return Buffer.from(parts.join(''));
}

t.test('the head of a long pipe run comes back byte for byte from the store, written in pieces', async (t) => {
  const home = propHome();
  const input = colouredLog(SPOOL_CAP_BYTES + (1 << 20));
  const chunks = [];
  for (let i = 0; i < input.length; i += 64 << 10) chunks.push({ bytes: input.subarray(i, i + (64 << 10)), pauseMs: 0 });
  const out = (await pipeStream(chunks, { home })).toString('utf8');
  const m = out.match(/whole output \(first (\d+) bytes\) — omni retrieve ([0-9a-f]{16})\]\n$/);
  t.ok(m, 'the closing receipt names the kept head');
  if (!m) return;
  t.equal(Number(m[1]), SPOOL_CAP_BYTES);
  const got = retrieverFor(home)(m[2]);
  t.ok(got && got.equals(input.subarray(0, SPOOL_CAP_BYTES)), 'retrieve gives back exactly the first bytes');
  const store = openStore({ home });
  t.teardown(() => store.close());
  const row = store.db.prepare('SELECT max(length(data)) AS n FROM blobs').get() as { n: number };
  t.ok(row.n <= BLOB_PART_BYTES, `no one row holds the head whole (largest ${row.n})`);
});
