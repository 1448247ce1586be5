import type { Line } from './types.js';

/**
 * The one marker format. Every marker says what it stands for and names the handle
 * that `omni retrieve` turns back into the exact bytes:
 *
 *   [omni: 478 similar lines folded — omni retrieve 3f2a9c01b4d5e6f7]
 */
export function formatMarker(note: string, handle: string): string {
  return `[omni: ${note} — omni retrieve ${handle}]`;
}

/** Same length as a real handle: used to estimate sizes before archiving. */
export const HANDLE_PLACEHOLDER = '0000000000000000';

/** A marker line's bytes besides its note (frame, handle, newline): the cost side of a fold. */
export const MARKER_FRAME_BYTES = Buffer.byteLength(formatMarker('', HANDLE_PLACEHOLDER)) + 1;

/** What a marker line with this note costs in the output, in bytes (handle and newline included). */
export function markerBytes(note: string): number {
  return MARKER_FRAME_BYTES + Buffer.byteLength(note);
}

/** A fold hides at least one line; whether it is worth a marker is the byte test alone. */
export const FOLD_MIN_LINES = 1;

/**
 * The one bar every fold clears, distillers and pipeline alike: it hides at least
 * FOLD_MIN_LINES lines, and they are more bytes than the marker that stands for them
 * (`markerBytes`: frame, handle, note and newline, what the marker really costs). A fold that
 * does not pay for its marker is not made (no output grows). There is no other bar.
 */
export function foldPays(hiddenLines: number, hiddenBytes: number, note: string): boolean {
  return hiddenLines >= FOLD_MIN_LINES && hiddenBytes > markerBytes(note);
}

/**
 * A line no stage may hide, fold or change: one that states a failure, and one that is not
 * valid UTF-8 (its own bytes go out as they came: an undecodable byte costs its line, never the
 * rest of the output).
 */
export function mustStay(l: Line): boolean {
  return l.tier === 'failure' || l.bytes !== undefined;
}

/** One line's exact original text: before any redraw fold, with its own terminator. */
export function lineBytes(l: Line): string {
  return (l.raw ?? l.text) + l.eol;
}

/** How many bytes the line is as it came (the line ending is ASCII). */
export function lineByteLength(l: Line): number {
  if (l.size !== undefined) return l.size;
  return (l.bytes ? l.bytes.length : Buffer.byteLength(l.raw ?? l.text)) + l.eol.length;
}

/** The exact bytes a run of lines stands for: what an archive stores and a handle names. */
export function runBytes(lines: readonly Line[]): Buffer {
  let s = '';
  let parts: Buffer[] | null = null;
  for (const l of lines) {
    if (l.bytes === undefined) { s += lineBytes(l); continue; }
    parts ??= [];
    parts.push(Buffer.from(s, 'utf8'), l.bytes, Buffer.from(l.eol, 'latin1'));
    s = '';
  }
  if (!parts) return Buffer.from(s, 'utf8');
  parts.push(Buffer.from(s, 'utf8'));
  return Buffer.concat(parts);
}

export const MARKER_RE = /^\[omni: (.*) — omni retrieve ([0-9a-f]{16})\]$/;
