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
 *
 * Waiting for another process's lock is bounded per call, not per statement: every statement
 * runs through one `LockBudget` (250 ms for a hook, 2 s for a typed subcommand). A statement
 * may wait only what is left of it; one that waited and still found the store locked spends
 * the rest, so every later statement in the call is refused at once (SQLITE_BUSY, which the
 * callers already treat as "no store": nothing archived, so nothing removed).
 */
import { monotonicMs } from '../base/clock.js';
import { ensureDir } from '../base/ensure-dir.js';
import { lazyRequire } from '../base/lazy-require.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS } from './schema.js';

export type Database = BetterSqlite3.Database;

/** A prepared statement whose lock waits are charged to the store's `LockBudget`. */
export interface Statement {
  run(...params: unknown[]): BetterSqlite3.RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

/**
 * How long one statement waits for another process's write lock before giving up.
 * Hooks for parallel tool calls write at once; a write transaction here holds the lock for
 * well under a millisecond (measured: 16 concurrent writers, see bench/store.mjs), so 250 ms
 * absorbs any realistic queue while a wedged store costs a hook at most a quarter second.
 */
export const BUSY_TIMEOUT_MS = 250;

/** The CLI subcommands (retrieve, stats, …) are not on a hook's clock: they may wait longer. */
export const CLI_BUSY_TIMEOUT_MS = 2000;

/**
 * A long-lived process (the Pi extension, a long `omni exec`) gets its budget back this long
 * after it started spending it; a hook process ends well before, so it has one budget.
 */
export const LOCK_BUDGET_WINDOW_MS = 10_000;

/** A statement that took less than this did not wait for a lock worth charging (SQLite's first busy sleep is 1 ms). */
const CHARGE_MIN_MS = 1;

const isBusy = (err: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown })?.code ?? ''));

/**
 * How long this process may still wait for other processes' locks. Shared by every store
 * opened with the same timeout in one process (`lockBudget`), so a hook that opens the
 * store twice still waits at most once the budget.
 */
export class LockBudget {
  private left: number;
  private windowStart: number | null = null;
  /** Statements that waited for the lock and still found it held. */
  waits = 0;
  /** Statements refused at once because the budget was spent. */
  refused = 0;
  constructor(readonly ms: number, private readonly now: () => number = () => monotonicMs()) {
    this.left = ms;
  }

  /** Whole milliseconds the next statement may wait (SQLite's busy_timeout). */
  allowance(): number {
    if (this.windowStart !== null && this.now() - this.windowStart >= LOCK_BUDGET_WINDOW_MS) {
      this.left = this.ms;
      this.windowStart = null;
    }
    return Math.max(0, Math.floor(this.left));
  }

  /**
   * After a statement that was allowed `allowed` ms: `busy` means it waited all of them and
   * the store is still held, so the budget is spent; a slow success spends what it took.
   */
  charge(allowed: number, elapsed: number, busy: boolean): void {
    if (busy) {
      if (allowed > 0) this.waits++;
      else this.refused++;
    }
    const spent = busy ? Math.max(allowed, elapsed) : elapsed >= CHARGE_MIN_MS ? elapsed : 0;
    if (spent <= 0) return;
    this.windowStart ??= this.now();
    this.left = busy ? 0 : Math.max(0, this.left - spent);
  }
}

const budgets = new Map<number, LockBudget>();

/** This process's budget for stores opened with `ms` of busy timeout. */
export function lockBudget(ms: number = BUSY_TIMEOUT_MS): LockBudget {
  let b = budgets.get(ms);
  if (!b) budgets.set(ms, (b = new LockBudget(ms)));
  return b;
}

export const STORE_FILE = 'omni.db';

export type StoreFailure = 'corrupt' | 'newer' | 'readonly' | 'locked' | 'io';

/** Why the store could not be used. `reason` lets `omni doctor` say what to do. */
export class StoreError extends Error {
  readonly reason: StoreFailure;
  readonly file: string;
  constructor(reason: StoreFailure, file: string, detail: string) {
    const what: Record<StoreFailure, string> = {
      corrupt: 'is corrupt or not an omni store',
      newer: 'was written by a newer omni',
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
  /** The lock wait budget every statement of this store is charged to. */
  readonly budget: LockBudget;
  /** A prepared statement, cached per connection (preparing costs more than running). */
  stmt(sql: string): Statement;
  close(): void;
}

export interface OpenOptions {
  /** Directory holding omni.db. Default: `omniHome()`. */
  home?: string;
  /** Default `BUSY_TIMEOUT_MS`: the lock wait budget of the whole call (see `LockBudget`). */
  busyTimeoutMs?: number;
  /** Default: this process's `lockBudget(busyTimeoutMs)`. */
  budget?: LockBudget;
  /** SQLite's page cache, in KiB. Default: the build's (better-sqlite3's: 16000). */
  cacheKiB?: number;
}

/** `OMNI_HOME`, else `~/.omni`. */
export function omniHome(env: NodeJS.ProcessEnv = process.env): string {
  const h = env.OMNI_HOME;
  return h && h.length > 0 ? path.resolve(h) : path.join(os.homedir(), '.omni');
}

let sqlite: { Ctor: typeof BetterSqlite3; nativeBinding?: string } | undefined;

/**
 * better-sqlite3, loaded on first use. In the bundle its JavaScript is bundled (the code cache
 * covers it: no module tree to resolve per call) and the addon is named by path, which spares
 * the `bindings` package's search of a dozen candidate directories (~1 ms per call). A layout
 * where that path does not exist (an addon built elsewhere) falls back to that search.
 */
function loadSqlite(): { Ctor: typeof BetterSqlite3; nativeBinding?: string } {
  if (sqlite) return sqlite;
  if (typeof require === 'function') {
    const Ctor = require('better-sqlite3') as typeof BetterSqlite3;
    let nativeBinding: string | undefined;
    try {
      const pkg = require.resolve('better-sqlite3/package.json');
      const addon = path.join(path.dirname(pkg), 'build', 'Release', 'better_sqlite3.node');
      if (fs.existsSync(addon)) nativeBinding = addon;
    } catch { /* the search below */ }
    return (sqlite = { Ctor, nativeBinding });
  }
  return (sqlite = { Ctor: lazyRequire<typeof BetterSqlite3>('better-sqlite3')() });
}

export function classify(err: unknown, file: string): StoreError {
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
    return new StoreError('locked', file, msg);
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
  const budget = opts.budget ?? lockBudget(opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS);
  let db: Database | undefined;
  try {
    ensureDir(home);
    if (!fs.existsSync(file)) {
      // Create the file ourselves so it is 0600 from its first byte; SQLite gives the
      // -wal and -shm files the same mode as the database file.
      fs.closeSync(fs.openSync(file, 'a', 0o600));
    }
    const { Ctor, nativeBinding } = loadSqlite();
    let timeout = budget.allowance();
    const d = (db = new Ctor(file, nativeBinding ? { timeout, nativeBinding } : { timeout }));
    // Statements being iterated: SQLite refuses a pragma while one is mid-step ("busy
    // executing a query"), and an iterator left open that way broke every later statement.
    let iterating = 0;
    /** Runs one step that may wait for a lock, within what is left of the budget. */
    const guarded = <T>(fn: () => T): T => {
      const allowed = budget.allowance();
      // Only ever lowered: an idle budget costs no pragma per statement. Mid-iteration the
      // timeout stays as it was; the next statement boundary lowers it.
      if (allowed !== timeout && iterating === 0) {
        d.pragma(`busy_timeout = ${allowed}`);
        timeout = allowed;
      }
      const t0 = monotonicMs();
      try {
        const r = fn();
        budget.charge(allowed, monotonicMs() - t0, false);
        return r;
      } catch (err) {
        budget.charge(allowed, monotonicMs() - t0, isBusy(err));
        throw err;
      }
    };
    guarded(() => {
      d.pragma('synchronous = NORMAL');
      if (opts.cacheKiB !== undefined) d.pragma(`cache_size = ${-Math.max(1, Math.floor(opts.cacheKiB))}`);
      migrate(d);
    });
    const cache = new Map<string, Statement>();
    return {
      db: d,
      home,
      file,
      budget,
      stmt(sql: string): Statement {
        let s = cache.get(sql);
        if (!s) {
          const p = d.prepare(sql);
          s = {
            run: (...a: unknown[]) => guarded(() => p.run(...a)),
            get: (...a: unknown[]) => guarded(() => p.get(...a)),
            all: (...a: unknown[]) => guarded(() => p.all(...a)),
            // Each step may take the read lock, so each step is charged. A step that throws
            // ends the iterator: a statement left open keeps the whole connection busy, and a
            // long-lived process (the MCP server) keeps its connection.
            iterate: (...a: unknown[]) => {
              const it = p.iterate(...a);
              let open = true;
              const done = () => { if (open) { open = false; iterating--; } };
              iterating++;
              const step: IterableIterator<unknown> = {
                [Symbol.iterator]: () => step,
                next: () => {
                  try {
                    const r = guarded(() => it.next());
                    if (r.done) done();
                    return r;
                  } catch (err) {
                    done();
                    try { it.return?.(); } catch { /* already failing */ }
                    throw err;
                  }
                },
                return: (v?: unknown) => { done(); return it.return?.(v) ?? { done: true, value: v }; },
              };
              return step;
            },
          };
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

/**
 * Whether the store takes writes: a write transaction that is rolled back. For `omni doctor`,
 * never the hook path. Throws the `StoreError` saying why not (locked, readonly, corrupt…).
 */
export function probeWritable(store: Store): void {
  const { db } = store;
  try {
    db.pragma(`busy_timeout = ${store.budget.allowance()}`);
    db.exec('BEGIN IMMEDIATE');
    try {
      // Rewriting the version writes page 1: a read-only file refuses it.
      db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
    } finally {
      db.exec('ROLLBACK');
    }
  } catch (err) {
    throw classify(err, store.file);
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
    // Not corrupt: every handle in it is good, for the omni that wrote it. Never moved aside.
    throw new StoreError('newer', db.name, `schema version ${version} is newer than this omni (${MIGRATIONS.length}); upgrade omni`);
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
