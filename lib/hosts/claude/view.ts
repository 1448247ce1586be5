/**
 * What Claude Code 2.1.332 shows the model of a Bash result (measured: a result over the inline
 * cap is persisted and the model gets a preview of it), for the adapter's `viewOf` (./adapter.ts).
 * Pure; imports only the neutral view (./model-view.ts).
 */
import { dropLastLine, HOST_MIN_INLINE_CHARS, linesView, WHOLE, type ModelView } from '../model-view.js';

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

/**
 * The text a Bash reply shows the model. Bash's `stderr` holds the tool's own notices (the
 * command's stderr is already in stdout); the model sees "<stdout>\n<stderr>", so the reply
 * keeps that text, moved into stdout, and its stderr can be "" without losing a notice.
 */
export function bashShown(stdout: string, stderr: string): string {
  return stderr !== '' ? (stdout === '' ? stderr : `${stdout}\n${stderr}`) : stdout;
}

/**
 * What of a Bash result reached the model: omni's reply (`reply` non-empty, carrying `sent` and
 * the tool's `stderr` notices) or, when omni stayed silent, the host's own view of the original
 * (`full`: the whole output; `persisted`: the payload named the file the host persisted it to).
 */
export function claudeShellView(d: { reply: string; sent: string; full: string; stderr: string; persisted: boolean }): ModelView {
  if (d.reply !== '') return claudeReplied(bashShown(d.sent, d.stderr));
  // Persisted by the host: the model got the preview of the whole output, not the payload's prefix.
  return d.persisted ? claudeSilentPersisted(d.full) : WHOLE;
}
