/** Sessions as `omni session` reports them: the rows and their run totals, data only. */
import type { Store } from '../store/open.js';
import { lastSession, listSessions, type SessionRow } from '../store/memory.js';

export { lastSession, listSessions, type SessionRow };

export interface SessionTotals {
  runs: number;
  bytesIn: number;
  bytesOut: number;
}

/** Run totals for a session: the SessionEnd summary, or live from `runs` while it runs. */
export function sessionTotals(store: Store, s: SessionRow): SessionTotals {
  if (s.ended !== null && s.runs !== null) return { runs: s.runs, bytesIn: s.bytes_in ?? 0, bytesOut: s.bytes_out ?? 0 };
  const r = store
    .stmt('SELECT count(*) AS runs, coalesce(sum(bytes_in), 0) AS bin, coalesce(sum(CASE WHEN applied THEN bytes_out ELSE bytes_in END), 0) AS bout FROM runs WHERE session = ?')
    .get(s.session) as { runs: number; bin: number; bout: number };
  return { runs: r.runs, bytesIn: r.bin, bytesOut: r.bout };
}
