/**
 * The store for a process that answers many hook calls (the MCP server behind Claude Code's
 * `mcp_tool` handlers): one connection, opened on first use and kept, so its prepared
 * statements are prepared once; every call gets its own lock budget, as a hook process does.
 *
 * Calls interleave only at awaits, and every statement and transaction is synchronous, so a
 * shared connection cannot mix two calls' writes. What a long session could make stale is
 * checked per call: the store file's identity (device and inode). A store moved aside
 * (`omni doctor`'s fix for a corrupt one), deleted or replaced is reopened at its path before
 * the call uses it. `OMNI_HOME` is the server's environment, fixed for its life.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BUSY_TIMEOUT_MS, LockBudget, omniHome, openStore, STORE_FILE, type Store } from '../store/open.js';
import { logDiagnostic } from '../store/diagnostics.js';
import { LazyStore, type SharedStore } from './store-access.js';

/** Forwards every charge to the budget of the call running now (AsyncLocalStorage). */
class CallBudget extends LockBudget {
  constructor(private readonly current: () => LockBudget) {
    super(BUSY_TIMEOUT_MS);
  }
  override allowance(): number {
    return this.current().allowance();
  }
  override charge(allowed: number, elapsed: number, busy: boolean): void {
    this.current().charge(allowed, elapsed, busy);
  }
}

function identity(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

export class WarmStore {
  readonly home: string;
  readonly file: string;
  private store: Store | null = null;
  private ident: string | null = null;
  private readonly calls = new AsyncLocalStorage<{ budget: LockBudget; checked: boolean }>();
  /** Budget for statements outside any call (none expected): a hook's own. */
  private readonly outside = new LockBudget(BUSY_TIMEOUT_MS);
  private readonly budget = new CallBudget(() => this.calls.getStore()?.budget ?? this.outside);
  /** How many times the connection was opened (tests and the bench read it). */
  opens = 0;

  constructor(env: NodeJS.ProcessEnv) {
    this.home = omniHome(env);
    this.file = join(this.home, STORE_FILE);
  }

  /** Runs one call with its own lock budget and its own view of the store. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.calls.run({ budget: new LockBudget(BUSY_TIMEOUT_MS), checked: false }, fn);
  }

  /** The LazyStore a door uses for the call running now. */
  forCall(): LazyStore {
    const call = this.calls.getStore();
    const shared: SharedStore = { budget: call?.budget ?? this.outside, get: () => this.get() };
    return new LazyStore(this.home, shared);
  }

  /** The connection, (re)opened when the file at the path is not the one it holds. Checked once per call. */
  get(): Store | null {
    const call = this.calls.getStore();
    if (call?.checked) return this.store;
    if (call) call.checked = true;
    if (this.store && identity(this.file) === this.ident) return this.store;
    this.drop();
    try {
      this.store = openStore({ home: this.home, budget: this.budget });
      this.opens++;
      this.ident = identity(this.file);
    } catch (err) {
      // Not kept as failed: the next call tries again (a lock may have been released).
      logDiagnostic('store', err);
      this.store = null;
    }
    return this.store;
  }

  close(): void {
    this.drop();
  }

  private drop(): void {
    try { this.store?.close(); } catch { /* closing is best effort */ }
    this.store = null;
    this.ident = null;
  }
}
