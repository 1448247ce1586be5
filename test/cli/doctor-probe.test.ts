/**
 * `omni doctor` checks the user's store and wiring; it must not become one of the user's runs,
 * and it must never advise what loses handles. Through the built bundle and the pinned Claude
 * Code CLI, in a temporary HOME.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { OMNI, tempHome } from '../helpers/omni.js';
import { needs } from '../helpers/needs.js';
import { claudeBin } from '../real-host/harness.js';
import { openStore, SCHEMA_VERSION } from '../../lib/store/open.js';

// The pinned CLI where the host-CLI installer puts it, never omni's own node_modules.
const CLAUDE = claudeBin();

function omni(args: string[], env: Record<string, string>, cwd: string) {
  return spawnSync(process.execPath, [OMNI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd, encoding: 'utf8', timeout: 120_000 });
}

const count = (db: Database.Database, table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const probeDirs = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('omni-doctor-probe-'));

t.test('the doctor probe leaves no run, archive, ledger or diff trace in the user store', async (t) => {
  if (!needs(t, existsSync(OMNI) && existsSync(CLAUDE), 'dist/omni.cjs and the pinned claude CLI')) return;
  const home = tempHome();
  const tmp = tempHome();
  const env = { HOME: home, OMNI_HOME: join(home, '.omni'), OMNI_CLAUDE_BIN: CLAUDE, TMPDIR: tmp, LANG: 'C.UTF-8' };
  t.equal(omni(['init', '--claude'], env, home).status, 0, 'omni init --claude');
  for (let i = 0; i < 2; i++) {
    const d = omni(['doctor', '--json'], env, home);
    const probe = JSON.parse(d.stdout).checks.find((c: { name: string }) => c.name === 'probe');
    t.match(probe?.detail ?? '', /probe reply accepted/, `doctor run ${i + 1}: the probe still went through the registered hook`);
  }
  const file = join(home, '.omni', 'omni.db');
  t.ok(existsSync(file), 'the store check made the user store');
  const db = new Database(file, { readonly: true });
  t.teardown(() => db.close());
  for (const table of ['runs', 'blobs', 'deliveries']) t.equal(count(db, table), 0, `no ${table} row`);
  const stats = omni(['stats'], env, home);
  t.match(stats.stdout, /\b0 runs\b/, '`omni stats`: 0 runs');
  const diff = omni(['diff'], env, home);
  t.notMatch(diff.stdout + diff.stderr, /omni-doctor-probe|Downloading package/, '`omni diff` shows no probe');
  t.same(probeDirs(tmp), [], 'the probe\'s own store is gone from TMPDIR');
});

t.test('a store written by a newer omni: doctor says to upgrade, never to move it aside', async (t) => {
  if (!needs(t, existsSync(OMNI), 'dist/omni.cjs')) return;
  const home = tempHome();
  const omniHome = join(home, '.omni');
  mkdirSync(omniHome);
  const s = openStore({ home: omniHome });
  s.db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  s.close();
  const before = statSync(join(omniHome, 'omni.db'));
  const env = { HOME: home, OMNI_HOME: omniHome };
  const d = omni(['doctor', '--json'], env, home);
  const store = JSON.parse(d.stdout).checks.find((c: { name: string }) => c.name === 'store');
  t.equal(store.status, 'fail');
  t.match(store.detail, /newer omni/, 'it says what is the matter');
  t.match(store.detail, /upgrade omni/, 'and to upgrade omni');
  t.notMatch(store.detail, /\bmv\b|move it aside|\.bad\b|delete|remove/, 'never to move, rename or delete the store');
  const human = omni(['doctor'], env, home).stdout;
  t.notMatch(human, /\bmv\b|move it aside/, 'nor in the table');
  const after = statSync(join(omniHome, 'omni.db'));
  t.same([after.ino, after.size], [before.ino, before.size], 'the store is where it was');
});
