/**
 * Pi's shapes (npm @mariozechner/pi-coding-agent, checked with 0.73.1): what its `tool_result`
 * event hands over for the built-in `bash` tool, and the patch that goes back. Pure functions;
 * the door that uses them, in Pi's process, is lib/doors/pi.ts.
 *
 * A result Pi reports as a success (`isError: false`, i.e. the shell exited 0) may be distilled.
 * A failure (`isError: true`: non-zero exit, timeout, abort) is never touched, nor is any result
 * whose shape is not the one Pi's bash tool writes.
 */
import type { ToolResultEvent, ToolResultEventResult } from './api.js';
import { isOmniOwnCommand } from '../omni-command.js';
import { passthroughRequested } from '../../command/passthrough.js';
import { dropFirstLine, linesView, WHOLE, type ModelView } from '../model-view.js';

// ---------------------------------------------------------------------------------------------
// Pure helpers: what Pi handed over, and what goes back.

export type { ToolResultEventResult };

/** What the bash tool writes when a command printed nothing (bash.js `formatOutput`). */
export const PI_NO_OUTPUT = '(no output)';

/** A successful bash result omni may distil. */
export interface PiBashSuccess {
  command: string;
  /** The text the model would see. */
  text: string;
  /**
   * Pi cut the output to its tail and saved the whole of it here: distil the file instead, and
   * replace only when the digest is no larger than what Pi would have sent.
   */
  fullOutputPath?: string;
}

/** Why a tool result is left alone; `null` from `readBashSuccess` always comes with one. */
export type Skip = 'not-bash' | 'failed' | 'shape' | 'empty' | 'omni-own' | 'passthrough';

/**
 * The successful bash result in `event`, or why there is none. Only Pi's own bash result shape
 * qualifies: exactly one text block, `isError === false`. Anything else (an error, an image, an
 * extension's reshaped result) is a status omni cannot read, so it is left alone.
 */
export function readBashSuccess(event: Pick<ToolResultEvent, 'toolName' | 'input' | 'content' | 'isError' | 'details'>): PiBashSuccess | Skip {
  if (event.toolName !== 'bash') return 'not-bash';
  if (event.isError !== false) return 'failed';
  const command = (event.input as { command?: unknown } | undefined)?.command;
  if (typeof command !== 'string') return 'shape';
  const content = event.content;
  if (!Array.isArray(content) || content.length !== 1) return 'shape';
  const block = content[0] as { type?: unknown; text?: unknown };
  if (block?.type !== 'text' || typeof block.text !== 'string') return 'shape';
  if (block.text === '' || block.text === PI_NO_OUTPUT) return 'empty';
  if (isOmniOwnCommand(command)) return 'omni-own';
  if (passthroughRequested(command)) return 'passthrough';
  const details = event.details as { truncation?: { truncated?: unknown }; fullOutputPath?: unknown } | undefined;
  if (details?.truncation?.truncated === true) {
    // A cut result without its file: only the tail is known, and a digest of a tail would
    // drop Pi's "Full output:" pointer. Leave it.
    if (typeof details.fullOutputPath !== 'string' || details.fullOutputPath === '') return 'shape';
    return { command, text: block.text, fullOutputPath: details.fullOutputPath };
  }
  return { command, text: block.text };
}

/**
 * The patch for Pi's `tool_result` chain, or undefined (no change) when the distilled text is
 * the same or, for a cut result, larger than what Pi would have sent.
 */
export function bashPatch(r: PiBashSuccess, distilled: { output: string; changed: boolean }): ToolResultEventResult | undefined {
  if (!distilled.changed || distilled.output === r.text) return undefined;
  if (r.fullOutputPath && Buffer.byteLength(distilled.output, 'utf8') >= Buffer.byteLength(r.text, 'utf8')) return undefined;
  return { content: [{ type: 'text', text: distilled.output }] };
}

// ---------------------------------------------------------------------------------------------
// What the model saw. Pi 0.73.1 (docs/pi-findings.md): a cut result keeps the tail and ends with
// Pi's pointer line.

/** omni left a result Pi cut: the model got Pi's tail, whose first line may be partial. */
export function piSilentCut(text: string): ModelView {
  return linesView(dropFirstLine(text));
}

/**
 * A patch reaches the model as it is; without one the model gets Pi's own result: whole, or for
 * a cut one Pi's tail.
 */
export function piView(r: PiBashSuccess, patched: boolean): ModelView {
  return patched || !r.fullOutputPath ? WHOLE : piSilentCut(r.text);
}

/** The system prompt with omni's session memory block appended (unchanged when there is none). */
export function withSessionMemory(systemPrompt: string, memory: string | null): string | undefined {
  if (!memory) return undefined;
  return `${systemPrompt}\n\n${memory}`;
}

/** Pi's session-start reasons in the store's `source` vocabulary (Claude Code's). */
export function sourceOf(reason: string | undefined): string {
  return reason === 'resume' || reason === 'fork' ? 'resume' : 'startup';
}
