/**
 * What of a delivery reached the model: the ledger may record only that (P7, ledger truth).
 *
 * A door knows what it sent; the host decides what the model gets. A host may cut a long result
 * to a preview (Claude Code persists a Bash result over its inline cap and shows the model its
 * first 2,000 characters), keep its head and tail (Codex, Gemini), or its tail (Pi), and a
 * reply omni did not send leaves the model with the host's own view of the original. So every
 * delivery ends with one of three views:
 *
 * - `whole`: the distilled text reached the model as omni produced it (a reply the host applied
 *   unchanged), or the original reached it uncut while omni stayed silent: either way every
 *   line the ledger stage let through is in what the model got;
 * - `lines`: only these complete lines are known to have reached the model (a host's preview,
 *   head or tail); a line the stage let through counts as shown only when it is one of them;
 * - `none`: nothing is known (a host whose cut omni cannot predict): nothing is recorded.
 *
 * The shape every host adapter's `viewOf` answers in (./adapter.ts), and the smallest promises
 * every host keeps. What each host really shows is its own adapter's to say (Claude Code's in
 * ./claude/view.ts, Codex's in ./codex/adapter.ts, Gemini's in ./gemini/adapter.ts, Pi's in ./pi/adapter.ts). Pure.
 */

export type ModelView = { kind: 'whole' } | { kind: 'lines'; text: string } | { kind: 'none' };

export const WHOLE: ModelView = { kind: 'whole' };
export const NOTHING: ModelView = { kind: 'none' };

/** A view of complete lines only. */
export function linesView(text: string): ModelView {
  return { kind: 'lines', text };
}

/** `text` without its last line (it may be cut mid-line). */
export function dropLastLine(text: string): string {
  const nl = text.lastIndexOf('\n');
  return nl < 0 ? '' : text.slice(0, nl);
}

/** `text` without its first line (it may be cut mid-line). */
export function dropFirstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? '' : text.slice(nl + 1);
}

// ---------------------------------------------------------------------------------------------
// The smallest promises every host keeps, for doors that do not know which host reads them
// (exec and pipe under a reader scope: the pre-hook rewrite, `omni_run`).

/**
 * Below this many characters no host cuts a result: Claude Code's inline cap
 * (`bashOutputMaxChars`) clamps to at least 4,000; Codex cuts near 10 KB; Gemini at 40,000.
 */
export const HOST_MIN_INLINE_CHARS = 4000;
/**
 * Every host's cut keeps at least this many leading characters: Claude Code's preview is the
 * first 2,000 (its failure cut keeps ~5,000 from each end), Codex keeps about half of ~10 KB,
 * Gemini the first 8,000.
 */
export const HOST_MIN_HEAD_CHARS = 2000;

/** The complete lines of `text` every host is known to show. */
export function headView(text: string, whole = HOST_MIN_INLINE_CHARS, head = HOST_MIN_HEAD_CHARS): ModelView {
  if (text.length < whole) return WHOLE;
  // The character at `head` is a newline: the line before it is complete.
  return linesView(text.charAt(head) === '\n' ? text.slice(0, head) : dropLastLine(text.slice(0, head)));
}
