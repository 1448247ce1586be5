/**
 * Who may see archived secrets unmasked. `omni retrieve` and `omni diff` mask every secret value
 * they print (the same masking as delivery, lib/pipeline/redact.ts); `--reveal` prints them as
 * they are, and only to a person: a terminal on stdin and stderr, and none of the environment
 * markers an agent host sets for the commands its model runs.
 *
 * What this protects against: a model handed a marker cannot turn omni's own commands and tools
 * into a way to read a secret back (running `omni retrieve --reveal` through its shell tool has no
 * terminal, and carries its host's marker). What it cannot: an agent with a shell can read the
 * SQLite store directly, or rerun the command that printed the secret; masking keeps omni from
 * handing secrets back, it is not a sandbox.
 */
import { maskSecretBytes } from '../pipeline/redact.js';

/**
 * Variables an agent host sets in the environment of the commands its model runs (each checked in
 * the pinned CLIs' own code or by running them): Claude Code (CLAUDECODE=1,
 * CLAUDE_CODE_ENTRYPOINT), the AI_AGENT convention, Codex (CODEX_THREAD_ID, CODEX_TOOL_CALL_ID,
 * CODEX_CI, CODEX_SANDBOX), Gemini CLI (GEMINI_CLI=1), Pi (PI_CODING_AGENT=true), Cursor's agent
 * (CURSOR_AGENT), and omni's own: a host's pre-hook rewrite (OMNI_SESSION_ID) and the MCP tool
 * (OMNI_HOST) run commands for a model.
 */
export const AGENT_MARKERS = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'AI_AGENT', 'CODEX_THREAD_ID', 'CODEX_TOOL_CALL_ID', 'CODEX_CI', 'CODEX_SANDBOX', 'GEMINI_CLI', 'PI_CODING_AGENT', 'CURSOR_AGENT', 'OMNI_SESSION_ID', 'OMNI_HOST'] as const;

export interface Caller {
  stdinIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/** Why `--reveal` is refused for this caller, or null when it may be a person. */
export function revealRefusal(c: Caller): string | null {
  const marker = AGENT_MARKERS.find((k) => c.env[k] !== undefined && c.env[k] !== '');
  if (marker) return `refused: ${marker} is set, so an agent runs this command; masked secrets are shown only to a person at a terminal`;
  if (!c.stdinIsTTY || !c.stderrIsTTY) return 'refused: stdin and stderr must be a terminal; masked secrets are shown only to a person at a terminal';
  return null;
}

/** What a caller is shown of archived bytes: masked, unless revealed. */
export function shown(data: Buffer, reveal: boolean): Buffer {
  return reveal ? data : maskSecretBytes(data);
}
