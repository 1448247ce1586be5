// The warm store of the MCP hook server: one connection for many calls, a lock budget per call,
// reopened when the file at its path changes, and never left busy by one call's fault.
import t from 'tap';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempHome } from '../helpers/omni.js';
import { LockBudget, openStore } from '../../lib/store/open.js';
import { WarmStore } from '../../lib/doors/warm-store.js';
import { getBlob } from '../../lib/store/archive.js';

/** A budget whose allowance drops on every statement, as a call that spends it does. */
class Dropping extends LockBudget {
  private n = 250;
  override allowance(): number {
    return (this.n -= 10);
  }
  override charge(): void {}
}

t.test('an iteration survives a budget that changes between its steps, and leaves the connection usable', async (t) => {
  const s = openStore({ home: tempHome(), budget: new Dropping(250) });
  t.teardown(() => s.close());
  s.db.exec('CREATE TABLE t(x INTEGER)');
  for (let i = 0; i < 5; i++) s.db.prepare('INSERT INTO t VALUES (?)').run(i);
  const seen: number[] = [];
  let error = '';
  try {
    for (const r of s.stmt('SELECT x FROM t ORDER BY x').iterate() as IterableIterator<{ x: number }>) seen.push(r.x);
  } catch (err) {
    error = (err as Error).message;
  }
  t.equal(error, '', 'no step failed');
  t.same(seen, [0, 1, 2, 3, 4], 'every row');
  // A statement left open would keep the connection busy for every later call of a warm server.
  t.doesNotThrow(() => s.stmt('INSERT INTO t VALUES (?)').run(9), 'the connection takes a write afterwards');
});

t.test('one connection for many calls; a store moved aside is reopened at its path', async (t) => {
  const home = tempHome();
  const w = new WarmStore({ OMNI_HOME: home });
  t.teardown(() => w.close());
  const put = (text: string) => w.run(async () => w.forCall().archive().put(Buffer.from(text)));
  const h1 = await put('first');
  const h2 = await put('second');
  t.ok(h1 && h2, 'both archived');
  t.equal(w.opens, 1, 'opened once for two calls');
  renameSync(join(home, 'omni.db'), join(home, 'omni.db.bad'));
  for (const ext of ['-wal', '-shm']) if (existsSync(join(home, 'omni.db' + ext))) renameSync(join(home, 'omni.db' + ext), join(home, 'omni.db.bad' + ext));
  const h3 = await put('third');
  t.ok(h3, 'archived after the move');
  t.equal(w.opens, 2, 'reopened once');
  t.ok(existsSync(join(home, 'omni.db')), 'a store exists at the path again');
  const fresh = openStore({ home });
  t.teardown(() => fresh.close());
  t.equal(getBlob(fresh, h3!)?.toString(), 'third', 'the third call wrote to the store at the path, not to the moved one');
});

t.test('each call has its own lock budget: a call after a locked one archives again', async (t) => {
  const home = tempHome();
  const w = new WarmStore({ OMNI_HOME: home });
  t.teardown(() => w.close());
  const put = (text: string) => w.run(async () => w.forCall().archive().put(Buffer.from(text)));
  t.ok(await put('warm up'), 'the store opens and takes writes');
  const holder = new Database(join(home, 'omni.db'));
  holder.exec('BEGIN IMMEDIATE');
  t.equal(await put('while locked'), null, 'nothing archived while another process holds the write lock');
  holder.exec('ROLLBACK');
  holder.close();
  // With one budget for the whole process, the locked call spent it for the next 10 s.
  t.ok(await put('after the lock'), 'the next call waits its own budget and archives');
});
