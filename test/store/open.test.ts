import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openStore, omniHome, quarantineStore, StoreError, SCHEMA_VERSION, BUSY_TIMEOUT_MS, LockBudget, LOCK_BUDGET_WINDOW_MS } from '../../lib/store/open.js';
import { putBlob, getBlob } from '../../lib/store/archive.js';
import { tmpHome } from './fixtures/helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const worker = path.join(here, 'fixtures', 'worker.ts');
// The same TypeScript loader this test runs under, so workers run the real modules.
const loader = process.execArgv.filter((a) => a.startsWith('--import=') && a.includes('typescript'));

t.test('omniHome follows OMNI_HOME and defaults to ~/.omni', async (t) => {
  t.equal(omniHome({ OMNI_HOME: '/x/y' }), '/x/y');
  t.match(omniHome({}), /\/\.omni$/);
});

t.test('a missing home is created 0700 with an omni.db file 0600 in WAL mode', async (t) => {
  const home = path.join(tmpHome(), 'nested', 'home');
  const store = openStore({ home });
  t.teardown(() => store.close());
  t.equal(fs.statSync(home).mode & 0o777, 0o700);
  t.equal(fs.statSync(path.join(home, 'omni.db')).mode & 0o777, 0o600);
  t.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  t.equal(store.db.pragma('busy_timeout', { simple: true }), BUSY_TIMEOUT_MS);
  t.equal(store.db.pragma('synchronous', { simple: true }), 1, 'synchronous = NORMAL');
  putBlob(store, Buffer.from('x'));
  t.equal(fs.statSync(path.join(home, 'omni.db-wal')).mode & 0o777, 0o600, 'the WAL is 0600 too');
});

t.test('reopening a current store keeps its data and does not migrate again', async (t) => {
  const home = tmpHome();
  const a = openStore({ home });
  const h = putBlob(a, Buffer.from('kept\n'));
  a.close();
  const b = openStore({ home });
  t.teardown(() => b.close());
  t.equal(getBlob(b, h)?.toString(), 'kept\n');
  t.equal(b.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
});

t.test('a corrupt store file makes openStore throw a clear corrupt error the caller can catch', async (t) => {
  const home = tmpHome();
  fs.writeFileSync(path.join(home, 'omni.db'), Buffer.alloc(8192, 'garbage! '));
  let err: unknown;
  try {
    openStore({ home });
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof StoreError);
  t.equal((err as StoreError).reason, 'corrupt');
  t.match((err as Error).message, /omni store .*omni\.db is corrupt/);
  // Moved aside (omni doctor --fix), the next open starts a fresh store.
  const dest = quarantineStore(home, 42);
  t.equal(dest, path.join(home, 'omni.db.corrupt-42'));
  const s = openStore({ home });
  t.teardown(() => s.close());
  t.equal(s.db.pragma('integrity_check', { simple: true }), 'ok');
});

t.test('a store from a newer omni is refused rather than written', async (t) => {
  const home = tmpHome();
  const s = openStore({ home });
  s.db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
  s.close();
  t.throws(() => openStore({ home }), { reason: 'newer', message: /newer than this omni.*upgrade omni/ }, 'not corrupt: a newer omni\'s store is whole');
});

t.test('a home that cannot be created gives a clear error, not a crash', async (t) => {
  const base = tmpHome();
  fs.writeFileSync(path.join(base, 'file'), 'not a dir');
  t.throws(() => openStore({ home: path.join(base, 'file', 'home') }), StoreError);
});

t.test('a read-only home makes openStore throw a readonly error', async (t) => {
  const home = tmpHome();
  fs.chmodSync(home, 0o555);
  t.teardown(() => fs.chmodSync(home, 0o700));
  // Root ignores permissions, so the open runs as an unprivileged user when we are root.
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const r = spawnSync(process.execPath, [...loader, worker, 'open', home], { encoding: 'utf8', ...asNobody });
  const got = JSON.parse(r.stdout);
  t.equal(got.ok, false);
  t.equal(got.reason, 'readonly');
  t.match(got.message, /not writable/);
});

t.test('a store locked by another writer: one statement waits the budget, every later one is refused at once', async (t) => {
  const home = tmpHome();
  const holder = openStore({ home });
  t.teardown(() => holder.close());
  holder.db.exec('BEGIN EXCLUSIVE');
  // A budget of its own, as a hook process has: this test process has spent its own on others.
  // Only lock waits are charged here: a statement that was merely slow (a loaded machine took
  // 7 ms to open the store: 243 left, not 250) would make the counts below a matter of timing.
  // What a slow success costs is the fake-clock test after this one.
  const budget = new WaitsOnly(BUSY_TIMEOUT_MS);
  const s = openStore({ home, budget });
  t.teardown(() => s.close());
  t.equal(budget.allowance(), BUSY_TIMEOUT_MS, 'the whole budget before the first wait');
  t.throws(() => putBlob(s, Buffer.from('x')), { code: 'SQLITE_BUSY' });
  t.same({ waits: budget.waits, refused: budget.refused }, { waits: 1, refused: 0 }, 'the first write waited');
  t.equal(budget.allowance(), 0, 'and spent the budget');
  for (let i = 0; i < 5; i++) t.throws(() => putBlob(s, Buffer.from(`y${i}`)), { code: 'SQLITE_BUSY' });
  t.same({ waits: budget.waits, refused: budget.refused }, { waits: 1, refused: 5 }, 'later writes were refused without waiting');
  // Another store in the same process (a hook that opens twice) shares the spent budget.
  const again = openStore({ home, budget });
  t.teardown(() => again.close());
  t.throws(() => putBlob(again, Buffer.from('z')), { code: 'SQLITE_BUSY' });
  t.equal(budget.waits, 1);
  holder.db.exec('ROLLBACK');
  // Once the store is free, a spent budget still writes: it only never waits.
  t.equal(putBlob(s, Buffer.from('x')), putBlob(holder, Buffer.from('x')));
});

/** A LockBudget that charges busy statements only, whatever a successful one took. */
class WaitsOnly extends LockBudget {
  override charge(allowed: number, elapsed: number, busy: boolean): void {
    super.charge(allowed, busy ? elapsed : 0, busy);
  }
}

t.test('a spent budget comes back after its window (a long-lived host, not a hook)', async (t) => {
  let now = 0;
  const b = new LockBudget(250, () => now);
  b.charge(250, 251, true);
  t.equal(b.allowance(), 0);
  now = LOCK_BUDGET_WINDOW_MS - 1;
  t.equal(b.allowance(), 0, 'not within the window');
  now = LOCK_BUDGET_WINDOW_MS;
  t.equal(b.allowance(), 250, 'whole again after it');
  b.charge(250, 0.2, false);
  t.equal(b.allowance(), 250, 'a fast statement spends nothing');
  b.charge(250, 40, false);
  t.equal(b.allowance(), 210, 'a slow one spends what it took: the bound holds even if it waited and won');
});

t.test('16 concurrent processes writing archive and ledger rows to one fresh store lose nothing', async (t) => {
  const home = tmpHome();
  const N = 16;
  const PER = 25;
  const results = await Promise.all(
    Array.from({ length: N }, (_, id) =>
      new Promise<{ ok: boolean; failures: string[]; retries: number }>((resolve, reject) => {
        const c = spawn(process.execPath, [...loader, worker, 'write', home, String(id), String(PER)], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        c.stdout.on('data', (d) => (out += d));
        c.on('error', reject);
        c.on('close', () => resolve(JSON.parse(out)));
      }),
    ),
  );
  for (const r of results) t.same(r.failures, []);
  const retries = results.reduce((a, r) => a + r.retries, 0);
  t.comment(`retries over ${N * PER} writes: ${retries}`);
  const s = openStore({ home });
  t.teardown(() => s.close());
  t.equal((s.db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n, N * PER);
  t.equal((s.db.prepare('SELECT count(*) AS n FROM deliveries').get() as { n: number }).n, N * PER);
  t.equal((s.db.prepare('SELECT count(DISTINCT session) AS n FROM deliveries').get() as { n: number }).n, N);
  t.equal(s.db.pragma('integrity_check', { simple: true }), 'ok');
  for (let id = 0; id < N; id++) {
    const want = Buffer.from(`worker ${id} block ${PER - 1}\n`.repeat(50));
    const { handleOf } = await import('../../lib/store/archive.js');
    t.ok(getBlob(s, handleOf(want))?.equals(want), `worker ${id}'s last block is there`);
  }
});

t.test('a budget charged while a statement is being iterated does not break the connection', async (t) => {
  const home = tmpHome();
  const budget = new LockBudget(250);
  const store = openStore({ home, budget });
  try {
    store.db.exec('CREATE TABLE probe (n INTEGER); INSERT INTO probe VALUES (1), (2), (3)');
    const seen: number[] = [];
    for (const row of store.stmt('SELECT n FROM probe ORDER BY n').iterate() as Iterable<{ n: number }>) {
      seen.push(row.n);
      // A slow statement elsewhere in the process spends some of the budget mid-iteration.
      budget.charge(budget.allowance(), 3, false);
    }
    t.same(seen, [1, 2, 3], 'the iteration finishes');
    t.same(store.stmt('SELECT 1 AS one').get(), { one: 1 }, 'the next statement runs');
  } finally {
    store.close();
  }
});
