/**
 * What a reader holds of a file after it wrote into it itself (an Edit of some lines, or the
 * whole file written): the lines it held, with its own change applied. A later Read is then
 * answered from that view (./plan.ts) like any other: "unchanged since your edit" when the file
 * is as the model left it, one window of what changed beyond its own change when it is not.
 *
 * Pure: the views (newest first) and the file before and after the call in, the new view out.
 */
import { hostLines, type FileView } from './plan.js';

/** The lines a view numbers from its startLine, and what a reader holds after writing. */
export interface WrittenView {
  startLine: number;
  content: string;
  totalLines: number;
}

export interface Written {
  /** The file before the call as the host read it (null: the call created it). */
  before: string | null;
  /** The file the call's own arguments make. */
  after: string;
  via: 'edit' | 'write';
}

/**
 * The view the reader holds after its own call, or null when it is not known to hold one:
 *
 * - a whole file written: every line of it, whatever it held before;
 * - an edit: the views it holds must each be the file as it was just before the edit (the
 *   lines at their numbers, the file's line count the same), and the widest of them whose lines
 *   the change lies within is the one extended: those lines with the edit applied, numbered as
 *   the file now is. The model never read the lines outside its views, so they are
 *   never vouched for; a view that saw other lines means its picture is not the file edited.
 */
export function viewAfterWrite(views: readonly FileView[], w: Written): WrittenView | null {
  const now = hostLines(w.after);
  if (w.via === 'write') return { startLine: 1, content: w.after, totalLines: now.length };
  if (w.before === null) return null;
  const was = hostLines(w.before);
  // The change is what lies between the lines alike at the top and the lines alike at the end.
  let top = 0;
  const most = Math.min(was.length, now.length);
  while (top < most && was[top] === now[top]) top++;
  let bottom = 0;
  while (bottom < most - top && was[was.length - 1 - bottom] === now[now.length - 1 - bottom]) bottom++;
  // Every view must be the file as it was just before the edit; then the model holds their
  // union, and the widest view the change lies within is the one extended.
  let best: { s: number; e: number } | null = null;
  for (const v of views) {
    const held = hostLines(v.content);
    const s = v.startLine;
    const e = s + held.length - 1;
    if (v.totalLines !== was.length || s < 1 || e > was.length) return null;
    for (let n = s; n <= e; n++) if (held[n - s] !== was[n - 1]) return null;
    // The change (was's lines top+1 .. was.length-bottom) within the held lines s..e.
    if (top < s - 1 || was.length - bottom > e) continue;
    if (!best || e - s > best.e - best.s) best = { s, e };
  }
  if (!best) return null;
  const grown = now.length - was.length;
  return { startLine: best.s, content: now.slice(best.s - 1, best.e + grown).join('\n'), totalLines: now.length };
}
