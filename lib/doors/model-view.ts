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
 * Pure functions only; the hosts' rules live here so one place says what each host shows.
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

// ---------------------------------------------------------------------------------------------
// Claude Code 2.1.332 (measured, docs/claude-code-findings.md §2).

/** The preview size of a persisted result (`r$ = 2000` in the CLI). */
export const CLAUDE_PREVIEW_CHARS = 2000;

/**
 * The complete lines of the preview Claude Code shows for a persisted result. The CLI takes
 * the first 2,000 characters and cuts back to the last newline when that is past the half
 * (`h$e(text, 2000)`); otherwise the last line is cut mid-line and does not count. Lines that
 * carry the host's own `<persisted-output>` tag are rewritten by the host: they do not count.
 */
export function claudePreview(text: string): string {
  let shown: string;
  if (text.length <= CLAUDE_PREVIEW_CHARS) shown = text;
  else {
    const nl = text.slice(0, CLAUDE_PREVIEW_CHARS).lastIndexOf('\n');
    shown = nl > CLAUDE_PREVIEW_CHARS * 0.5 ? text.slice(0, nl) : dropLastLine(text.slice(0, CLAUDE_PREVIEW_CHARS));
  }
  if (!shown.includes('persisted-output')) return shown;
  return shown
    .split('\n')
    .filter((l) => !l.includes('persisted-output'))
    .join('\n');
}

/**
 * A Bash result Claude Code persisted (its payload names the file) and omni left alone: the
 * model got the preview of the whole output.
 */
export function claudeSilentPersisted(fullText: string): ModelView {
  return linesView(claudePreview(fullText));
}

/**
 * omni's Bash reply: the host sends it inline up to its inline cap, which a user may lower to
 * 4,000 characters (`bashOutputMaxChars`); past that it persists the reply and shows its
 * preview. omni does not read that setting, so a longer reply counts only as its preview.
 */
export function claudeReplied(text: string): ModelView {
  return text.length < HOST_MIN_INLINE_CHARS ? WHOLE : linesView(claudePreview(text));
}

// ---------------------------------------------------------------------------------------------
// Codex CLI 0.171.0 (docs/codex-findings.md): a result over ~10 KB reaches the hook already cut
// to head and tail around `…N chars truncated…`, and the model gets that same view.

const CODEX_CUT = /…\d+ chars truncated…/;

/** omni stayed silent: the model got `tool_response`; the lines at Codex's cut are partial. */
export function codexSilent(toolResponse: string): ModelView {
  if (!CODEX_CUT.test(toolResponse)) return WHOLE;
  const lines = toolResponse.split('\n');
  const keep: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const cutHere = CODEX_CUT.test(lines[i]);
    const nextToCut = (i > 0 && CODEX_CUT.test(lines[i - 1])) || (i + 1 < lines.length && CODEX_CUT.test(lines[i + 1]));
    if (!cutHere && !nextToCut) keep.push(lines[i]);
  }
  return linesView(keep.join('\n'));
}

/** omni's block reason reached the model exactly (measured on short ones); a long one may be cut. */
export function codexReplied(text: string): ModelView {
  return headView(text);
}

// ---------------------------------------------------------------------------------------------
// Pi 0.73.1 (docs/pi-findings.md): a cut result keeps the tail and ends with Pi's pointer line.

/** omni left a result Pi cut: the model got Pi's tail, whose first line may be partial. */
export function piSilentCut(text: string): ModelView {
  return linesView(dropFirstLine(text));
}
