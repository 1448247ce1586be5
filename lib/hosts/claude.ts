/**
 * Claude Code adapter, hot-path half: hand-written payload guards and reply builders.
 *
 * No zod here (performance.md: importing zod costs ~100 ms per hook call). The zod schemas in
 * ./claude-schemas.ts are the source of truth; test/hosts/claude-guards.test.ts checks that
 * every guard agrees with its schema on the captured payloads and on fuzzed variants.
 *
 * Guards are lenient the way the host is: unknown keys are tolerated and kept, optional fields
 * may be missing. They check exactly what omni reads or must copy back.
 */

import { isObject, type JsonObject } from './adapter.js';

export { isObject, type JsonObject };
export { hasPassthroughPrefix, isOmniOwnCommand, omniExecOriginal, omniSubcommand, shQuote } from './omni-command.js';

/** The events omni handles. Input key is snake_case `hook_event_name`. */
export type HookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'SessionStart'
  | 'SessionEnd'
  | 'PreCompact';

export const HOOK_EVENTS: readonly HookEvent[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
];

/** Fields common to every payload that omni relies on. */
export interface BasePayload extends JsonObject {
  session_id: string;
  hook_event_name: string;
  cwd?: string;
  transcript_path?: string;
  agent_id?: string;
  agent_type?: string;
  permission_mode?: string;
}

export interface BashToolResponse extends JsonObject {
  stdout: string;
  stderr: string;
  interrupted: boolean;
  isImage?: boolean;
  persistedOutputPath?: string;
  persistedOutputSize?: number;
  backgroundTaskId?: string;
}

export interface ReadTextResponse extends JsonObject {
  type: 'text';
  file: JsonObject & {
    filePath: string;
    content: string;
    numLines: number;
    startLine: number;
    totalLines: number;
    truncatedByTokenCap?: boolean;
  };
}

export interface PostToolUsePayload extends BasePayload {
  hook_event_name: 'PostToolUse';
  tool_name: string;
  tool_input: JsonObject;
  tool_response: unknown;
  tool_use_id?: string;
}

export interface PreToolUsePayload extends BasePayload {
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: JsonObject;
  tool_use_id?: string;
}

export interface PostToolUseFailurePayload extends BasePayload {
  hook_event_name: 'PostToolUseFailure';
  tool_name: string;
  tool_input: JsonObject;
  error: string;
  is_interrupt?: boolean;
  tool_use_id?: string;
}

export interface SessionStartPayload extends BasePayload {
  hook_event_name: 'SessionStart';
  source: string;
}
export interface SessionEndPayload extends BasePayload {
  hook_event_name: 'SessionEnd';
  reason: string;
}
export interface PreCompactPayload extends BasePayload {
  hook_event_name: 'PreCompact';
  trigger: string;
  custom_instructions?: string | null;
}

function optString(o: JsonObject, k: string): boolean {
  return o[k] === undefined || typeof o[k] === 'string';
}
function optBool(o: JsonObject, k: string): boolean {
  return o[k] === undefined || typeof o[k] === 'boolean';
}
function optNumber(o: JsonObject, k: string): boolean {
  return o[k] === undefined || (typeof o[k] === 'number' && Number.isFinite(o[k] as number));
}

/** Common fields: session_id and hook_event_name are strings; the optional ones have their types. */
export function isBasePayload(v: unknown): v is BasePayload {
  if (!isObject(v)) return false;
  return (
    typeof v.session_id === 'string' &&
    typeof v.hook_event_name === 'string' &&
    optString(v, 'cwd') &&
    optString(v, 'transcript_path') &&
    optString(v, 'agent_id') &&
    optString(v, 'agent_type') &&
    optString(v, 'permission_mode')
  );
}

function isToolPayload(v: unknown, event: string): v is BasePayload & { tool_name: string; tool_input: JsonObject } {
  return (
    isBasePayload(v) &&
    v.hook_event_name === event &&
    typeof v.tool_name === 'string' &&
    isObject(v.tool_input) &&
    optString(v, 'tool_use_id')
  );
}

export function isPostToolUse(v: unknown): v is PostToolUsePayload {
  return isToolPayload(v, 'PostToolUse') && 'tool_response' in v;
}
export function isPreToolUse(v: unknown): v is PreToolUsePayload {
  return isToolPayload(v, 'PreToolUse');
}
export function isPostToolUseFailure(v: unknown): v is PostToolUseFailurePayload {
  return isToolPayload(v, 'PostToolUseFailure') && typeof v.error === 'string' && optBool(v, 'is_interrupt');
}
export function isSessionStart(v: unknown): v is SessionStartPayload {
  return isBasePayload(v) && v.hook_event_name === 'SessionStart' && typeof v.source === 'string';
}
export function isSessionEnd(v: unknown): v is SessionEndPayload {
  return isBasePayload(v) && v.hook_event_name === 'SessionEnd' && typeof v.reason === 'string';
}
export function isPreCompact(v: unknown): v is PreCompactPayload {
  return (
    isBasePayload(v) &&
    v.hook_event_name === 'PreCompact' &&
    typeof v.trigger === 'string' &&
    (v.custom_instructions === undefined || v.custom_instructions === null || typeof v.custom_instructions === 'string')
  );
}

/** Bash `tool_input`: command (string), optional description, timeout, run_in_background. */
export function isBashInput(v: unknown): v is JsonObject & { command: string } {
  return (
    isObject(v) &&
    typeof v.command === 'string' &&
    optString(v, 'description') &&
    optNumber(v, 'timeout') &&
    optBool(v, 'run_in_background')
  );
}

/** Read `tool_input`: absolute file_path, optional offset/limit. */
export function isReadInput(v: unknown): v is JsonObject & { file_path: string } {
  return isObject(v) && typeof v.file_path === 'string' && optNumber(v, 'offset') && optNumber(v, 'limit');
}

/** Bash `tool_response`: the required triple plus the optional keys omni reads. */
export function isBashResponse(v: unknown): v is BashToolResponse {
  return (
    isObject(v) &&
    typeof v.stdout === 'string' &&
    typeof v.stderr === 'string' &&
    typeof v.interrupted === 'boolean' &&
    optBool(v, 'isImage') &&
    optBool(v, 'noOutputExpected') &&
    optString(v, 'persistedOutputPath') &&
    optNumber(v, 'persistedOutputSize') &&
    optString(v, 'backgroundTaskId') &&
    optString(v, 'returnCodeInterpretation')
  );
}

/** Read `tool_response` of `type: "text"` (the only kind omni may touch). */
export function isReadTextResponse(v: unknown): v is ReadTextResponse {
  if (!isObject(v) || v.type !== 'text' || !isObject(v.file)) return false;
  const f = v.file;
  return (
    typeof f.filePath === 'string' &&
    typeof f.content === 'string' &&
    Number.isFinite(f.numLines) &&
    Number.isInteger(f.startLine) &&
    Number.isFinite(f.totalLines) &&
    optBool(f, 'truncatedByTokenCap')
  );
}

// ---------------------------------------------------------------------------------------------
// Replies. Exactly one JSON object; hookSpecificOutput must name the event (host-contract 2.4).

/** PostToolUse Bash: the incoming tool_response with stdout replaced and stderr blanked. */
export function bashReply(
  response: BashToolResponse,
  stdout: string,
  opts: { dropPersisted: boolean },
): string {
  const updated: JsonObject = { ...response, stdout, stderr: '' };
  if (opts.dropPersisted) {
    delete updated.persistedOutputPath;
    delete updated.persistedOutputSize;
  }
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: updated } });
}

/** PostToolUse Read: Read's own shape, content and line bookkeeping replaced. */
export function readReply(response: ReadTextResponse, content: string, startLine: number): string {
  const numLines = content === '' ? 0 : content.split('\n').length;
  const updated = { ...response, file: { ...response.file, content, startLine, numLines } };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: updated } });
}

/** PreToolUse: updatedInput replaces the whole tool_input, so it is built from a copy. */
export function preToolUseReply(
  toolInput: JsonObject,
  command: string,
  decision: 'allow' | null,
  reason?: string,
): string {
  const out: JsonObject = { hookEventName: 'PreToolUse', updatedInput: { ...toolInput, command } };
  if (decision) {
    out.permissionDecision = decision;
    if (reason) out.permissionDecisionReason = reason;
  }
  return JSON.stringify({ hookSpecificOutput: out });
}

/** PostToolUseFailure / SessionStart: the only channel there is additionalContext. */
export function additionalContextReply(event: 'PostToolUseFailure' | 'SessionStart', text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
}

/** Cursor also runs Claude Code hooks (duplicate runs): stand aside there. */
export function isCursor(payload: JsonObject, env: NodeJS.ProcessEnv): boolean {
  return 'cursor_version' in payload || !!env.CURSOR_VERSION;
}

/** Reader scope: subagents carry the parent's session_id and their own agent_id. */
export function agentIdOf(p: BasePayload): string {
  return typeof p.agent_id === 'string' && p.agent_id !== '' ? p.agent_id : 'main';
}

// ---------------------------------------------------------------------------------------------
// Read folds.

export const MARKER_PREFIX = '[omni:';

/**
 * Turn a distilled Read content into a Read reply the host numbers correctly, or refuse.
 *
 * The host numbers `content` lines from `startLine`. A fold at the head (hidden lines 1..k of
 * the read, replaced by marker lines) keeps the rest numbered right if startLine moves by
 * k - markers. A fold anywhere else would shift every line after it: refused (null).
 */
export function headFold(
  original: string,
  distilled: string,
  startLine: number,
): { content: string; startLine: number } | null {
  if (distilled === original) return null;
  const inLines = original.split('\n');
  const outLines = distilled.split('\n');
  // longest common suffix
  let s = 0;
  while (
    s < inLines.length &&
    s < outLines.length &&
    inLines[inLines.length - 1 - s] === outLines[outLines.length - 1 - s]
  ) {
    s++;
  }
  const head = outLines.slice(0, outLines.length - s);
  const hidden = inLines.length - s;
  if (head.length === 0 || hidden <= head.length) return null;
  if (!head.every((l) => l.startsWith(MARKER_PREFIX))) return null;
  const moved = startLine + hidden - head.length;
  const note = `${MARKER_PREFIX} lines ${startLine}-${startLine + hidden - 1} not shown]`;
  const newHead = [`${note} ${head[0]}`, ...head.slice(1)];
  return { content: [...newHead, ...outLines.slice(outLines.length - s)].join('\n'), startLine: moved };
}
