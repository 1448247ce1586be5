/**
 * A re-read of a file the reader already holds, answered from what it holds.
 *
 * A host that numbers a read's lines (Claude Code shows `content` as `N\t<line>` from
 * `startLine`) tells the model each line's number; a reply must keep every number true. So a
 * re-read is answered in one of three ways, decided here as pure functions of what the reader
 * was shown (its views of the file, newest first) and what it reads now:
 *
 * - unchanged: the lines it reads are the ones it was shown, at the same numbers: one marker
 *   naming when it was shown and the handle of the lines, whatever the file contains;
 * - changed: one window of the changed lines with their real numbers, after a header line that
 *   says which lines are as it read them and which lines the window replaces, and before a
 *   marker for the unchanged lines after it (their numbers then and now). The header stands at
 *   the number of the last line it vouches for, as a head fold does, so the host's numbering
 *   of the window is the file's;
 * - none: the reader holds no view that covers the read, or the answer would not be smaller:
 *   the caller sends the read as it is.
 *
 * Only one window, because only a fold at the head or the tail keeps the host's numbers true:
 * changes far apart make one wide window (or the whole read when that is not smaller).
 */

/** What the reader was shown of a file: the content the host numbered from `startLine`. */
export interface FileView {
  at: number;
  startLine: number;
  content: string;
  totalLines: number;
  /**
   * 'shown': the reader got this content. 'marker': omni answered a re-read of it with the
   * unchanged marker (the content is what the marker stood for).
   */
  kind: 'shown' | 'marker';
  /** How the reader came to hold it: a Read (the default), or its own Edit or Write of the file. */
  via?: Via;
}

/** What the host read now. */
export interface FileRead {
  startLine: number;
  content: string;
  totalLines: number;
}

/**
 * Unchanged lines kept around a window: one each side anchors the change for the reader, who
 * holds the rest and is told which of its lines the window replaces.
 */
export const REREAD_CONTEXT_LINES = 1;
/** How far the lines of a part read may have moved and still be found in a view of the whole. */
export const REREAD_SLACK_LINES = 200;
/** Reads (and views) larger than this are sent as they are: the comparison stays cheap. */
export const REREAD_MAX_BYTES = 4 * 1024 * 1024;

/** A run of the read's lines (numbers in the file now) and where they were in the view. */
export interface Span {
  first: number;
  last: number;
  /** The same lines' numbers in the view (equal to first/last when nothing moved). */
  wasFirst: number;
  wasLast: number;
}

/** How the reader came to hold the view answered from. */
export type Via = 'read' | 'edit' | 'write';

export type RereadPlan =
  | { kind: 'none'; why: string; again?: true }
  | { kind: 'unchanged'; since: number; via: Via; span: Span }
  | {
      kind: 'changed';
      since: number;
      via: Via;
      /** Lines before the window, as the reader holds them (null: the window starts the read). */
      head: Span | null;
      /**
       * The window: lines first..last now, replacing the view's wasFirst..wasLast (either may be
       * empty; NaN where a part read's window has no line in common with the view at that end).
       */
      window: Span;
      /** Lines after the window, as the reader holds them. */
      tail: Span | null;
    };

/** The lines the host numbers: a content ending with a newline has an empty last line. */
export function hostLines(content: string): string[] {
  return content.split('\n');
}

interface Lines {
  start: number;
  lines: string[];
  /** Number of the last line. */
  end: number;
  total: number;
  whole: boolean;
}

function linesOf(v: { startLine: number; content: string; totalLines: number }): Lines {
  const lines = hostLines(v.content);
  const end = v.startLine + lines.length - 1;
  return { start: v.startLine, lines, end, total: v.totalLines, whole: v.startLine === 1 && lines.length >= v.totalLines };
}

const overlaps = (v: Lines, s: number, e: number) => v.whole || (v.start <= e && s <= v.end);
const covers = (v: Lines, s: number, e: number) => v.whole || (v.start <= s && e <= v.end);

/** Lines s..e of `now` are the view's lines at the same numbers. */
function agrees(view: Lines, now: Lines): boolean {
  if (view.total !== now.total) return false;
  const lo = Math.max(view.start, now.start);
  const hi = Math.min(view.end, now.end);
  for (let n = lo; n <= hi; n++) if (view.lines[n - view.start] !== now.lines[n - now.start]) return false;
  return true;
}

/**
 * What to answer for `read`, given the reader's views of the file, newest first. The view
 * answered from is the newest that covers the read; a newer view of a part of it that saw
 * other lines there (the file changed and changed back) makes an "unchanged" claim unsafe.
 * `callsSinceNewest`: the session made other calls after the newest view was recorded.
 */
export function planReread(views: readonly FileView[], read: FileRead, opts: { callsSinceNewest?: boolean } = {}): RereadPlan {
  const plan = planFrom(views, read);
  const newest = views[0];
  // Only right after it: with other calls of the session between, it is a re-read like any other.
  if (plan.kind === 'unchanged' && newest && newest.kind === 'marker' && opts.callsSinceNewest !== true && newest.startLine === read.startLine && newest.content === read.content) {
    // The reader asked again right after being told it holds these lines: it may have lost them.
    return { kind: 'none', why: 'asked again after the unchanged marker', again: true };
  }
  return plan;
}

function planFrom(views: readonly FileView[], read: FileRead): RereadPlan {
  if (read.content.length > REREAD_MAX_BYTES) return { kind: 'none', why: 'too large to compare' };
  const now = linesOf(read);
  const s = now.start;
  const e = now.end;
  const partial: Lines[] = [];
  let base: { view: FileView; lines: Lines } | null = null;
  for (const v of views) {
    if (v.kind !== 'shown' || v.content.length > REREAD_MAX_BYTES) continue;
    const l = linesOf(v);
    if (!overlaps(l, s, e)) continue;
    if (covers(l, s, e)) {
      base = { view: v, lines: l };
      break;
    }
    partial.push(l);
  }
  if (!base) return { kind: 'none', why: 'no view covers the read' };
  const k = base.lines;
  const since = base.view.at;
  const via = base.view.via ?? 'read';
  const samePlace = k.total === now.total && k.start <= s && e <= k.end && agrees(k, now);
  if (samePlace) {
    if (!partial.every((p) => agrees(p, now))) return { kind: 'none', why: 'a later view of a part saw other lines' };
    return { kind: 'unchanged', since, via, span: { first: s, last: e, wasFirst: s, wasLast: e } };
  }

  return align(k, now, since, via, partial.every((p) => agrees(p, now)));
}

/** How many lines from `a[i]` on equal `b[j]` on, at most `max`. */
function prefixLen(a: readonly string[], i: number, b: readonly string[], j: number, max: number): number {
  let n = 0;
  while (n < max && i + n < a.length && j + n < b.length && a[i + n] === b[j + n]) n++;
  return n;
}

/** How many lines up to `a[i]` equal those up to `b[j]`, at most `max`. */
function suffixLen(a: readonly string[], i: number, b: readonly string[], j: number, max: number): number {
  let n = 0;
  while (n < max && i - n >= 0 && j - n >= 0 && a[i - n] === b[j - n]) n++;
  return n;
}

/**
 * Where the read's lines are in the view: the longest run of its first lines found in the
 * view near the same numbers (the head), the longest run of its last lines (the tail), and what
 * is between them (the window). A read and a view that both start at the file's first line
 * keep line 1 as line 1; both ending at its last line, the last as the last. The common head and
 * tail are the whole of a one-window diff, so this is linear in the lines compared (the view's
 * lines within REREAD_SLACK_LINES of the read's numbers, times the read's).
 */
function align(k: Lines, now: Lines, since: number, via: Via, partialsAgree: boolean): RereadPlan {
  const old = k.lines;
  const cur = now.lines;
  const len = cur.length;
  const s = now.start;
  const e = now.end;
  const num = (i: number) => k.start + i;
  const fixedTop = s === 1 && k.start === 1;
  const fixedEnd = e === now.total && k.end === k.total;

  // The head: where the read's first line is in the view, with the most lines after it alike.
  let p: number | null = null;
  let L = 0;
  if (fixedTop) {
    p = 0;
    L = prefixLen(old, 0, cur, 0, len);
  } else {
    for (let i = Math.max(0, s - REREAD_SLACK_LINES - k.start); i < old.length && num(i) <= s + REREAD_SLACK_LINES; i++) {
      if (old[i] !== cur[0]) continue;
      const n = prefixLen(old, i, cur, 0, len);
      if (n > L || (n === L && p !== null && Math.abs(num(i) - s) < Math.abs(num(p) - s))) {
        p = i;
        L = n;
      }
    }
  }
  // Every line read is where the view had it (and, both ending at the file's end, nothing of
  // the view is left after them: a final newline gone is a change too).
  if (L === len && p !== null && !(fixedEnd && p + len !== old.length)) {
    if (!partialsAgree) return { kind: 'none', why: 'a later view of a part saw other lines' };
    return { kind: 'unchanged', since, via, span: { first: s, last: e, wasFirst: num(p), wasLast: num(p + len - 1) } };
  }
  // The tail: where the read's last line is in the view, after the head's lines in both.
  const oldFloor = p === null ? 0 : p + L;
  let q: number | null = null;
  let M = 0;
  if (fixedEnd) {
    q = old.length - 1;
    M = suffixLen(old, q, cur, len - 1, Math.min(len - L, q - oldFloor + 1));
  } else {
    for (let i = Math.max(oldFloor, e - REREAD_SLACK_LINES - k.start); i < old.length && num(i) <= e + REREAD_SLACK_LINES; i++) {
      if (old[i] !== cur[len - 1]) continue;
      const n = suffixLen(old, i, cur, len - 1, Math.min(len - L, i - oldFloor + 1));
      if (n > M || (n === M && q !== null && Math.abs(num(i) - e) < Math.abs(num(q) - e))) {
        q = i;
        M = n;
      }
    }
  }
  if (L === 0 && M === 0 && !fixedTop && !fixedEnd) return { kind: 'none', why: 'no line of the read is where the view had it' };
  const Lc = Math.max(0, L - REREAD_CONTEXT_LINES);
  const Mc = Math.max(0, M - REREAD_CONTEXT_LINES);
  const head: Span | null = Lc > 0 && p !== null ? { first: s, last: s + Lc - 1, wasFirst: num(p), wasLast: num(p + Lc - 1) } : null;
  const tail: Span | null = Mc > 0 && q !== null ? { first: e - Mc + 1, last: e, wasFirst: num(q - Mc + 1), wasLast: num(q) } : null;
  const window: Span = {
    first: s + Lc,
    last: e - Mc,
    // The view's lines the window stands in for, when both ends are known.
    wasFirst: p !== null ? num(p + Lc) : NaN,
    wasLast: q !== null ? num(q - Mc) : NaN,
  };
  return { kind: 'changed', since, via, head, window, tail };
}

// ---------------------------------------------------------------------------------------------
// The reply, numbered by the host from its startLine.

/** When the reader was shown the view: its UTC clock time, enough to tell that read from others. */
export function shownAt(at: number): string {
  return new Date(at).toISOString().slice(11, 19);
}

/** Lines a..b as a message names them: `lines 3-9`, or `line 3`; `one` says which verb to use. */
interface Named {
  text: string;
  one: boolean;
}
function named(a: number, b: number): Named {
  return a === b ? { text: `line ${a}`, one: true } : { text: `lines ${a}-${b}`, one: false };
}
const are = (n: Named) => (n.one ? 'is' : 'are');
const them = (n: Named) => (n.one ? 'it' : 'them');

export interface NumberedReply {
  content: string;
  startLine: number;
}

/**
 * The reply's content and the startLine the host numbers it from, with `handle` naming the
 * read's exact content (`omni retrieve` gives it back). `read` is what the host read now;
 * `phantom`: its content ends with a newline, so its last numbered line is the empty one after
 * it, which the file does not have and no message names.
 */
export function renderReread(plan: Exclude<RereadPlan, { kind: 'none' }>, read: FileRead, handle: string): NumberedReply {
  const lines = hostLines(read.content);
  const phantomNow = read.content.endsWith('\n') ? read.startLine + lines.length - 1 : Infinity;
  const at = shownAt(plan.since);
  const receipt = ` — omni retrieve ${handle}]`;
  // A span's numbers as a message names them: the empty line after a final newline left out.
  const shown = (sp: Span): { now: Named; was: Named; moved: boolean } | null => {
    const last = sp.last >= phantomNow ? sp.last - 1 : sp.last;
    if (last < sp.first) return null;
    const wasLast = sp.wasLast - (sp.last - last);
    return { now: named(sp.first, last), was: named(sp.wasFirst, wasLast), moved: sp.first !== sp.wasFirst };
  };
  // `lines 3-9 as you read them`, or `lines 3-9 are your lines 1-7 as you read them`.
  const asHeld = (n: Named) => (plan.via === 'edit' ? `as you left ${them(n)}` : plan.via === 'write' ? `as you wrote ${them(n)}` : `as you read ${them(n)}`);
  const held = (x: { now: Named; was: Named; moved: boolean }) =>
    x.moved ? `${x.now.text} ${are(x.now)} your ${x.was.text} ${asHeld(x.now)}` : `${x.now.text} ${asHeld(x.now)}`;
  // When the reader came to hold it: `you read them at 10:01:02`, `your edit at 10:01:02`.
  const since = (n: Named | null) => (plan.via === 'edit' ? `your edit at ${at}` : `you ${plan.via === 'write' ? 'wrote' : 'read'} ${n ? them(n) : 'it'} at ${at}`);
  if (plan.kind === 'unchanged') {
    const sp = shown(plan.span) ?? { now: named(plan.span.first, plan.span.last), was: named(plan.span.wasFirst, plan.span.wasLast), moved: plan.span.first !== plan.span.wasFirst };
    const lastNumber = Math.max(plan.span.first, plan.span.last >= phantomNow ? plan.span.last - 1 : plan.span.last);
    const moved = sp.moved ? ` (then ${sp.was.text})` : '';
    return { content: `[omni: ${sp.now.text}: unchanged since ${since(sp.now)}${moved}${receipt}`, startLine: lastNumber };
  }
  const { head, window: w, tail } = plan;
  const parts: string[] = [];
  const h = head ? shown(head) : null;
  if (h) parts.push(held(h));
  const wNow = w.last >= w.first ? named(w.first, w.last) : null;
  // The view's lines the window replaces, when both of its ends are known (NaN: not known).
  const known = Number.isFinite(w.wasFirst) && Number.isFinite(w.wasLast);
  const wWas = known && w.wasLast >= w.wasFirst ? named(w.wasFirst, w.wasLast) : null;
  if (wNow && wWas) parts.push(`${wNow.text} below ${wNow.one ? 'replaces' : 'replace'} your ${wWas.text}`);
  else if (wNow && known) parts.push(`${wNow.text} below ${are(wNow)} new`);
  else if (wNow) parts.push(`${wNow.text} below`);
  else if (wWas) parts.push(`your ${wWas.text} ${are(wWas)} gone`);
  const readLast = Math.max(read.startLine, Math.min(read.startLine + lines.length - 1, phantomNow - 1));
  const whole = read.startLine === 1 && lines.length >= read.totalLines ? 'whole file' : `${named(read.startLine, readLast).text} in full`;
  const header = `[omni: changed since ${since(null)}: ${parts.join(', ')}; ${whole}${receipt}`;
  const body = lines.slice(w.first - read.startLine, w.last - read.startLine + 1);
  const out = [header, ...body];
  const t = tail ? shown(tail) : null;
  if (t) out.push(`[omni: ${held(t)}${receipt}`);
  return { content: out.join('\n'), startLine: w.first - 1 };
}
