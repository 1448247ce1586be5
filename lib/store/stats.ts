/**
 * One row per distillation (`runs`), and the sums `omni stats` prints. A saving counts only
 * where the reader received the distilled bytes: an applied hook reply or omni exec/pipe
 * output. A pass-through (applied = false) counts as zero. A delivery larger than its input
 * counts as a negative saving, so `saved` is always `in - delivered`.
 */
import type { Store } from './open.js';

export interface RunRow {
  at?: number;
  door: string;
  host?: string | null;
  /** Distiller / command family, e.g. 'git', 'jest', 'generic'. */
  family: string;
  /** The command's head (program name and subcommand), not its arguments. */
  command?: string | null;
  sessionId?: string | null;
  cwd?: string | null;
  bytesIn: number;
  bytesOut: number;
  /** True when the reader actually received the distilled bytes. */
  applied: boolean;
  rawHandle?: string | null;
  deliveredHandle?: string | null;
}

/** Whether the session recorded a run after `at` (any door, any reader of it). */
export function runSince(store: Store, sessionId: string, at: number): boolean {
  return store.stmt('SELECT 1 FROM runs WHERE session = ? AND at > ? LIMIT 1').get(sessionId, at) !== undefined;
}

/** Records one distillation. One INSERT. */
export function recordRun(store: Store, r: RunRow): number {
  return Number(
    store
      .stmt(
        `INSERT INTO runs(at, door, host, family, command, session, cwd, bytes_in, bytes_out, applied, raw_handle, delivered_handle)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.at ?? Date.now(), r.door, r.host ?? null, r.family, r.command ?? null, r.sessionId ?? null, r.cwd ?? null, r.bytesIn, r.bytesOut, r.applied ? 1 : 0, r.rawHandle ?? null, r.deliveredHandle ?? null).lastInsertRowid,
  );
}

export interface Totals {
  runs: number;
  applied: number;
  bytesIn: number;
  /** What readers received: bytes_out where applied, bytes_in otherwise. */
  bytesDelivered: number;
  /** bytesIn - bytesDelivered: negative when applied deliveries grew. */
  bytesSaved: number;
}

export interface StatsSummary {
  since: number;
  total: Totals;
  byFamily: Array<Totals & { family: string }>;
  byDoor: Array<Totals & { door: string }>;
}

const SUMS = `count(*) AS runs, coalesce(sum(applied), 0) AS applied, coalesce(sum(bytes_in), 0) AS bytesIn,
  coalesce(sum(CASE WHEN applied THEN bytes_out ELSE bytes_in END), 0) AS bytesDelivered,
  coalesce(sum(CASE WHEN applied THEN bytes_in - bytes_out ELSE 0 END), 0) AS bytesSaved`;

/** Totals since `since` (ms epoch), per family and per door, biggest saving first. */
export function statsSummary(store: Store, a: { since: number }): StatsSummary {
  const total = store.stmt(`SELECT ${SUMS} FROM runs WHERE at >= ?`).get(a.since) as Totals;
  const byFamily = store.stmt(`SELECT family, ${SUMS} FROM runs WHERE at >= ? GROUP BY family ORDER BY bytesSaved DESC, family`).all(a.since) as StatsSummary['byFamily'];
  const byDoor = store.stmt(`SELECT door, ${SUMS} FROM runs WHERE at >= ? GROUP BY door ORDER BY bytesSaved DESC, door`).all(a.since) as StatsSummary['byDoor'];
  return { since: a.since, total, byFamily, byDoor };
}

/**
 * Sums per calendar day in the process's local time zone (TZ), oldest first; days without a
 * run are absent (the chart fills them in).
 */
export function statsByDay(store: Store, a: { since: number }): Array<Totals & { day: string }> {
  return store
    .stmt(`SELECT date(at / 1000, 'unixepoch', 'localtime') AS day, ${SUMS} FROM runs WHERE at >= ? GROUP BY day ORDER BY day`)
    .all(a.since) as Array<Totals & { day: string }>;
}

/** The applied runs that saved the most since `since`, biggest first (ties: newest first). */
export function topRuns(store: Store, a: { since: number; limit: number }): RunRecord[] {
  return store
    .stmt('SELECT * FROM runs WHERE at >= ? AND applied ORDER BY bytes_in - bytes_out DESC, id DESC LIMIT ?')
    .all(a.since, a.limit) as RunRecord[];
}

export interface RunRecord {
  id: number;
  at: number;
  door: string;
  host: string | null;
  family: string;
  command: string | null;
  session: string | null;
  cwd: string | null;
  bytes_in: number;
  bytes_out: number;
  applied: number;
  raw_handle: string | null;
  delivered_handle: string | null;
}

/** The latest distillation from any door (for `omni diff`). */
export function lastRun(store: Store): RunRecord | null {
  return (store.stmt('SELECT * FROM runs ORDER BY id DESC LIMIT 1').get() as RunRecord | undefined) ?? null;
}
