/**
 * Stats: bytes in, delivered and saved per family and per door over a period. The window and
 * the summary are data; `statsText` is the plain report both `omni stats` (off a terminal) and
 * `omni_stats` print, so the two never drift apart.
 */
import type { Store } from '../store/open.js';
import { statsSummary, type StatsSummary, type Totals } from '../store/stats.js';
import { costSummary, type CostTotals } from '../store/costs.js';

export const DEFAULT_SINCE = '7d';

/** '7d', '24h', '30m', '2w' or 'all' -> a duration in ms (Infinity for all); null if invalid. */
export function parseSince(s: string): number | null {
  if (s === 'all') return Infinity;
  const m = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/.exec(s.trim());
  if (!m) return null;
  const unit = { m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 }[m[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

export const badSince = (since: string): string => `omni stats: --since takes a duration like 30m, 24h, 7d, 2w or 'all' (got '${since}')`;

/** The period a report covers: `from` is 0 for 'all'. */
export interface StatsWindow {
  period: string;
  ms: number;
  from: number;
  now: number;
}

export function statsWindow(period: string, now: number = Date.now()): StatsWindow | null {
  const ms = parseSince(period);
  if (ms === null) return null;
  return { period, ms, from: ms === Infinity ? 0 : now - ms, now };
}

/**
 * The saving, and omni's own cost in the same window: the definitions of omni's MCP tools on
 * each model request they rode on (0 when the server offers the model none, the default).
 * `netSaved` is the saving less that cost.
 */
export interface StatsReport extends StatsSummary {
  cost: CostTotals;
  netSaved: number;
}

export function statsOf(store: Store, w: StatsWindow): StatsReport {
  const s = statsSummary(store, { since: w.from });
  const cost = costSummary(store, { since: w.from });
  return { ...s, cost, netSaved: s.total.bytesSaved - cost.bytes };
}

/** The cost line, when omni cost anything: '' otherwise. */
export function costLine(s: StatsReport): string {
  if (s.cost.bytes <= 0) return '';
  const per = s.cost.requests > 0 ? Math.round(s.cost.bytes / s.cost.requests) : 0;
  return `omni's own cost: ${formatBytes(s.cost.bytes)} (its MCP tool definitions, ~${formatBytes(per)} on each of ${s.cost.requests} model requests seen); net saved ${formatBytes(s.netSaved)}\n`;
}

export function formatBytes(n: number): string {
  if (n < 0) return '-' + formatBytes(-n);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export function pct(t: Totals): string {
  return t.bytesIn > 0 ? `${((100 * t.bytesSaved) / t.bytesIn).toFixed(1)}%` : '-';
}

export const runsText = (n: number): string => `${n} run${n === 1 ? '' : 's'}`;

/** The two header lines: the period and the totals. */
export function statsHeader(w: StatsWindow, t: Totals): string {
  return (
    `omni stats since ${w.ms === Infinity ? 'the beginning' : new Date(w.from).toISOString()} (${w.period})\n` +
    `${t.runs} runs, ${t.applied} applied: ${formatBytes(t.bytesIn)} in, ${formatBytes(t.bytesDelivered)} delivered, ${formatBytes(t.bytesSaved)} saved (${pct(t)})\n`
  );
}

/** An aligned table: the name column left, the numbers right. */
export function statsTable(title: string, rows: Array<Totals & { name: string }>): string {
  const head = [title, 'runs', 'applied', 'in', 'delivered', 'saved', 'saved %'];
  const body = rows.map((r) => [r.name, String(r.runs), String(r.applied), formatBytes(r.bytesIn), formatBytes(r.bytesDelivered), formatBytes(r.bytesSaved), pct(r)]);
  const all = [head, ...body];
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ')).join('\n') + '\n';
}

export const familyTable = (s: StatsSummary): string => statsTable('family', s.byFamily.map((r) => ({ ...r, name: r.family })));
export const doorTable = (s: StatsSummary): string => statsTable('door', s.byDoor.map((r) => ({ ...r, name: r.door })));

/** The plain report: header, then (when anything ran) the family and door tables. */
export function statsText(w: StatsWindow, s: StatsReport): string {
  const head = statsHeader(w, s.total) + costLine(s);
  if (s.total.runs === 0) return head;
  return head + '\n' + familyTable(s) + '\n' + doorTable(s);
}
