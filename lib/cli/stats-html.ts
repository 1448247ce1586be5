/**
 * `omni stats --html FILE`: one self-contained page (inline CSS and SVG, no script, no fetch:
 * a Content-Security-Policy forbids any) with the terminal's charts and the top
 * distillations, each linked to its raw and delivered text embedded further down the page.
 * Pure: data in, HTML out. Everything from the store is escaped; the traces are arbitrary
 * shell output.
 *
 * Small whatever the store holds: a trace shows at most TRACE_SHOW_LINES lines of at most
 * LINE_SHOW_CHARS characters in TRACE_HTML_BYTES of markup, and names its `omni retrieve`
 * handle for the rest, so the page of the top distillations stays under about 1 MiB and a
 * browser draws it at once (bench/stats-html.ts). It holds no secret: every line shown, and
 * every command, is masked as every door masks output (maskSecrets, secretsMasked).
 */
import { barLayout, formatBytes, type Bar } from './stats-chart.js';
import type { Totals, RunRecord } from '../store/stats.js';
import { maskSecrets, textMasker } from '../pipeline/redact.js';
import type { CostTotals } from '../store/costs.js';

/** One line of a trace as the page shows it: its text (masked, perhaps cut) and its length. */
export interface ShownLine {
  text: string;
  /** The text is the line's head: the whole line has `bytes` bytes. */
  cut: boolean;
  bytes: number;
}

/** One trace as the page shows it. */
export type Trace =
  /** `more`: the trace goes on past `lines` (TRACE_SHOW_LINES). */
  | { kind: 'text'; handle: string; lines: ShownLine[]; bytes: number; more: boolean }
  | { kind: 'binary'; handle: string; bytes: number }
  /** The run named a trace that the store no longer has (traces are kept 7 days). */
  | { kind: 'pruned'; handle: string }
  /** The run kept no trace (over the trace cap, or the store could not write it). */
  | { kind: 'none' };

export interface ReportData {
  period: string;
  /** ms epoch; 0 for the beginning. */
  from: number;
  now: number;
  total: Totals;
  /** omni's own cost (its MCP tool definitions on model requests) and the saving less it. */
  cost?: CostTotals;
  netSaved?: number;
  byDay: Bar[];
  byFamily: Bar[];
  byDoor: Array<Totals & { door: string }>;
  top: Array<{ run: RunRecord; raw: Trace; delivered: Trace }>;
}

/**
 * Bytes of one line decoded at most: what is shown and well past it, so that a secret that
 * runs across the cut is still whole when it is masked.
 */
export const LINE_READ_BYTES = 16 * 1024;
/** Lines of one trace the page shows; the whole text is one `omni retrieve` away. */
export const TRACE_SHOW_LINES = 200;
/** Characters of one line the page shows (a minified bundle or a progress bar is one huge line). */
export const LINE_SHOW_CHARS = 400;
/**
 * Markup one trace adds to the page at most, past its heading: a line of control characters
 * grows ~27-fold in caret spans, so the line and character caps alone would allow megabytes.
 * About 200 lines of plain 80-column output fit; 40 traces (raw and delivered of the top 20)
 * stay under 1 MiB, which a browser draws in well under a second (bench/stats-html.ts).
 */
export const TRACE_HTML_BYTES = 16 * 1024;
/** Characters of a command the page shows. */
export const COMMAND_SHOW_CHARS = 200;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Lines with their secrets masked as every door masks them (lib/pipeline/redact.ts, a private
 * key block's body over several lines included). The traces hold what the command printed,
 * secrets and all (the raw one must, for `omni retrieve`); a report is a file a person shares,
 * so it shows none of them.
 */
export function secretsMasked(lines: string[]): string[] {
  const mask = textMasker();
  return lines.map((l) => mask(l));
}

/**
 * Trace bytes -> what the page shows: the first TRACE_SHOW_LINES lines, secrets masked, each
 * cut to LINE_SHOW_CHARS characters (never inside a surrogate pair). NUL bytes mean binary:
 * the page names the handle instead.
 */
export function traceOf(handle: string | null, data: Buffer | null): Trace {
  if (!handle) return { kind: 'none' };
  if (!data) return { kind: 'pruned', handle };
  if (data.includes(0)) return { kind: 'binary', handle, bytes: data.length };
  const heads: string[] = [];
  const sizes: number[] = [];
  let pos = 0;
  while (pos < data.length && heads.length < TRACE_SHOW_LINES) {
    const nl = data.indexOf(0x0a, pos);
    const end = nl < 0 ? data.length : nl;
    // A cut inside a multi-byte character decodes to U+FFFD, never to a wrong character.
    heads.push(data.toString('utf8', pos, Math.min(end, pos + LINE_READ_BYTES)));
    sizes.push(end - pos);
    pos = nl < 0 ? data.length : nl + 1;
  }
  // Masked before the cut: a secret cut in two would no longer be recognised.
  const lines = secretsMasked(heads).map((text, i): ShownLine => {
    const whole = sizes[i] <= LINE_READ_BYTES && text.length <= LINE_SHOW_CHARS;
    if (whole) return { text, cut: false, bytes: sizes[i] };
    const at = /[\ud800-\udbff]/.test(text[LINE_SHOW_CHARS - 1] ?? '') ? LINE_SHOW_CHARS - 1 : LINE_SHOW_CHARS;
    return { text: text.slice(0, at), cut: true, bytes: sizes[i] };
  });
  return { kind: 'text', handle, lines, bytes: data.length, more: pos < data.length };
}

/**
 * Escaped text for a <pre>, with control characters in caret notation (ESC reads ^[, CR ^M,
 * as `cat -v` shows them) marked by a class, so a colour code or a progress redraw is
 * visible in any font and never mistaken for the text itself.
 */
export function preText(text: string): string {
  return escapeHtml(text).replace(/[\x00-\x08\x0b-\x1f\x7f]+/g, (run) =>
    `<span class="ctl">${[...run].map((c) => (c === '\x7f' ? '^?' : '^' + String.fromCharCode(c.charCodeAt(0) + 64))).join('')}</span>`);
}

/** A trace's lines as <pre> content within TRACE_HTML_BYTES, and how many of them fit. */
export function traceBody(lines: ShownLine[], budget = TRACE_HTML_BYTES): { html: string; shown: number } {
  let html = '';
  let bytes = 0;
  let shown = 0;
  for (const l of lines) {
    const one = preText(l.text) + (l.cut ? `<span class="more">… (the line has ${formatBytes(l.bytes)})</span>` : '') + '\n';
    const n = Buffer.byteLength(one);
    if (bytes + n > budget) break;
    html += one;
    bytes += n;
    shown++;
  }
  return { html, shown };
}

const ROW = 24;
const LABEL_W = 150;
const BAR_W = 560;
const VALUE_W = 90;
const NOTE_W = 260;

/**
 * A horizontal bar chart as inline SVG: the terminal chart's layout, one `rect.bar` per
 * non-zero value (class `pos` or `neg`), a zero axis when any value is negative.
 */
export function svgBars(id: string, title: string, bars: Bar[]): string {
  const lay = barLayout(bars.map((b) => b.value), BAR_W);
  const scale = BAR_W / (lay.neg + lay.pos);
  const axisX = LABEL_W + lay.neg * scale;
  const height = Math.max(1, bars.length) * ROW + 8;
  const width = LABEL_W + BAR_W + VALUE_W + NOTE_W;
  const rows = bars.map((b, i) => {
    const y = 4 + i * ROW;
    const w = b.value === 0 ? 0 : Math.max(1, (Math.abs(b.value) / lay.unit) * scale);
    const x = b.value < 0 ? axisX - w : axisX;
    const cls = b.value < 0 ? 'neg' : 'pos';
    const label = escapeHtml(b.label);
    const value = escapeHtml(formatBytes(b.value));
    const rect = b.value === 0 ? '' : `<rect class="bar ${cls}" x="${x.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${ROW - 8}"><title>${label}: ${value} saved</title></rect>`;
    return (
      `<g class="row" data-label="${label}" data-value="${b.value}">` +
      `<text class="label" x="${LABEL_W - 8}" y="${y + ROW / 2 + 4}" text-anchor="end">${label}</text>${rect}` +
      `<text class="value ${cls}" x="${LABEL_W + BAR_W + VALUE_W - 4}" y="${y + ROW / 2 + 4}" text-anchor="end">${value}</text>` +
      `<text class="note" x="${LABEL_W + BAR_W + VALUE_W + 8}" y="${y + ROW / 2 + 4}">${escapeHtml(b.note ?? '')}</text></g>`
    );
  });
  const axis = lay.neg > 0 ? `<line class="axis" x1="${axisX.toFixed(1)}" y1="0" x2="${axisX.toFixed(1)}" y2="${height}"/>` : '';
  const empty = bars.length === 0 ? `<text class="note" x="${LABEL_W}" y="${ROW / 2 + 8}">nothing yet</text>` : '';
  return (
    `<figure id="${id}">` +
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}">` +
    rows.join('') + axis + empty + '</svg></figure>'
  );
}

const pct = (t: Totals) => (t.bytesIn > 0 ? `${((100 * t.bytesSaved) / t.bytesIn).toFixed(1)}%` : '-');

function totalsTable(title: string, rows: Array<Totals & { name: string }>): string {
  const cells = (r: Totals & { name: string }) =>
    `<tr><td>${escapeHtml(r.name)}</td><td>${r.runs}</td><td>${r.applied}</td><td>${formatBytes(r.bytesIn)}</td><td>${formatBytes(r.bytesDelivered)}</td><td class="${r.bytesSaved < 0 ? 'neg' : ''}">${formatBytes(r.bytesSaved)}</td><td>${pct(r)}</td></tr>`;
  return `<table class="totals"><thead><tr><th>${escapeHtml(title)}</th><th>runs</th><th>applied</th><th>in</th><th>delivered</th><th>saved</th><th>saved %</th></tr></thead><tbody>${rows.map(cells).join('')}</tbody></table>`;
}

const traceId = (run: RunRecord, side: 'raw' | 'delivered') => `run-${run.id}-${side}`;

/** The link cell for one side: a link when the text is on the page, else why it is not. */
function traceLink(run: RunRecord, side: 'raw' | 'delivered', t: Trace): string {
  switch (t.kind) {
    case 'text':
    case 'binary':
      return `<a href="#${traceId(run, side)}">${side}</a>`;
    case 'pruned':
      return `<span class="gone">${side}: pruned</span>`;
    case 'none':
      return `<span class="gone">${side}: not kept</span>`;
  }
}

function traceSection(run: RunRecord, side: 'raw' | 'delivered', t: Trace): string {
  const head = `run ${run.id} (${escapeHtml(run.family)}${run.command ? ', ' + commandText(run.command) : ''}), ${side}`;
  switch (t.kind) {
    case 'text': {
      const body = traceBody(t.lines);
      const longCut = t.lines.slice(0, body.shown).some((l) => l.cut);
      const partial = t.more || body.shown < t.lines.length || longCut;
      const cut = partial ? ` The first ${body.shown} line${body.shown === 1 ? ' is' : 's are'} shown${longCut ? ', long lines cut,' : ''} with secrets masked; the whole text: <code>omni retrieve ${escapeHtml(t.handle)}</code>.` : ' Secrets are masked here; the exact text: <code>omni retrieve ' + escapeHtml(t.handle) + '</code>.';
      return `<section class="trace" id="${traceId(run, side)}"><h3>${head}: ${formatBytes(t.bytes)} <code>omni retrieve ${escapeHtml(t.handle)}</code></h3><p class="cut">${cut}</p><pre>${body.html}</pre><p><a href="#top">back to the list</a></p></section>`;
    }
    case 'binary':
      return `<section class="trace" id="${traceId(run, side)}"><h3>${head}: ${formatBytes(t.bytes)}</h3><p>Binary bytes, not shown. The exact bytes: <code>omni retrieve ${escapeHtml(t.handle)}</code>.</p><p><a href="#top">back to the list</a></p></section>`;
    case 'pruned':
    case 'none':
      return '';
  }
}

/** A command as the page shows it: secrets masked, cut to COMMAND_SHOW_CHARS, escaped. */
function commandText(command: string): string {
  const c = maskSecrets(command.slice(0, LINE_READ_BYTES));
  return escapeHtml(c.slice(0, COMMAND_SHOW_CHARS)) + (c.length > COMMAND_SHOW_CHARS || command.length > LINE_READ_BYTES ? '…' : '');
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1140px;padding:0 16px;color:#1d232a;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:14px;margin:16px 0 6px;overflow-wrap:anywhere}
.summary{font-size:15px}.summary b{font-variant-numeric:tabular-nums}
figure{margin:8px 0 20px}
svg.chart{display:block;max-width:100%;height:auto}
svg text{font:12px system-ui,sans-serif;fill:#333;font-variant-numeric:tabular-nums}
svg text.neg{fill:#b3261e}svg text.note{fill:#667}
rect.bar.pos{fill:#2e7d32}rect.bar.neg{fill:#c62828}line.axis{stroke:#555;stroke-width:1}
table{border-collapse:collapse;margin:8px 0;font-variant-numeric:tabular-nums}
th,td{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
td.neg,b.neg{color:#b3261e}td.cmd{text-align:left;white-space:normal;word-break:break-all;max-width:260px}
.gone{color:#8a4b00}
.trace{border-top:1px solid #e3e6ea;margin-top:12px}.trace:target{background:#fff8e1}
pre{background:#f6f8fa;border:1px solid #e3e6ea;padding:8px;max-height:32em;overflow:auto;white-space:pre;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.cut{color:#8a4b00}.ctl{color:#8250df;background:#f0e8ff}.more{color:#8a4b00;font-style:italic}
`;

/** omni's own cost netted against the saving; nothing when it cost nothing. */
function costHtml(d: ReportData): string {
  const c = d.cost;
  if (!c || c.bytes <= 0) return '';
  const net = d.netSaved ?? d.total.bytesSaved - c.bytes;
  const per = c.requests > 0 ? Math.round(c.bytes / c.requests) : 0;
  return `<p class="summary" id="cost">omni's own cost: <b>${formatBytes(c.bytes)}</b> (its MCP tool definitions, ~${formatBytes(per)} on each of <b>${c.requests}</b> model requests seen); net saved <b class="${net < 0 ? 'neg' : ''}">${formatBytes(net)}</b></p>`;
}

export function renderHtml(d: ReportData): string {
  const t = d.total;
  const since = d.from === 0 ? 'the beginning' : new Date(d.from).toISOString();
  const top = d.top.map(({ run, raw, delivered }, i) => {
    const saved = run.bytes_in - run.bytes_out;
    return (
      `<tr id="top-${run.id}"><td>${i + 1}</td><td>${escapeHtml(new Date(run.at).toISOString().replace('T', ' ').slice(0, 19))}</td>` +
      `<td>${escapeHtml(run.door)}${run.host ? ' / ' + escapeHtml(run.host) : ''}</td><td>${escapeHtml(run.family)}</td><td class="cmd">${run.command ? commandText(run.command) : ''}</td>` +
      `<td>${formatBytes(run.bytes_in)}</td><td>${formatBytes(run.bytes_out)}</td><td class="${saved < 0 ? 'neg' : ''}">${formatBytes(saved)}</td>` +
      `<td>${traceLink(run, 'raw', raw)} · ${traceLink(run, 'delivered', delivered)}</td></tr>`
    );
  });
  const anyGone = d.top.some((x) => x.raw.kind === 'pruned' || x.delivered.kind === 'pruned');
  const anyNone = d.top.some((x) => x.raw.kind === 'none' || x.delivered.kind === 'none');
  const notes = [
    anyGone ? 'A trace marked "pruned" is past the store\'s retention: raw and delivered traces are kept for 7 days.' : '',
    anyNone ? 'A trace marked "not kept" was never stored (a stream over the 8 MiB trace cap).' : '',
  ].filter(Boolean).map((s) => `<p class="gone">${escapeHtml(s)}</p>`).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>omni stats (${escapeHtml(d.period)})</title>
<style>${CSS}</style></head>
<body id="top">
<h1>omni stats</h1>
<p>Since ${escapeHtml(since)} (${escapeHtml(d.period)}), written ${escapeHtml(new Date(d.now).toISOString())}. Only bytes the reader really received count; a pass-through counts as zero, a delivery larger than its input as a negative saving.</p>
<p class="summary" id="summary"><b>${t.runs}</b> runs, <b>${t.applied}</b> applied: <b>${formatBytes(t.bytesIn)}</b> in, <b>${formatBytes(t.bytesDelivered)}</b> delivered, <b class="${t.bytesSaved < 0 ? 'neg' : ''}">${formatBytes(t.bytesSaved)}</b> saved (${pct(t)})</p>
${costHtml(d)}
<h2>Saved per day</h2>
${svgBars('chart-day', 'bytes saved per day', d.byDay)}
<h2>Saved per family</h2>
${svgBars('chart-family', 'bytes saved per command family', d.byFamily)}
<h2>Per door</h2>
${totalsTable('door', d.byDoor.map((r) => ({ ...r, name: r.door })))}
<h2 id="top-runs">Top distillations</h2>
${d.top.length ? `<table class="top"><thead><tr><th>#</th><th>when (UTC)</th><th>door</th><th>family</th><th>command</th><th>in</th><th>delivered</th><th>saved</th><th>text</th></tr></thead><tbody>${top.join('')}</tbody></table>${notes}` : '<p>No applied distillation in this period.</p>'}
<h2>Traces</h2>
${d.top.map(({ run, raw, delivered }) => traceSection(run, 'raw', raw) + traceSection(run, 'delivered', delivered)).join('\n') || '<p>None.</p>'}
</body></html>
`;
}
