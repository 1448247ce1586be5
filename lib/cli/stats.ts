/**
 * `omni stats [--since 7d] [--json]`: bytes in, bytes delivered and savings per command
 * family and per door. A saving counts only where the reader received less (an accepted
 * hook reply, exec/pipe output); a pass-through counts as zero.
 */
import type { Io } from './main.js';
import { cliStore } from './cli-store.js';
import { statsSummary, type Totals } from '../store/stats.js';

export const DEFAULT_SINCE = '7d';

/** '7d', '24h', '30m', '2w' or 'all' -> a duration in ms (Infinity for all); null if invalid. */
export function parseSince(s: string): number | null {
  if (s === 'all') return Infinity;
  const m = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/.exec(s.trim());
  if (!m) return null;
  const unit = { m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 }[m[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

function pct(t: Totals): string {
  return t.bytesIn > 0 ? `${((100 * t.bytesSaved) / t.bytesIn).toFixed(1)}%` : '-';
}

function table(title: string, rows: Array<Totals & { name: string }>): string {
  const head = [title, 'runs', 'applied', 'in', 'delivered', 'saved', 'saved %'];
  const body = rows.map((r) => [r.name, String(r.runs), String(r.applied), formatBytes(r.bytesIn), formatBytes(r.bytesDelivered), formatBytes(r.bytesSaved), pct(r)]);
  const all = [head, ...body];
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ')).join('\n') + '\n';
}

export async function run(argv: string[], io: Io): Promise<number> {
  let since = DEFAULT_SINCE;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--since') since = argv[++i] ?? '';
    else if (a.startsWith('--since=')) since = a.slice('--since='.length);
    else {
      io.stderr.write(`omni stats: unknown argument '${a}'\nusage: omni stats [--since 7d] [--json]\n`);
      return 2;
    }
  }
  const ms = parseSince(since);
  if (ms === null) {
    io.stderr.write(`omni stats: --since takes a duration like 30m, 24h, 7d, 2w or 'all' (got '${since}')\n`);
    return 2;
  }
  const store = cliStore('stats', io);
  if (!store) return 1;
  try {
    const from = ms === Infinity ? 0 : Date.now() - ms;
    const s = statsSummary(store, { since: from });
    if (json) {
      io.stdout.write(JSON.stringify({ since: new Date(from).toISOString(), period: since, total: s.total, byFamily: s.byFamily, byDoor: s.byDoor }, null, 2) + '\n');
      return 0;
    }
    const t = s.total;
    io.stdout.write(
      `omni stats since ${ms === Infinity ? 'the beginning' : new Date(from).toISOString()} (${since})\n` +
        `${t.runs} runs, ${t.applied} applied: ${formatBytes(t.bytesIn)} in, ${formatBytes(t.bytesDelivered)} delivered, ${formatBytes(t.bytesSaved)} saved (${pct(t)})\n`,
    );
    if (t.runs === 0) return 0;
    io.stdout.write('\n' + table('family', s.byFamily.map((r) => ({ ...r, name: r.family }))));
    io.stdout.write('\n' + table('door', s.byDoor.map((r) => ({ ...r, name: r.door }))));
    return 0;
  } finally {
    store.close();
  }
}
