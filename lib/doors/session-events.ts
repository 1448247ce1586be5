/**
 * Session events, the one typed way both doors that see a session (the hook door and the Pi
 * extension) write session memory and the ledger: a session starts or ends, the model's context
 * is reset (compact, clear, a branch moved), a command fails or succeeds, a file is read.
 *
 * Each takes the store as a getter, so an event with nothing to record never opens SQLite; the
 * caller owns opening, closing and catching (the hook door logs and still exits 0, Pi logs and
 * leaves its result alone). Session rows key the main agent: a subagent's start or end is not a
 * session of its own.
 */
import type { Store } from '../store/open.js';
import { recordFailure, recordFileTouch, recordSessionEnd, recordSessionStart, recordSuccess, sessionStartContext } from '../store/memory.js';
import { forgetSession } from '../store/ledger.js';
import { prune, PRUNE_HOOK_BUDGET_MS } from '../store/prune.js';

/** The store, opened on first call; null when it cannot open. */
export type StoreGetter = () => Store | null;

export interface SessionStart {
  sessionId?: string;
  /** False for a subagent's start: its context is injected, but no session row is written. */
  main: boolean;
  cwd?: string;
  /** startup, resume, clear, compact (Claude Code's vocabulary). */
  source?: string;
}

/** Records the session row (main agent) and returns the session-memory block, or null. */
export function sessionStarted(store: StoreGetter, e: SessionStart): string | null {
  if (!e.cwd) return null;
  const s = store();
  if (!s) return null;
  const source = e.source || undefined;
  if (e.sessionId && e.main) recordSessionStart(s, { sessionId: e.sessionId, cwd: e.cwd, source });
  return sessionStartContext(s, { cwd: e.cwd, source });
}

export interface SessionEnd {
  sessionId?: string;
  main: boolean;
  cwd?: string;
  reason?: string;
}

/** The session's summary row, then at most PRUNE_HOOK_BUDGET_MS of pruning (SessionEnd has 1.5 s in all). */
export function sessionEnded(store: StoreGetter, e: SessionEnd): void {
  if (!e.sessionId || !e.main) return;
  const s = store();
  if (!s) return;
  recordSessionEnd(s, { sessionId: e.sessionId, cwd: e.cwd || undefined, reason: e.reason || undefined });
  prune(s, { budgetMs: PRUNE_HOOK_BUDGET_MS });
}

/** The model no longer holds what it was shown (compaction, clear, another branch): the ledger forgets the session. */
export function contextReset(store: StoreGetter, sessionId: string | undefined): void {
  if (!sessionId) return;
  const s = store();
  if (s) forgetSession(s, sessionId);
}

export interface CommandFailure {
  cwd?: string;
  /** The user's command (not omni's wrapper around it). */
  command?: string;
  /** The head of what the failure printed. */
  error: string;
  /** Stopped by the user (Esc, Ctrl-C): an interrupt, not an error. */
  interrupted?: boolean;
}

/** The project's last active error, for the next session's context. */
export function commandFailed(store: StoreGetter, e: CommandFailure): void {
  if (!e.cwd || !e.command || e.interrupted === true) return;
  const s = store();
  if (s) recordFailure(s, { cwd: e.cwd, command: e.command, error: e.error });
}

/** A command that succeeded clears its own last error. */
export function commandSucceeded(store: StoreGetter, e: { cwd?: string; command?: string }): void {
  if (!e.cwd || !e.command) return;
  const s = store();
  if (s) recordSuccess(s, { cwd: e.cwd, command: e.command });
}

/** A file the agent read, for the hot files of the next session's context. */
export function fileRead(store: StoreGetter, e: { cwd?: string; path?: string }): void {
  if (!e.cwd || !e.path) return;
  const s = store();
  if (s) recordFileTouch(s, { cwd: e.cwd, path: e.path, tool: 'Read' });
}
