/**
 * A patch's hunk whose both sides the reader already holds: its old lines are lines of a view
 * it was shown (at the same numbers), and its new lines are the lines of the newest view it
 * holds now (a Read, or the file as its own Edit or Write left it). Such a hunk tells the reader
 * nothing it does not hold, typically its own edit in `git diff`; the patch distiller folds its
 * body in place behind a marker that names the two spans (lib/distillers/git.ts).
 *
 * Pure: the reader's views of the file (newest first) and the hunk's two sides in.
 */
import { hostLines, shownAt, type FileView, type Via } from './plan.js';

export interface HunkSides {
  oldStart: number;
  /** The hunk's old side: its context and `-` lines, in order, without their sign. */
  old: readonly string[];
  newStart: number;
  /** Its new side: context and `+` lines. */
  now: readonly string[];
}

export interface HeldSpan {
  first: number;
  last: number;
  at: number;
  via: Via;
}

export interface HeldHunk {
  /** Where the reader was shown the old side (null: the hunk has none). */
  was: HeldSpan | null;
  /** The new side, as the reader holds it now. */
  now: HeldSpan;
}

function linesAt(v: FileView): { s: number; e: number; lines: string[] } {
  const lines = hostLines(v.content);
  // The empty line after a final newline is the host's, not the file's: never matched.
  if (v.content.endsWith('\n')) lines.pop();
  return { s: v.startLine, e: v.startLine + lines.length - 1, lines };
}

const same = (l: { s: number; lines: string[] }, start: number, want: readonly string[]) => want.every((t, i) => l.lines[start + i - l.s] === t);

/**
 * Both sides held, or null. The new side must be the lines of the newest view that covers them,
 * and every newer view that overlaps them must agree (the reader's latest picture of those
 * lines is exactly the new side). The old side must be lines of some view at their numbers.
 */
export function heldHunk(views: readonly FileView[], h: HunkSides): HeldHunk | null {
  if (h.now.length === 0) return null;
  const nowLast = h.newStart + h.now.length - 1;
  let now: HeldSpan | null = null;
  for (const v of views) {
    const l = linesAt(v);
    if (l.e < h.newStart || l.s > nowLast) continue;
    if (l.s <= h.newStart && nowLast <= l.e) {
      if (!same(l, h.newStart, h.now)) return null;
      now = { first: h.newStart, last: nowLast, at: v.at, via: v.via ?? 'read' };
      break;
    }
    // A newer view of a part of them: it must have seen the same lines there.
    const lo = Math.max(l.s, h.newStart);
    const hi = Math.min(l.e, nowLast);
    for (let n = lo; n <= hi; n++) if (l.lines[n - l.s] !== h.now[n - h.newStart]) return null;
  }
  if (!now) return null;
  if (h.old.length === 0) return { was: null, now };
  const oldLast = h.oldStart + h.old.length - 1;
  for (const v of views) {
    const l = linesAt(v);
    if (l.s <= h.oldStart && oldLast <= l.e && same(l, h.oldStart, h.old)) {
      return { was: { first: h.oldStart, last: oldLast, at: v.at, via: v.via ?? 'read' }, now };
    }
  }
  return null;
}

const span = (s: HeldSpan) => (s.first === s.last ? `line ${s.first}` : `lines ${s.first}-${s.last}`);
const how = (s: HeldSpan) => `as you ${s.via === 'edit' ? 'left' : s.via === 'write' ? 'wrote' : 'read'} ${s.first === s.last ? 'it' : 'them'} at ${shownAt(s.at)}`;

/** The marker's words for a held hunk's body: which of the reader's lines it is. */
export function heldHunkNote(hidden: number, held: HeldHunk): string {
  const lines = hidden === 1 ? '1 line' : `${hidden} lines`;
  const now = `${span(held.now)} ${how(held.now)}`;
  return held.was ? `${lines} of this hunk, all yours: your ${span(held.was)} ${how(held.was)}, now ${now}` : `${lines} of this hunk, all yours: ${now}`;
}
