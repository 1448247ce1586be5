/**
 * `omni stats [--since 7d] [--json] [--bars] [--html FILE]`: bytes in, bytes delivered and
 * savings per command family and per door. A saving counts only where the reader received
 * the distilled bytes (an accepted hook reply, exec/pipe output); a pass-through counts as
 * zero, a delivery larger than its input as a negative saving.
 *
 * On a terminal (or with --bars) it draws the savings per day and per family as bars;
 * otherwise it prints the plain tables scripts read. --html writes the same charts as one
 * self-contained page.
 */
import { closeSync, fchmodSync, fstatSync, openSync, writeFileSync } from 'node:fs';
import type { Io } from './io.js';
import { cliStore } from './cli-store.js';
import { statsByDay, topRuns, type Totals, type StatsSummary } from '../store/stats.js';
import type { Store } from '../store/open.js';
import { getBlob } from '../store/archive.js';
import { chartStyle, renderBars, dayRange, dayLabel, type Bar, type ChartStyle } from './stats-chart.js';
import { renderHtml, traceOf, type ReportData } from './stats-html.js';
import { DEFAULT_SINCE, badSince, costLine, doorTable, familyTable, formatBytes, parseSince, pct, runsText as runs, statsHeader, statsOf, statsWindow, type StatsReport } from '../service/stats.js';

export { formatBytes, parseSince, DEFAULT_SINCE };
/** Distillations the HTML page lists with their traces. */
export const TOP_RUNS = 20;

const USAGE = 'usage: omni stats [--since 7d] [--json] [--bars] [--html FILE]\n';

/** One bar per local day from the window's first day to today; a day without runs is 0. */
export function dayBars(byDay: Array<Totals & { day: string }>, from: number, now: number): Bar[] {
  const have = new Map(byDay.map((d) => [d.day, d]));
  // 'all': from the first day with a run (a date-time without Z is local time).
  const start = from > 0 ? from : byDay.length ? new Date(byDay[0].day + 'T12:00:00').getTime() : now;
  return dayRange(start, now).map((day) => {
    const d = have.get(day);
    return { label: dayLabel(day), value: d?.bytesSaved ?? 0, note: d ? `${runs(d.runs)}, ${pct(d)} of ${formatBytes(d.bytesIn)}` : '' };
  });
}

export function familyBars(byFamily: StatsSummary['byFamily']): Bar[] {
  return byFamily.map((f) => ({ label: f.family, value: f.bytesSaved, note: `${runs(f.runs)}, ${pct(f)} of ${formatBytes(f.bytesIn)}` }));
}

/** The terminal picture: per day, then per family. */
export function renderCharts(byDay: Bar[], byFamily: Bar[], style: ChartStyle): string {
  return renderBars('saved per day', byDay, style) + '\n' + renderBars('saved per family', byFamily, style);
}

function report(store: Store, s: StatsReport, period: string, from: number, now: number): ReportData {
  return {
    period,
    from,
    now,
    total: s.total,
    cost: s.cost,
    netSaved: s.netSaved,
    byDay: dayBars(statsByDay(store, { since: from }), from, now),
    byFamily: familyBars(s.byFamily),
    byDoor: s.byDoor,
    top: topRuns(store, { since: from, limit: TOP_RUNS }).map((run) => ({
      run,
      raw: traceOf(run.raw_handle, run.raw_handle ? getBlob(store, run.raw_handle) : null),
      delivered: traceOf(run.delivered_handle, run.delivered_handle ? getBlob(store, run.delivered_handle) : null),
    })),
  };
}

/**
 * Writes the report readable by its owner only (0600, an existing file's mode included): the
 * page shows commands and their output, which may name private paths and hosts even with the
 * secrets masked.
 */
function writePrivate(file: string, text: string): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    if (fstatSync(fd).isFile()) fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

export async function run(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let since = DEFAULT_SINCE;
  let json = false;
  let bars = false;
  let html: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--bars') bars = true;
    else if (a === '--since') since = argv[++i] ?? '';
    else if (a.startsWith('--since=')) since = a.slice('--since='.length);
    else if (a === '--html') html = argv[++i] ?? '';
    else if (a.startsWith('--html=')) html = a.slice('--html='.length);
    else {
      io.stderr.write(`omni stats: unknown argument '${a}'\n${USAGE}`);
      return 2;
    }
  }
  if (html === '') {
    io.stderr.write(`omni stats: --html takes a file name ('-' for stdout)\n${USAGE}`);
    return 2;
  }
  const w = statsWindow(since);
  if (w === null) {
    io.stderr.write(`${badSince(since)}\n`);
    return 2;
  }
  const store = cliStore('stats', io);
  if (!store) return 1;
  try {
    const { from, now } = w;
    const s = statsOf(store, w);
    if (html !== null) {
      const page = renderHtml(report(store, s, since, from, now));
      if (html === '-') io.stdout.write(page);
      else {
        try {
          writePrivate(html, page);
        } catch (err) {
          io.stderr.write(`omni stats: cannot write ${html}: ${(err as Error).message}\n`);
          return 1;
        }
        io.stdout.write(`omni stats: wrote ${html} (${formatBytes(Buffer.byteLength(page))}, ${runs(s.total.runs)})\n`);
      }
      return 0;
    }
    if (json) {
      io.stdout.write(JSON.stringify({ since: new Date(from).toISOString(), period: since, total: s.total, cost: s.cost, netSaved: s.netSaved, byFamily: s.byFamily, byDoor: s.byDoor }, null, 2) + '\n');
      return 0;
    }
    io.stdout.write(statsHeader(w, s.total) + costLine(s));
    if (s.total.runs === 0) return 0;
    const out = io.stdout as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
    if (bars || out.isTTY) {
      const style = chartStyle(env, out);
      io.stdout.write('\n' + renderCharts(dayBars(statsByDay(store, { since: from }), from, now), familyBars(s.byFamily), style));
    } else io.stdout.write('\n' + familyTable(s));
    io.stdout.write('\n' + doorTable(s));
    return 0;
  } finally {
    store.close();
  }
}
