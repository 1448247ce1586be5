/**
 * `omni session`: the current or last session (by its latest start or end).
 * `omni session --csv`: every session as CSV (RFC 4180 quoting), newest first, columns
 * `SESSION_CSV_COLUMNS`:
 *
 *   session_id       the host's session id
 *   cwd              project directory at session start
 *   source           how it started: startup, resume, clear, compact, fork
 *   started_at       ISO 8601 UTC
 *   ended_at         ISO 8601 UTC, empty while running
 *   end_reason       SessionEnd reason: clear, resume, logout, prompt_input_exit, other
 *   runs             distillations in the session
 *   bytes_in         raw bytes those runs saw
 *   bytes_delivered  bytes the reader received (distilled where applied, raw otherwise)
 *   bytes_saved      bytes_in - bytes_delivered
 */
import type { Io } from './io.js';
import { lastSession, listSessions, sessionTotals as totals } from '../service/session.js';
import { formatBytes } from '../service/stats.js';
import { cliStore } from './cli-store.js';

export const SESSION_CSV_COLUMNS = ['session_id', 'cwd', 'source', 'started_at', 'ended_at', 'end_reason', 'runs', 'bytes_in', 'bytes_delivered', 'bytes_saved'] as const;

export function csvField(v: string | number | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const iso = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString());

export async function run(argv: string[], io: Io): Promise<number> {
  const csv = argv.includes('--csv');
  const unknown = argv.find((a) => a !== '--csv');
  if (unknown) {
    io.stderr.write(`omni session: unknown argument '${unknown}'\nusage: omni session [--csv]\n`);
    return 2;
  }
  const store = cliStore('session', io);
  if (!store) return 1;
  try {
    if (csv) {
      let out = SESSION_CSV_COLUMNS.join(',') + '\r\n';
      for (const s of listSessions(store)) {
        const t = totals(store, s);
        out += [s.session, s.cwd, s.source, iso(s.started), iso(s.ended), s.reason, t.runs, t.bytesIn, t.bytesOut, t.bytesIn - t.bytesOut].map(csvField).join(',') + '\r\n';
      }
      io.stdout.write(out);
      return 0;
    }
    const s = lastSession(store);
    if (!s) {
      io.stdout.write('no session recorded yet (sessions are recorded by the SessionStart and SessionEnd hooks)\n');
      return 0;
    }
    const t = totals(store, s);
    io.stdout.write(
      `session   ${s.session}${s.ended === null ? ' (running)' : ''}\n` +
        `project   ${s.cwd ?? '-'}\n` +
        `started   ${iso(s.started) || '-'}${s.source ? ` (${s.source})` : ''}\n` +
        (s.ended !== null ? `ended     ${iso(s.ended)}${s.reason ? ` (${s.reason})` : ''}\n` : '') +
        `runs      ${t.runs}\n` +
        `bytes     ${formatBytes(t.bytesIn)} in, ${formatBytes(t.bytesOut)} delivered, ${formatBytes(t.bytesIn - t.bytesOut)} saved\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}
