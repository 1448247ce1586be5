/**
 * Opening omni's SQLite store: `$OMNI_HOME/omni.db` (default `~/.omni/omni.db`).
 *
 * The hook path pays for better-sqlite3 only when it opens the store, so the native addon is
 * loaded lazily inside `openStore`. Opening does the least work that is safe on every tool
 * call: one `user_version` read; the WAL switch and migrations run only when that version is
 * behind (a fresh or older store).
 *
 * Failure is an Error the caller catches (`StoreError` with a `reason`): the hook then
 * distils without the ledger and still exits 0.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS } from './schema.js';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

/**
 * How long one statement waits for another process's write lock before giving up.
 * Hooks for parallel tool calls write at once; a write transaction here holds the lock for
 * well under a millisecond (measured: 16 concurrent writers, see bench/store.mjs), so 250 ms
 * absorbs any realistic queue while a wedged store costs a hook at most a quarter second.
 */
export const BUSY_TIMEOUT_MS = 250;

/** The CLI subcommands (retrieve, stats, …) are not on a hook's clock: they may wait longer. */
export const CLI_BUSY_TIMEOUT_MS = 2000;

export const STORE_FILE = 'omni.db';

export type StoreFailure = 'corrupt' | 'readonly' | 'locked' | 'io';

/** Why the store could not be used. `reason` lets `omni doctor` say what to do. */
export class StoreError extends Error {
  readonly reason: StoreFailure;
  readonly file: string;
  constructor(reason: StoreFailure, file: string, detail: string) {
    const what: Record<StoreFailure, string> = {
      corrupt: 'is corrupt or not an omni store',
      readonly: 'is not writable',
      locked: 'is locked by another process',
      io: 'could not be opened',
    };
    super(`omni store ${file} ${what[reason]}: ${detail}`);
    this.name = 'StoreError';
    this.reason = reason;
    this.file = file;
  }
}

export interface Store {
  readonly db: Database;
  readonly home: string;
  readonly file: string;
  /** A prepared statement, cached per connection (preparing costs more than running). */
  stmt(sql: string): Statement;
  close(): void;
}

export interface OpenOptions {
  /** Directory holding omni.db. Default: `omniHome()`. */
  home?: string;
  /** Default `BUSY_TIMEOUT_MS`. */
  busyTimeoutMs?: number;
}

/** `OMNI_HOME`, else `~/.omni`. */
export function omniHome(env: NodeJS.ProcessEnv = process.env): string {
  const h = env.OMNI_HOME;
  return h && h.length > 0 ? path.resolve(h) : path.join(os.homedir(), '.omni');
}

let Sqlite: typeof BetterSqlite3 | undefined;
function loadSqlite(): typeof BetterSqlite3 {
  if (!Sqlite) {
    // In the esbuild CJS bundle `require` exists and import.meta is empty; under ESM
    // (tests, tsc) it is the other way round.
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    Sqlite = req('better-sqlite3') as typeof BetterSqlite3;
  }
  return Sqlite;
}

function classify(err: unknown, file: string): StoreError {
  const e = err as { code?: string; message?: string };
  const code = String(e?.code ?? '');
  const msg = String(e?.message ?? err);
  if (err instanceof StoreError) return err;
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreError('corrupt', file, `${msg} (move it aside; omni recreates it)`);
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EROFS' || code === 'EPERM') {
    return new StoreError('readonly', file, msg);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreError('locked', file, `${msg} (waited ${BUSY_TIMEOUT_MS} ms)`);
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new StoreError('readonly', file, `${msg} (check the permissions of ${path.dirname(file)})`);
  }
  return new StoreError('io', file, msg);
}

/**
 * Opens (creating if needed) the store. Throws `StoreError` when the store is corrupt,
 * read-only or locked; the caller degrades (distils without the ledger).
 */
export function openStore(opts: OpenOptions = {}): Store {
  const home = opts.home ?? omniHome();
  const file = path.join(home, STORE_FILE);
  let db: Database | undefined;
  try {
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    if (!fs.existsSync(file)) {
      // Create the file ourselves so it is 0600 from its first byte; SQLite gives the
      // -wal and -shm files the same mode as the database file.
      fs.closeSync(fs.openSync(file, 'a', 0o600));
    }
    const Ctor = loadSqlite();
    db = new Ctor(file, { timeout: opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS });
    db.pragma('synchronous = NORMAL');
    migrate(db);
    const cache = new Map<string, Statement>();
    const d = db;
    return {
      db: d,
      home,
      file,
      stmt(sql: string): Statement {
        let s = cache.get(sql);
        if (!s) {
          s = d.prepare(sql);
          cache.set(sql, s);
        }
        return s;
      },
      close(): void {
        cache.clear();
        if (d.open) d.close();
      },
    };
  } catch (err) {
    try {
      db?.close();
    } catch {
      /* already failing */
    }
    throw classify(err, file);
  }
}

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Hot path: one `PRAGMA user_version` read. Only a store that is behind takes the write
 * lock, switches to WAL (persistent, so once) and runs the missing migrations; the version
 * is re-read inside the transaction because several hooks may open a fresh store at once.
 */
function migrate(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === MIGRATIONS.length) return;
  if (version > MIGRATIONS.length) {
    throw new StoreError('corrupt', db.name, `schema version ${version} is newer than this omni (${MIGRATIONS.length})`);
  }
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') {
    db.pragma('journal_mode = WAL');
  }
  db.exec('BEGIN IMMEDIATE');
  try {
    const v = db.pragma('user_version', { simple: true }) as number;
    for (let i = v; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i]);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Moves a corrupt store aside (`omni.db.corrupt-<ms>`, with its -wal and -shm) so the next
 * `openStore` starts a fresh one. For `omni doctor --fix` and the user, never the hook path:
 * two hooks doing it at once could move each other's fresh store. Returns the new path.
 */
export function quarantineStore(home: string = omniHome(), now: number = Date.now()): string {
  const file = path.join(home, STORE_FILE);
  const dest = `${file}.corrupt-${now}`;
  fs.renameSync(file, dest);
  for (const ext of ['-wal', '-shm']) {
    try {
      fs.renameSync(file + ext, dest + ext);
    } catch {
      /* absent */
    }
  }
  return dest;
}
