/**
 * The tables the session bench prints: per session (raw, delivered, saved, omni's own cost, net
 * saved, lost) and per call kind (with its share of the raw bytes and its target), for the
 * development set, the held-out set and all sessions.
 */
import { byKind, kindKey, netPct, savedPct, totalsOf, type SessionReport, type Totals } from './measure.js';
import { KINDS, SESSION_TARGET, TARGETS, type Kind, type Producer } from './session.js';

const pct = (x: number) => `${x.toFixed(1)}%`;
const n = (x: number) => x.toLocaleString('en-US');

function table(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => '| ' + r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join(' | ') + ' |';
  return [line(head), '|' + w.map((x, i) => (i === 0 ? '-'.repeat(x + 2) : '-'.repeat(x + 1) + ':')).join('|') + '|', ...rows.map(line)].join('\n');
}

function lost(t: Totals): string {
  return t.problems === 0 ? '0' : `**${t.problems}**`;
}

export function sessionTable(reports: SessionReport[]): string {
  const rows = reports.map((r) => [r.name, r.set, String(r.totals.calls), n(r.totals.raw), n(r.totals.delivered), pct(savedPct(r.totals.raw, r.totals.delivered)), n(r.cost.total), pct(netPct(r.totals, r.cost.total)), lost(r.totals)]);
  for (const [label, set] of [['dev set', 'dev'], ['held-out set', 'held-out'], ['all', null]] as const) {
    const rs = reports.filter((r) => set === null || r.set === set);
    if (!rs.length || (set !== null && rs.length === reports.length)) continue;
    const t = totalsOf(rs.flatMap((r) => r.calls));
    const cost = rs.reduce((a, r) => a + r.cost.total, 0);
    rows.push([`**${label}**`, '', String(t.calls), n(t.raw), n(t.delivered), pct(savedPct(t.raw, t.delivered)), n(cost), `**${pct(netPct(t, cost))}**`, lost(t)]);
  }
  return table(['session', 'set', 'calls', 'raw B', 'delivered B', 'saved', "omni's own B", 'net saved', 'lost'], rows);
}

function targetOf(key: string): string {
  if (/, failing\)$| \(failing\)$/.test(key)) return '';
  const m = /^chain-wrapped \((.+)\)$/.exec(key);
  const t = TARGETS[(m ? m[1] : key) as Kind | Producer];
  return t === undefined ? '' : `${t}%${m ? ' (producer)' : ''}`;
}

const ORDER = (k: string) => {
  const base = k.replace(/ \(.*$/, '');
  return KINDS.indexOf(base as Kind) * 100 + (k === base ? 0 : 1);
};

export function kindTable(reports: SessionReport[]): string {
  const calls = reports.flatMap((r) => r.calls);
  const all = totalsOf(calls);
  const rows = [...byKind(calls).entries()]
    .sort((a, b) => ORDER(a[0]) - ORDER(b[0]) || a[0].localeCompare(b[0]))
    .map(([k, t]) => [k, String(t.calls), n(t.raw), pct((100 * t.raw) / Math.max(1, all.raw)), n(t.delivered), pct(savedPct(t.raw, t.delivered)), targetOf(k), lost(t)]);
  rows.push(['**all calls**', String(all.calls), n(all.raw), '100%', n(all.delivered), pct(savedPct(all.raw, all.delivered)), '', lost(all)]);
  return table(['kind', 'calls', 'raw B', 'share of raw', 'delivered B', 'saved', 'target', 'lost'], rows);
}

export function costTable(reports: SessionReport[]): string {
  const parts = ['tool definitions', 'tool names', 'instructions', 'hook context', 'other'] as const;
  const rows = reports.map((r) => [r.name, `${r.cost.requests.omni} / ${r.cost.requests.base}`, ...parts.map((p) => n(r.cost.parts[p])), n(r.cost.total)]);
  return table(['session', 'requests (omni / without)', ...parts, 'total B'], rows);
}

/** Every problem (what omni lost or broke), every script error and run note, one per line. */
export function problemLines(reports: SessionReport[]): string[] {
  const out: string[] = [];
  for (const r of reports) {
    for (const c of r.calls) for (const p of c.problems) out.push(`LOST ${r.name} call ${c.index} [${kindKey(c)}] ${c.label}: ${p.type}: ${p.detail}`);
    for (const e of r.scriptErrors) out.push(`SCRIPT ${r.name} ${e}`);
    for (const e of r.runNotes) out.push(`RUN ${r.name} ${e}`);
  }
  return out;
}

/** Per call of one session: the raw and delivered bytes, markers, altered lines. */
export function callTable(r: SessionReport): string {
  const rows = r.calls.map((c) => [String(c.index), kindKey(c), c.label.length > 60 ? c.label.slice(0, 57) + '...' : c.label, n(c.raw), n(c.delivered), pct(savedPct(c.raw, c.delivered)), String(c.markers), String(c.altered), String(c.problems.length)]);
  return table(['#', 'kind', 'call', 'raw B', 'delivered B', 'saved', 'markers', 'altered', 'lost'], rows);
}

export { SESSION_TARGET };
