/**
 * The store's side of the hook door's session events, in the shape of
 * `storeHandlers` in lib/doors/hook.ts: `(env, args) => Promise<unknown>`.
 * Each opens the store (OMNI_HOME from `env`), does O(1) indexed work and closes it.
 * Errors propagate: the door catches and logs them, and the hook still exits 0.
 */
import { openStore, type Store } from './open.js';
import { recordFailure, recordSessionEnd, recordSessionStart, recordFileTouch, recordSuccess, sessionStartContext } from './memory.js';
import { prune, PRUNE_HOOK_BUDGET_MS } from './prune.js';

type Args = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A long-lived process (the MCP server) lends its open store here; null: open one per call. */
export const eventStores: { shared: (() => Store | null) | null } = { shared: null };

function withStore<T>(env: NodeJS.ProcessEnv, fn: (s: Store) => T): T {
  if (eventStores.shared) {
    const shared = eventStores.shared();
    if (!shared) throw new Error('the store is not available');
    return fn(shared);
  }
  const s = openStore({ home: str(env.OMNI_HOME) });
  try {
    return fn(s);
  } finally {
    s.close();
  }
}

export const storeEventHandlers = {
  /** PostToolUseFailure (Bash): the project's last active error. Interrupts are not errors. */
  async recordFailure(env: NodeJS.ProcessEnv, a: Args): Promise<void> {
    const cwd = str(a.cwd);
    const command = str(a.command);
    if (!cwd || !command || a.interrupted === true) return;
    withStore(env, (s) => recordFailure(s, { cwd, command, error: String(a.errorHead ?? a.error ?? '') }));
  },
  /** SessionStart: the session row, then the context block (string) or undefined. */
  async sessionStart(env: NodeJS.ProcessEnv, a: Args): Promise<string | undefined> {
    const cwd = str(a.cwd);
    const sessionId = str(a.sessionId);
    if (!cwd) return undefined;
    return withStore(env, (s) => {
      if (sessionId && !str(a.agentId)) recordSessionStart(s, { sessionId, cwd, source: str(a.source) });
      return sessionStartContext(s, { cwd, source: str(a.source) }) ?? undefined;
    });
  },
  /** SessionEnd (1.5 s shared budget): the summary row, then at most PRUNE_HOOK_BUDGET_MS of pruning. */
  async sessionEnd(env: NodeJS.ProcessEnv, a: Args): Promise<void> {
    const sessionId = str(a.sessionId);
    if (!sessionId || str(a.agentId)) return;
    withStore(env, (s) => {
      recordSessionEnd(s, { sessionId, cwd: str(a.cwd), reason: str(a.reason) });
      prune(s, { budgetMs: PRUNE_HOOK_BUDGET_MS });
    });
  },
  /** PreCompact: the door already calls forgetSession; nothing else to keep. */
  async preCompact(): Promise<void> {},
  /** PostToolUse Read/Edit/Write (args: cwd, path, tool), for hot files. */
  async fileTouch(env: NodeJS.ProcessEnv, a: Args): Promise<void> {
    const cwd = str(a.cwd);
    const path = str(a.path);
    const tool = str(a.tool);
    if (!cwd || !path || !tool) return;
    withStore(env, (s) => recordFileTouch(s, { cwd, path, tool }));
  },
  /** PostToolUse Bash that succeeded (args: cwd, command): clears that command's last error. */
  async commandSucceeded(env: NodeJS.ProcessEnv, a: Args): Promise<void> {
    const cwd = str(a.cwd);
    const command = str(a.command);
    if (!cwd || !command) return;
    withStore(env, (s) => recordSuccess(s, { cwd, command }));
  },
};
