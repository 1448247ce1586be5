/**
 * `omni stats` bars on a terminal: pure functions from numbers to text. One scale per chart;
 * a negative value grows to the left of a zero axis, so a saving that went the wrong way is
 * seen as such, never folded into zero. The same layout (`barLayout`) feeds the HTML page's
 * SVG, so the two pictures agree.
 */
import { formatBytes } from '../service/stats.js';

export interface Bar {
  label: string;
  /** Bytes saved; may be negative. */
  value: number;
  /** Printed after the value (runs, percentage...). */
  note?: string;
}

export interface ChartStyle {
  /** Block characters (█▏▎▍▌▋▊▉) when true, ASCII (#, -) otherwise. */
  unicode: boolean;
  /** ANSI colour (green saved, red negative). */
  colour: boolean;
  /** The terminal's width in columns. */
  columns: number;
}

/** The locale from LC_ALL, else LC_CTYPE, else LANG (the first one set wins, as in C). */
export function localeIsUtf8(env: NodeJS.ProcessEnv, platform: string = process.platform): boolean {
  const loc = env.LC_ALL || env.LC_CTYPE || env.LANG;
  // Windows terminals render Unicode and rarely set a POSIX locale.
  if (!loc) return platform === 'win32';
  return /utf-?8/i.test(loc);
}

/** Colour only on a terminal, and never when NO_COLOR is set (no-color.org) or TERM=dumb. */
export function chartStyle(env: NodeJS.ProcessEnv, out: { isTTY?: boolean; columns?: number }, platform: string = process.platform): ChartStyle {
  const tty = out.isTTY === true;
  return {
    unicode: localeIsUtf8(env, platform),
    colour: tty && !env.NO_COLOR && env.TERM !== 'dumb',
    columns: tty && out.columns && out.columns > 0 ? out.columns : 80,
  };
}

export { formatBytes };

export interface BarLayout {
  /** Width given to negative values, left of the axis (0 when none is negative). */
  neg: number;
  /** Width given to positive values, right of the axis. */
  pos: number;
  /** Value per unit of width. */
  unit: number;
}

/**
 * Splits `width` between the negative and the positive side in proportion to the largest
 * value on each, with one scale for both that fits either side's largest bar.
 */
export function barLayout(values: number[], width: number): BarLayout {
  const maxPos = Math.max(0, ...values);
  const maxNeg = Math.max(0, ...values.map((v) => -v));
  const span = maxPos + maxNeg;
  if (span === 0) return { neg: 0, pos: width, unit: 1 };
  let neg = maxNeg > 0 ? Math.max(1, Math.round((width * maxNeg) / span)) : 0;
  if (maxPos > 0 && neg >= width) neg = width - 1;
  const pos = width - neg;
  // The coarser side sets the scale after rounding, so no bar ever needs cutting.
  return { neg, pos, unit: Math.max(neg ? maxNeg / neg : 0, pos ? maxPos / pos : 0) };
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `cells` (fractional) cells growing right: full blocks and one eighth-block. */
function rightBar(cells: number, unicode: boolean): string {
  if (!unicode) return '#'.repeat(Math.max(1, Math.round(cells)));
  let full = Math.floor(cells);
  let eighth = Math.round((cells - full) * 8);
  if (eighth === 8) { full++; eighth = 0; }
  // A non-zero saving is never drawn as nothing.
  if (full === 0 && eighth === 0) eighth = 1;
  return '█'.repeat(full) + EIGHTHS[eighth];
}

/** A bar growing left. Only whole and right-half blocks line up against the axis. */
function leftBar(cells: number, unicode: boolean): string {
  if (!unicode) return '-'.repeat(Math.max(1, Math.round(cells)));
  const halves = Math.max(1, Math.round(cells * 2));
  return (halves % 2 ? '▐' : '') + '█'.repeat(Math.floor(halves / 2));
}

const GREEN = '\x1b[32m';
const RED = '\x1b[31m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/** Terminal display width, good enough for labels (no wide characters in family names). */
const cols = (s: string) => [...s].length;
const padEnd = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - cols(s)));
const padStart = (s: string, w: number) => ' '.repeat(Math.max(0, w - cols(s))) + s;

/**
 * One chart: a title line, then one line per bar: label, bar, signed value, note. Lines end
 * without trailing spaces. An empty `bars` draws the title and "(nothing yet)".
 */
export function renderBars(title: string, bars: Bar[], style: ChartStyle): string {
  const head = (style.colour ? BOLD + title + RESET : title) + '\n';
  if (bars.length === 0) return head + '  (nothing yet)\n';
  const labels = bars.map((b) => b.label);
  const values = bars.map((b) => formatBytes(b.value));
  const lw = Math.max(...labels.map(cols));
  const vw = Math.max(...values.map(cols));
  const nw = Math.max(0, ...bars.map((b) => cols(b.note ?? '')));
  const hasNeg = bars.some((b) => b.value < 0);
  // 2 indent + label + 2 + bars (+ axis) + 2 + value + 2 + note.
  const room = style.columns - 1 - (2 + lw + 2 + (hasNeg ? 1 : 0) + 2 + vw + (nw ? 2 + nw : 0));
  const width = Math.max(10, Math.min(60, room));
  const lay = barLayout(bars.map((b) => b.value), width);
  const axis = style.unicode ? '│' : '|';
  const paint = (s: string, c: string) => (style.colour && s ? c + s + RESET : s);
  let out = head;
  bars.forEach((b, i) => {
    const cells = Math.abs(b.value) / lay.unit;
    const right = b.value > 0 ? rightBar(Math.min(cells, lay.pos), style.unicode) : '';
    const left = b.value < 0 ? leftBar(Math.min(cells, lay.neg), style.unicode) : '';
    let bar = '';
    if (hasNeg) bar += ' '.repeat(Math.max(0, lay.neg - cols(left))) + paint(left, RED) + axis;
    bar += paint(right, GREEN) + ' '.repeat(Math.max(0, lay.pos - cols(right)));
    const value = b.value < 0 ? paint(padStart(values[i], vw), RED) : padStart(values[i], vw);
    const line = `  ${padEnd(labels[i], lw)}  ${bar}  ${value}${b.note ? '  ' + b.note : ''}`;
    out += line.replace(/ +$/, '') + '\n';
  });
  return out;
}

/** 'YYYY-MM-DD' of `ms` in the process's local time zone (matches SQLite's 'localtime'). */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Every local day from `from` to `to` inclusive, oldest first (at most `max`, the newest). */
export function dayRange(from: number, to: number, max = 400): string[] {
  const days: string[] = [];
  const d = new Date(from);
  d.setHours(12, 0, 0, 0); // noon: a DST shift never skips or repeats a day
  const last = localDay(to);
  for (let day = localDay(d.getTime()); day <= last; d.setDate(d.getDate() + 1), day = localDay(d.getTime())) days.push(day);
  return days.slice(-max);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'YYYY-MM-DD' -> 'Mon 2026-11-30'. */
export function dayLabel(day: string): string {
  return `${WEEKDAYS[new Date(day + 'T12:00:00Z').getUTCDay()]} ${day}`;
}
