/**
 * Session memory per project (cwd): hot files, the last active error, facts, a pinned goal,
 * and one summary row per session. SessionStart turns it into a small context block.
 */
import type { Store } from './open.js';

/** The SessionStart context block never exceeds this many characters (README states it). */
export const SESSION_CONTEXT_MAX_CHARS = 1500;
/** Hot files listed in the block. */
export const CONTEXT_HOT_FILES = 5;
/** Facts listed in the block (newest first). */
export const CONTEXT_FACTS = 8;
/** Lines of the last error kept (and shown). */
export const ERROR_EXCERPT_LINES = 6;
/** Characters of the last error kept. */
export const ERROR_EXCERPT_CHARS = 400;
/** A fact or goal longer than this is cut when stored. */
export const MEMORY_TEXT_MAX_CHARS = 500;

export type FileTool = 'Read' | 'Edit' | 'Write' | 'MultiEdit' | 'NotebookEdit';

/** Counts one Read/Edit/Write of `path` in project `cwd`. */
export function recordFileTouch(store: Store, a: { cwd: string; path: string; tool: FileTool | string; now?: number }): void {
  const col = a.tool === 'Read' ? 'reads' : a.tool === 'Write' ? 'writes' : a.tool === 'Edit' || a.tool === 'MultiEdit' || a.tool === 'NotebookEdit' ? 'edits' : null;
  if (!col) return;
  store
    .stmt(
      `INSERT INTO hot_files(cwd, path, ${col}, at) VALUES (?, ?, 1, ?)
       ON CONFLICT(cwd, path) DO UPDATE SET ${col} = ${col} + 1, at = excluded.at`,
    )
    .run(a.cwd, a.path, a.now ?? Date.now());
}

export interface HotFile {
  path: string;
  reads: number;
  edits: number;
  writes: number;
}

export function hotFiles(store: Store, cwd: string, limit = CONTEXT_HOT_FILES): HotFile[] {
  return store
    .stmt('SELECT path, reads, edits, writes FROM hot_files WHERE cwd = ? ORDER BY reads + 2 * (edits + writes) DESC, at DESC, path LIMIT ?')
    .all(cwd, limit) as HotFile[];
}

function excerpt(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  let s = lines.slice(0, ERROR_EXCERPT_LINES).join('\n');
  if (s.length > ERROR_EXCERPT_CHARS) s = s.slice(0, ERROR_EXCERPT_CHARS - 1) + '…';
  return s;
}

/** PostToolUseFailure: the project's last active error is this command's failure. */
export function recordFailure(store: Store, a: { cwd: string; command: string; error: string; now?: number }): void {
  store
    .stmt('INSERT INTO errors(cwd, command, excerpt, at) VALUES (?, ?, ?, ?) ON CONFLICT(cwd) DO UPDATE SET command = excluded.command, excerpt = excluded.excerpt, at = excluded.at')
    .run(a.cwd, a.command.slice(0, MEMORY_TEXT_MAX_CHARS), excerpt(a.error), a.now ?? Date.now());
}

/** A command succeeded: if it is the one whose failure is the last error, that error is over. */
export function recordSuccess(store: Store, a: { cwd: string; command: string }): void {
  store.stmt('DELETE FROM errors WHERE cwd = ? AND command = ?').run(a.cwd, a.command.slice(0, MEMORY_TEXT_MAX_CHARS));
}

export interface LastError {
  command: string;
  excerpt: string;
  at: number;
}

export function lastError(store: Store, cwd: string): LastError | null {
  return (store.stmt('SELECT command, excerpt, at FROM errors WHERE cwd = ?').get(cwd) as LastError | undefined) ?? null;
}

export interface Fact {
  id: number;
  text: string;
  at: number;
}

/** Stores a fact for the project; returns its id. */
export function remember(store: Store, a: { cwd: string; text: string; now?: number }): number {
  const text = a.text.trim().slice(0, MEMORY_TEXT_MAX_CHARS);
  if (!text) throw new Error('a fact cannot be empty');
  return Number(store.stmt('INSERT INTO facts(cwd, text, at) VALUES (?, ?, ?)').run(a.cwd, text, a.now ?? Date.now()).lastInsertRowid);
}

/** The project's facts, oldest first. */
export function listFacts(store: Store, cwd: string): Fact[] {
  return store.stmt('SELECT id, text, at FROM facts WHERE cwd = ? ORDER BY id').all(cwd) as Fact[];
}

/** Forgets fact `id` of this project; false when there is no such fact. */
export function forgetFact(store: Store, a: { cwd: string; id: number }): boolean {
  return store.stmt('DELETE FROM facts WHERE cwd = ? AND id = ?').run(a.cwd, a.id).changes > 0;
}

export function setGoal(store: Store, a: { cwd: string; text: string; now?: number }): void {
  const text = a.text.trim().slice(0, MEMORY_TEXT_MAX_CHARS);
  if (!text) throw new Error('a goal cannot be empty');
  store.stmt('INSERT INTO goals(cwd, text, at) VALUES (?, ?, ?) ON CONFLICT(cwd) DO UPDATE SET text = excluded.text, at = excluded.at').run(a.cwd, text, a.now ?? Date.now());
}

export function clearGoal(store: Store, cwd: string): boolean {
  return store.stmt('DELETE FROM goals WHERE cwd = ?').run(cwd).changes > 0;
}

export function getGoal(store: Store, cwd: string): string | null {
  return (store.stmt('SELECT text FROM goals WHERE cwd = ?').get(cwd) as { text: string } | undefined)?.text ?? null;
}

/**
 * The SessionStart context block: goal, facts, last error, hot files, as plain statements
 * (text that reads like instructions can trip a host's prompt-injection defences).
 * At most `SESSION_CONTEXT_MAX_CHARS`; null when there is nothing to say.
 */
export function sessionStartContext(store: Store, a: { cwd: string; source?: string }): string | null {
  const parts: string[] = [];
  const goal = getGoal(store, a.cwd);
  if (goal) parts.push(`Pinned goal: ${goal}`);
  const facts = store.stmt('SELECT id, text FROM facts WHERE cwd = ? ORDER BY id DESC LIMIT ?').all(a.cwd, CONTEXT_FACTS) as Fact[];
  if (facts.length) parts.push('Project facts (omni remember):\n' + facts.reverse().map((f) => `- ${f.text}`).join('\n'));
  const err = lastError(store, a.cwd);
  if (err) parts.push(`Last failing command: ${err.command}\n${err.excerpt.split('\n').map((l) => `  ${l}`).join('\n')}`);
  const hot = hotFiles(store, a.cwd);
  if (hot.length) {
    parts.push(
      'Most used files: ' +
        hot.map((f) => `${f.path} (${[f.reads && `${f.reads} reads`, f.edits && `${f.edits} edits`, f.writes && `${f.writes} writes`].filter(Boolean).join(', ')})`).join('; '),
    );
  }
  if (parts.length === 0) return null;
  let s = `omni session memory for ${a.cwd}:\n` + parts.join('\n');
  if (s.length > SESSION_CONTEXT_MAX_CHARS) s = s.slice(0, SESSION_CONTEXT_MAX_CHARS - 2) + '\n…';
  return s;
}

/** SessionStart: the session row begins, or (resume, compact, clear) is marked running again; `source` keeps how it first started. One upsert. */
export function recordSessionStart(store: Store, a: { sessionId: string; cwd: string; source?: string; now?: number }): void {
  store
    .stmt(
      `INSERT INTO sessions(session, cwd, source, started) VALUES (?, ?, ?, ?)
       ON CONFLICT(session) DO UPDATE SET cwd = excluded.cwd, ended = NULL`,
    )
    .run(a.sessionId, a.cwd, a.source ?? null, a.now ?? Date.now());
}

/**
 * SessionEnd (1.5 s budget shared by all hooks): one indexed aggregate over this session's
 * runs and one upsert.
 */
export function recordSessionEnd(store: Store, a: { sessionId: string; cwd?: string; reason?: string; now?: number }): void {
  const now = a.now ?? Date.now();
  const agg = store
    .stmt('SELECT count(*) AS runs, coalesce(sum(bytes_in), 0) AS bin, coalesce(sum(CASE WHEN applied THEN bytes_out ELSE bytes_in END), 0) AS bout, min(at) AS first FROM runs WHERE session = ?')
    .get(a.sessionId) as { runs: number; bin: number; bout: number; first: number | null };
  store
    .stmt(
      `INSERT INTO sessions(session, cwd, started, ended, reason, runs, bytes_in, bytes_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(session) DO UPDATE SET cwd = coalesce(excluded.cwd, sessions.cwd), ended = excluded.ended, reason = excluded.reason,
         runs = excluded.runs, bytes_in = excluded.bytes_in, bytes_out = excluded.bytes_out`,
    )
    .run(a.sessionId, a.cwd ?? null, agg.first ?? now, now, a.reason ?? null, agg.runs, agg.bin, agg.bout);
}

export interface SessionRow {
  session: string;
  cwd: string | null;
  source: string | null;
  started: number | null;
  ended: number | null;
  reason: string | null;
  runs: number | null;
  bytes_in: number | null;
  bytes_out: number | null;
}

/** The most recently started or ended session. */
export function lastSession(store: Store): SessionRow | null {
  return (store.stmt('SELECT * FROM sessions ORDER BY coalesce(ended, started) DESC LIMIT 1').get() as SessionRow | undefined) ?? null;
}

/** All sessions, newest first. */
export function listSessions(store: Store, limit = 10000): SessionRow[] {
  return store.stmt('SELECT * FROM sessions ORDER BY coalesce(ended, started) DESC LIMIT ?').all(limit) as SessionRow[];
}
