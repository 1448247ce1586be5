import t from 'tap';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openStore, SCHEMA_VERSION } from '../../lib/store/open.js';
import { MIGRATIONS } from '../../lib/store/schema.js';
import { putBlob, getBlob, handleOf, BLOB_PART_BYTES } from '../../lib/store/archive.js';
import { prune, RAW_RETENTION_MS } from '../../lib/store/prune.js';
import { tmpHome } from './fixtures/helpers.js';

// A large blob goes into the store in pieces (a run's 8 MiB head written as one row cost the
// process two more copies of it at once). Whatever the pieces, retrieval is byte for byte.

/** Bytes that differ at every offset, so a piece out of order or missing cannot compare equal. */
function bytes(n: number, seed = 1): Buffer {
  const b = Buffer.allocUnsafe(n);
  let x = seed;
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 24; }
  return b;
}

const largestRow = (store: ReturnType<typeof openStore>): number =>
  (store.db.prepare('SELECT max(n) AS n FROM (SELECT length(data) AS n FROM blobs UNION ALL SELECT length(data) FROM blob_parts)').get() as { n: number }).n;

t.test('a blob past the piece size is stored in pieces and comes back exactly', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  for (const n of [BLOB_PART_BYTES, BLOB_PART_BYTES + 1, 3 * BLOB_PART_BYTES + 7, 8 << 20]) {
    const data = bytes(n, n);
    const h = putBlob(store, data, { kind: 'raw' });
    t.equal(h, handleOf(data), `${n}: the handle is the digest of the whole`);
    const got = getBlob(store, h);
    t.ok(got && got.equals(data), `${n} bytes come back exactly`);
  }
  t.ok(largestRow(store) <= BLOB_PART_BYTES, 'no row holds more than one piece');
  const size = store.db.prepare('SELECT size FROM blobs WHERE handle = ?').get(handleOf(bytes(8 << 20, 8 << 20))) as { size: number };
  t.equal(size.size, 8 << 20, 'the size is the whole blob\'s');
});

t.test('the same large content put twice is stored once, and a fold keeps its kind', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const data = bytes(2 * BLOB_PART_BYTES + 5, 7);
  const a = putBlob(store, data, { kind: 'raw' });
  const parts = () => (store.db.prepare('SELECT count(*) AS n FROM blob_parts').get() as { n: number }).n;
  const before = parts();
  const b = putBlob(store, data, { kind: 'fold' });
  t.equal(a, b);
  t.equal(parts(), before, 'no second set of pieces');
  t.equal((store.db.prepare('SELECT kind FROM blobs WHERE handle = ?').get(a) as { kind: string }).kind, 'fold');
  t.ok(getBlob(store, a)?.equals(data));
});

t.test('a blob whose pieces do not add up reads as unknown, never short', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const h = putBlob(store, bytes(2 * BLOB_PART_BYTES, 3));
  store.db.prepare('DELETE FROM blob_parts WHERE handle = ? AND seq = 1').run(h);
  t.equal(getBlob(store, h), null);
});

t.test('pruning a blob in pieces removes its pieces too', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const h = putBlob(store, bytes(2 * BLOB_PART_BYTES + 1, 4), { kind: 'raw', now: 1000 });
  prune(store, { now: 1000 + RAW_RETENTION_MS + 1, budgetMs: 60_000 });
  t.equal(getBlob(store, h), null);
  t.equal((store.db.prepare('SELECT count(*) AS n FROM blob_parts').get() as { n: number }).n, 0);
});

t.test('a store written before pieces (schema 3, a large blob in one row) still reads byte for byte', async (t) => {
  const home = tmpHome();
  const whole = bytes(3 * BLOB_PART_BYTES + 11, 9);
  const small = Buffer.from('kept as it was\n');
  const old = new Database(path.join(home, 'omni.db'));
  old.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, 3)) old.exec(m);
  const ins = old.prepare('INSERT INTO blobs(handle, data, size, kind, created, used) VALUES (?, ?, ?, ?, ?, ?)');
  for (const d of [whole, small]) ins.run(handleOf(d), d, d.length, 'raw', 1, 1);
  old.pragma('user_version = 3');
  old.close();

  const store = openStore({ home });
  t.teardown(() => store.close());
  t.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'migrated');
  t.ok(getBlob(store, handleOf(whole))?.equals(whole), 'the large one-row blob comes back exactly');
  t.ok(getBlob(store, handleOf(small))?.equals(small));
  // Put again by the new code: the old row stands, nothing is split under it.
  t.equal(putBlob(store, whole), handleOf(whole));
  t.ok(getBlob(store, handleOf(whole))?.equals(whole), 'and still does after the same content is put again');
});

t.test('the page cache can be set at open (the streaming doors keep theirs small)', async (t) => {
  const store = openStore({ home: tmpHome(), cacheKiB: 2048 });
  t.teardown(() => store.close());
  t.equal(store.db.pragma('cache_size', { simple: true }), -2048);
});
