/**
 * Claude Code adapter, hot-path half: hand-written payload guards and reply builders.
 *
 * No zod here: importing zod costs ~100 ms per hook call. The zod schemas in
 * ./schemas.ts are the source of truth; test/hosts/claude-guards.test.ts checks that
 * every guard agrees with its schema on the captured payloads and on fuzzed variants.
 *
 * Guards are lenient the way the host is: unknown keys are tolerated and kept, optional fields
 * may be missing. They check exactly what omni reads or must copy back.
 */

import { isObject, type HookInput, type HookKind, type HostAdapter, type JsonObject } from '../adapter.js';
import { bashShown, claudeShellView } from './view.js';

export { isObject, type JsonObject };
export { hasPassthroughPrefix, isOmniOwnCommand, omniExecOriginal, omniSubcommand, shQuote } from '../omni-command.js';

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
// Edit and Write: what the model itself wrote into a file (its reader's view of the file after).

/** Edit `tool_input`. */
function isEditInput(v: unknown): v is JsonObject & { file_path: string; old_string: string; new_string: string } {
  return isObject(v) && typeof v.file_path === 'string' && typeof v.old_string === 'string' && typeof v.new_string === 'string' && optBool(v, 'replace_all');
}

/** Write `tool_input`. */
function isWriteInput(v: unknown): v is JsonObject & { file_path: string; content: string } {
  return isObject(v) && typeof v.file_path === 'string' && typeof v.content === 'string';
}

/** One hunk of the host's own patch of an Edit (`structuredPatch`). */
interface PatchHunk {
  oldStart: number;
  newStart: number;
  lines: string[];
}
function isPatch(v: unknown): v is PatchHunk[] {
  return Array.isArray(v) && v.every((h) => isObject(h) && Number.isInteger(h.oldStart) && Number.isInteger(h.newStart) && Array.isArray(h.lines) && h.lines.every((l) => typeof l === 'string'));
}

/** Every hunk of `patch` reads `before` on its old side and `after` on its new side, line for line. */
function patchAgrees(patch: PatchHunk[], before: string, after: string): boolean {
  const was = before.split('\n');
  const now = after.split('\n');
  for (const h of patch) {
    let i = h.oldStart - 1;
    let j = h.newStart - 1;
    for (const l of h.lines) {
      const sign = l[0];
      const text = l.slice(1);
      if (sign === '\\') continue; // "\ No newline at end of file"
      if (sign !== '+' && was[i++] !== text) return false;
      if (sign !== '-' && now[j++] !== text) return false;
    }
  }
  return true;
}

/**
 * The file an Edit left, by the model's own arguments applied to the file as the host read it
 * before the call (`originalFile`), or null. Only when the host's own patch of the change agrees
 * with that line for line: a change the host made beyond the arguments (quotes it matched
 * loosely, whitespace it trimmed) is not what the model wrote, so it is never taken as the
 * model's. An old text found more than once without `replace_all` is refused as the host
 * refuses it.
 */
export function editedFile(input: unknown, response: unknown): { before: string; after: string } | null {
  if (!isEditInput(input) || !isObject(response) || typeof response.originalFile !== 'string' || !isPatch(response.structuredPatch)) return null;
  const before = response.originalFile;
  const { old_string: old, new_string: repl } = input;
  if (old === '' || old === repl) return null;
  const first = before.indexOf(old);
  if (first < 0) return null;
  let after: string;
  if (input.replace_all === true) after = before.split(old).join(repl);
  else if (before.indexOf(old, first + 1) >= 0) return null;
  else after = before.slice(0, first) + repl + before.slice(first + old.length);
  return patchAgrees(response.structuredPatch, before, after) ? { before, after } : null;
}

// ---------------------------------------------------------------------------------------------
// MCP tool results (measured with the real CLI 2.1.332, docs/claude-code-findings.md §7).

/** One part of an MCP result as PostToolUse carries it: the host's own content block. */
export type McpBlock = JsonObject & { type: string };

/**
 * An MCP `tool_response` omni may touch: the array of content blocks (`text`, `image` already in
 * the model API's `source` form, the host's own `[Image: source: …]` note). A string is left
 * alone: the host sends one for a result with `structuredContent` (its JSON) and in place of a
 * result over its token cap (its own notice, pointing at the saved file).
 */
export function isMcpBlocks(v: unknown): v is McpBlock[] {
  return Array.isArray(v) && v.length > 0 && v.every((b) => isObject(b) && typeof b.type === 'string' && (b.type !== 'text' || typeof b.text === 'string'));
}

/** The server name `omni` registers its MCP server under. */
export const OMNI_MCP_SERVER = 'omni';
/** omni's own MCP tools are all named `omni_*` (lib/mcp/tools.ts), whatever the user named the server. */
const OMNI_TOOL = /__omni_[A-Za-z0-9_]*$/;

/**
 * omni's own MCP tools: their results are distilled already, or are exact bytes asked for
 * (`omni_retrieve`); a second pass must never touch them.
 */
export function isOmniMcpTool(toolName: string, server: string | undefined): boolean {
  return server === OMNI_MCP_SERVER || toolName.startsWith(`mcp__${OMNI_MCP_SERVER}__`) || OMNI_TOOL.test(toolName);
}

/** PostToolUse for an MCP tool: the same blocks, each text block's text replaced in order. */
export function mcpReply(blocks: readonly McpBlock[], texts: readonly string[]): string {
  let i = 0;
  const updated = blocks.map((b) => (b.type === 'text' ? { ...b, text: texts[i++] } : b));
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: updated } });
}

// ---------------------------------------------------------------------------------------------
// Replies. Exactly one JSON object; hookSpecificOutput must name the event, or the host ignores it.

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

/** PreToolUse: refuse the call; the host hands the model the reason. */
export function preToolUseDeny(reason: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
}

/** PostToolUseFailure / SessionStart: the only channel there is additionalContext. */
export function additionalContextReply(event: 'PostToolUseFailure' | 'SessionStart', text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
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
/**
 * The same lines with secret values masked in place (`***`) and nothing else changed, so every
 * line keeps its number; anything else (a squeezed blank line and a receipt, say) is refused.
 */
export function inPlace(original: string, changed: string, startLine: number): { content: string; startLine: number } | null {
  if (changed === original) return null;
  const a = original.split('\n');
  const b = changed.split('\n');
  if (a.length !== b.length) return null;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !maskedFrom(b[i], a[i])) return null;
  return { content: changed, startLine };
}

/** `shown` is `line` with some values replaced by `***` (each standing for at least three characters). */
function maskedFrom(shown: string, line: string): boolean {
  const parts = shown.split('***');
  if (parts.length < 2 || shown.length > line.length) return false;
  // A glob match, `***` matching three or more characters: the earliest place for each middle
  // part is the best one (linear, whatever the line).
  const last = parts[parts.length - 1];
  if (!line.startsWith(parts[0]) || !line.endsWith(last)) return false;
  let at = parts[0].length;
  for (let i = 1; i < parts.length - 1; i++) {
    const j = line.indexOf(parts[i], at + 3);
    if (j < 0) return false;
    at = j + parts[i].length;
  }
  return line.length - last.length >= at + 3;
}

export function headFold(
  original: string,
  distilled: string,
  startLine: number,
): { content: string; startLine: number } | null {
  if (distilled === original) return null;
  // A content that ends with a newline has no line after it: the host would number the empty
  // string after that newline as one more line, which the file does not have.
  const body = (s: string) => (s.endsWith('\n') ? s.slice(0, -1) : s);
  const inLines = body(original).split('\n');
  const outLines = body(distilled).split('\n');
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
  // One marker, standing at the number of the last line it hides: the host numbers it that
  // line, and the marker itself says which lines it holds and names the handle that gives
  // them back. Several markers at the head cannot each be given their own range: refused.
  if (head.length !== 1 || hidden <= 1) return null;
  const m = /^\[omni: (.*— omni retrieve [0-9a-f]{16}\])$/.exec(head[0]);
  if (!m) return null;
  const marker = `${MARKER_PREFIX} lines ${startLine}-${startLine + hidden - 1}: ${m[1]}`;
  return { content: [marker, ...outLines.slice(outLines.length - s)].join('\n'), startLine: startLine + hidden - 1 };
}

// ---------------------------------------------------------------------------------------------
// The adapter: Claude Code's payloads in the neutral shape, and replies in Claude Code's shape.

const KINDS: Record<string, HookKind> = {
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  PostToolUseFailure: 'post-tool-failure',
  SessionStart: 'session-start',
  SessionEnd: 'session-end',
  PreCompact: 'pre-compact',
};

function readClaude(p: JsonObject): HookInput | null {
  if (!isBasePayload(p)) return null;
  const common = { host: 'claude' as const, event: p.hook_event_name, sessionId: p.session_id, agentId: agentIdOf(p), cwd: typeof p.cwd === 'string' ? p.cwd : undefined };
  if (isPostToolUse(p)) {
    if (p.tool_name === 'Bash') {
      const r = p.tool_response;
      if (!isBashInput(p.tool_input) || !isBashResponse(r)) return null;
      if (r.isImage === true || typeof r.backgroundTaskId === 'string') return null;
      // Claude Code sends failed calls to PostToolUseFailure; what arrives here succeeded (or
      // was a benign non-zero exit the host itself interpreted as success).
      return { ...common, kind: 'post-tool', tool: 'shell', command: p.tool_input.command, output: r.stdout, outputFile: typeof r.persistedOutputPath === 'string' ? r.persistedOutputPath : undefined, failed: false };
    }
    if (p.tool_name === 'Read') {
      const r = p.tool_response;
      // image, pdf, notebook, parts, file_unchanged: left alone.
      if (!isReadInput(p.tool_input) || !isReadTextResponse(r)) return null;
      return { ...common, kind: 'post-tool', tool: 'read', path: r.file.filePath, content: r.file.content, startLine: r.file.startLine, totalLines: r.file.totalLines };
    }
    if (p.tool_name === 'Edit') {
      const r = p.tool_response;
      const e = editedFile(p.tool_input, r);
      if (!e || !isObject(r) || typeof r.filePath !== 'string') return null;
      return { ...common, kind: 'post-tool', tool: 'write', path: r.filePath, before: e.before, after: e.after, via: 'edit' };
    }
    if (p.tool_name === 'Write') {
      const r = p.tool_response;
      // The host's record of what it wrote must be the model's content (no reply goes back either way).
      if (!isWriteInput(p.tool_input) || !isObject(r) || typeof r.filePath !== 'string' || r.content !== p.tool_input.content) return null;
      return { ...common, kind: 'post-tool', tool: 'write', path: r.filePath, before: typeof r.originalFile === 'string' ? r.originalFile : null, after: p.tool_input.content, via: 'write' };
    }
    if (p.tool_name.startsWith('mcp__')) {
      const r = p.tool_response;
      // A failed MCP call (isError) never arrives here: the host sends it to PostToolUseFailure.
      if (!isMcpBlocks(r)) return null;
      const server = isObject(p.mcp_server) && typeof p.mcp_server.name === 'string' ? p.mcp_server.name : undefined;
      if (isOmniMcpTool(p.tool_name, server)) return null;
      const texts = r.filter((b) => b.type === 'text').map((b) => b.text as string);
      if (texts.length === 0) return null;
      return { ...common, kind: 'post-tool', tool: 'mcp', name: p.tool_name, texts };
    }
    return null;
  }
  if (isPreToolUse(p)) {
    if (p.tool_name !== 'Bash' || !isBashInput(p.tool_input)) return null;
    return { ...common, kind: 'pre-tool', tool: 'shell', command: p.tool_input.command, background: p.tool_input.run_in_background === true };
  }
  if (isPostToolUseFailure(p)) {
    if (p.tool_name !== 'Bash' || !isBashInput(p.tool_input)) return null;
    return { ...common, kind: 'post-tool-failure', tool: 'shell', command: p.tool_input.command, error: p.error, interrupted: p.is_interrupt === true };
  }
  if (isSessionStart(p)) return { ...common, kind: 'session-start', source: p.source };
  if (isSessionEnd(p)) return { ...common, kind: 'session-end', reason: p.reason };
  if (isPreCompact(p)) return { ...common, kind: 'pre-compact', trigger: p.trigger };
  return null;
}

export const claude: HostAdapter = {
  id: 'claude',
  // The fallback dialect: other hosts that copy it (Codex) are recognised first by their own keys.
  recognise: (p) => typeof p.hook_event_name === 'string' && p.hook_event_name in KINDS,
  kindOf: (event) => KINDS[event] ?? null,
  read: readClaude,
  replyOutput(p, input, text) {
    const r = (p as PostToolUsePayload).tool_response as BashToolResponse;
    if (input.outputFile === undefined && text === r.stdout && r.stderr === '') return '';
    const out = bashShown(text, r.stderr);
    // Persisted output (measured with the real CLI 2.1.332, docs/claude-code-findings.md):
    // keeping persistedOutputPath/Size makes the host show only the first 2 KB of the digest in
    // its <persisted-output> wrapper, pointing at the RAW file; dropping them makes it send the
    // digest exactly. So always drop them; the raw bytes stay reachable through the markers.
    return bashReply(r, out, { dropPersisted: true });
  },
  viewOf(p, input, d) {
    const r = (p as PostToolUsePayload).tool_response as BashToolResponse;
    return claudeShellView({ ...d, stderr: r.stderr, persisted: input.outputFile !== undefined });
  },
  replyRead(p, input, content) {
    // Only a fold at the head, or lines changed in place (secrets masked under OMNI_MASK=all),
    // keep the host's line numbers right; anything else is refused.
    const fold = headFold(input.content, content, input.startLine) ?? inPlace(input.content, content, input.startLine);
    if (!fold) return '';
    return readReply((p as PostToolUsePayload).tool_response as ReadTextResponse, fold.content, fold.startLine);
  },
  replyReadAs(p, _input, content, startLine) {
    return readReply((p as PostToolUsePayload).tool_response as ReadTextResponse, content, startLine);
  },
  replyMcp(p, input, texts) {
    if (texts.length !== input.texts.length || texts.every((x, i) => x === input.texts[i])) return '';
    return mcpReply((p as PostToolUsePayload).tool_response as McpBlock[], texts);
  },
  rewrite: {
    policy: async (p, input, env, rewritten) => (await import('./policy.js')).claudeRewritePolicy(p, input, env, rewritten),
    reply: (p, _input, command, decision, reason) =>
      preToolUseReply((p as PreToolUsePayload).tool_input, command, decision, decision ? `omni: allowed by the user's ${reason}` : undefined),
    deny: (_p, _input, reason) => preToolUseDeny(reason),
  },
  replyContext(_p, input, text) {
    if (input.kind !== 'session-start' && input.kind !== 'post-tool-failure') return '';
    return additionalContextReply(input.kind === 'session-start' ? 'SessionStart' : 'PostToolUseFailure', text);
  },
};
