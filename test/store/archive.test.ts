import t from 'tap';
import { openStore } from '../../lib/store/open.js';
import { putBlob, getBlob, handleOf, ARCHIVE_BLOB_CAP, BlobTooLarge } from '../../lib/store/archive.js';
import { tmpHome } from './fixtures/helpers.js';
import { createHash } from 'node:crypto';

t.test('the handle is the first 16 hex chars of the SHA-256 of the exact bytes', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const data = Buffer.from('hello\r\nworld\n');
  const h = putBlob(store, data);
  t.equal(h, createHash('sha256').update(data).digest('hex').slice(0, 16));
  t.equal(h, handleOf(data));
});

t.test('binary, invalid UTF-8 and CRLF bytes come back exactly', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const bin = Buffer.from([0, 1, 2, 0xff, 0xfe, 0xc3, 0x28, 0x0d, 0x0a, 0x0d, 0x00, 0x80]);
  const crlf = Buffer.from('line one\r\nline two\r\n\r\nno eol');
  for (const data of [bin, crlf, Buffer.alloc(0)]) {
    const got = getBlob(store, putBlob(store, data));
    t.ok(got && got.equals(data), `round-trips ${data.toString('hex').slice(0, 20)}`);
  }
});

t.test('identical content is stored once under one handle', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const a = putBlob(store, Buffer.from('same bytes\n'));
  const b = putBlob(store, Buffer.from('same bytes\n'), { kind: 'raw' });
  t.equal(a, b);
  const row = store.db.prepare('SELECT count(*) AS n, max(kind) AS kind FROM blobs').get() as { n: number; kind: string };
  t.equal(row.n, 1);
  t.equal(row.kind, 'fold', 'content put as a fold stays a fold (30-day retention)');
});

t.test('an unknown or malformed handle reads as null', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  t.equal(getBlob(store, '0123456789abcdef'), null);
  t.equal(getBlob(store, "x' OR 1=1 --"), null);
});

t.test('a block over the cap is refused with a BlobTooLarge error', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  // A view claiming to be over the cap without allocating it.
  const fake = { byteLength: ARCHIVE_BLOB_CAP + 1, buffer: new ArrayBuffer(0), byteOffset: 0 } as unknown as Uint8Array;
  t.throws(() => putBlob(store, fake), BlobTooLarge);
});
