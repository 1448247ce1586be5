import t from 'tap';
import { openStore, type Store } from '../../lib/store/open.js';
import { recordRun, statsSummary, lastRun } from '../../lib/store/stats.js';
import { prune, PRUNE_BATCH, DAY_MS } from '../../lib/store/prune.js';
import { putBlob, getBlob } from '../../lib/store/archive.js';
import { recordDelivered, loadShown } from '../../lib/store/ledger.js';
import { tmpHome } from './fixtures/helpers.js';
import { costSummary, recordCost } from '../../lib/store/costs.js';

function fresh(t: { teardown(fn: () => void): void }): Store {
  const s = openStore({ home: tmpHome() });
  t.teardown(() => s.close());
  return s;
}
const count = (s: Store, table: string) => (s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

t.test('stats count a saving only where the reader received less', async (t) => {
  const store = fresh(t);
  recordRun(store, { at: 100, door: 'hook', family: 'jest', bytesIn: 10000, bytesOut: 1000, applied: true });
  recordRun(store, { at: 100, door: 'hook', family: 'jest', bytesIn: 5000, bytesOut: 500, applied: false });
  recordRun(store, { at: 100, door: 'exec', family: 'git', bytesIn: 2000, bytesOut: 1500, applied: true });
  recordRun(store, { at: 1, door: 'exec', family: 'git', bytesIn: 99999, bytesOut: 1, applied: true });
  const s = statsSummary(store, { since: 50 });
  t.match(s.total, { runs: 3, applied: 2, bytesIn: 17000, bytesDelivered: 1000 + 5000 + 1500, bytesSaved: 9500 });
  t.same(s.byFamily.map((f) => [f.family, f.bytesSaved]), [['jest', 9000], ['git', 500]]);
  t.same(s.byDoor.map((f) => [f.door, f.runs, f.bytesSaved]), [['hook', 2, 9000], ['exec', 1, 500]]);
});

t.test('lastRun is the latest distillation from any door', async (t) => {
  const store = fresh(t);
  t.equal(lastRun(store), null);
  recordRun(store, { door: 'hook', family: 'a', bytesIn: 1, bytesOut: 1, applied: false });
  recordRun(store, { door: 'pipe', family: 'b', bytesIn: 2, bytesOut: 1, applied: true, rawHandle: 'r', deliveredHandle: 'd' });
  t.match(lastRun(store), { door: 'pipe', family: 'b', raw_handle: 'r', delivered_handle: 'd', applied: 1 });
});

t.test('pruning removes working data after 30 days and raw traces after 7, keeping the rest', async (t) => {
  const store = fresh(t);
  const now = 100 * DAY_MS;
  const oldFold = putBlob(store, Buffer.from('old fold'), { now: now - 31 * DAY_MS });
  const weekFold = putBlob(store, Buffer.from('week fold'), { now: now - 8 * DAY_MS });
  const oldRaw = putBlob(store, Buffer.from('old raw'), { kind: 'raw', now: now - 8 * DAY_MS });
  const newRaw = putBlob(store, Buffer.from('new raw'), { kind: 'raw', now: now - 6 * DAY_MS });
  recordRun(store, { at: now - 31 * DAY_MS, door: 'hook', family: 'x', bytesIn: 1, bytesOut: 1, applied: false });
  recordRun(store, { at: now - 1 * DAY_MS, door: 'hook', family: 'y', bytesIn: 1, bytesOut: 1, applied: false });
  const h = Buffer.alloc(8, 7);
  recordDelivered(store, { sessionId: 'S', cwd: '/p', hashes: h, now: now - 31 * DAY_MS });
  recordDelivered(store, { sessionId: 'S', cwd: '/p', hashes: Buffer.alloc(8, 9), now: now - DAY_MS });
  recordCost(store, { at: now - 31 * DAY_MS, what: 'mcp-tools', requests: 1, bytes: 575 });
  recordCost(store, { at: now - DAY_MS, what: 'mcp-tools', requests: 1, bytes: 575 });
  const r = prune(store, { now, budgetMs: 1000 });
  t.equal(r.complete, true);
  t.equal(r.deleted, 5);
  t.same(costSummary(store, { since: 0 }), { requests: 1, bytes: 575 }, 'an old cost goes with the old runs');
  t.equal(getBlob(store, oldFold), null);
  t.equal(getBlob(store, oldRaw), null);
  t.ok(getBlob(store, weekFold));
  t.ok(getBlob(store, newRaw));
  t.equal(lastRun(store)?.family, 'y');
  t.equal(count(store, 'runs'), 1);
  t.equal(loadShown(store, { sessionId: 'S', cwd: '/p', now }).session.size, 1);
});

t.test('pruning stops at its time budget and catches up on the next call', async (t) => {
  const store = fresh(t);
  const now = 100 * DAY_MS;
  const n = PRUNE_BATCH * 40;
  const ins = store.db.prepare('INSERT INTO runs(at, door, family, bytes_in, bytes_out, applied) VALUES (?, ?, ?, ?, ?, ?)');
  store.db.transaction(() => {
    for (let i = 0; i < n; i++) ins.run(now - 40 * DAY_MS, 'hook', 'x', 1, 1, 0);
  })();
  // A clock that moves with the work done (0.01 ms per row deleted): the 0.5 ms budget is
  // spent by the first batch of runs, whatever the machine running the tests is doing.
  const first = prune(store, { now, budgetMs: 0.5, clock: () => (n - count(store, 'runs')) * 0.01 });
  t.equal(first.complete, false);
  t.equal(first.deleted, PRUNE_BATCH, 'one LIMITed batch, then the budget is checked and found spent');
  t.ok(count(store, 'runs') > 0, 'rows remain after a spent budget');
  let calls = 1;
  while (!prune(store, { now, budgetMs: 5 }).complete) calls++;
  t.equal(count(store, 'runs'), 0);
  t.ok(calls >= 1);
});

t.test('one distillation is recorded in one transaction: traces, run row and ledger row', async (t) => {
  const store = fresh(t);
  const raw = Buffer.from('line\n'.repeat(100));
  const delivered = Buffer.from('line\n[omni: 99 lines already shown — omni retrieve 0000000000000000]\n');
  const { rawHandle, deliveredHandle } = (await import('../../lib/store/record.js')).recordDistillation(store, {
    run: { door: 'hook', host: 'claude', family: 'generic', command: 'cat', sessionId: 'S', cwd: '/p', bytesIn: raw.length, bytesOut: delivered.length, applied: true },
    raw,
    delivered,
    ledger: { sessionId: 'S', cwd: '/p', hashes: Buffer.alloc(8, 3) },
  });
  t.ok(getBlob(store, rawHandle!)?.equals(raw));
  t.ok(getBlob(store, deliveredHandle!)?.equals(delivered));
  t.match(lastRun(store), { raw_handle: rawHandle, delivered_handle: deliveredHandle, applied: 1, session: 'S' });
  t.equal(loadShown(store, { sessionId: 'S', cwd: '/p' }).session.size, 1);
  t.equal((store.db.prepare("SELECT kind FROM blobs WHERE handle = ?").get(rawHandle) as { kind: string }).kind, 'raw', 'traces are 7-day raw blobs');
});
