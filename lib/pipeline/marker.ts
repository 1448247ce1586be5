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

export const MARKER_RE = /^\[omni: (.*) — omni retrieve ([0-9a-f]{16})\]$/;
