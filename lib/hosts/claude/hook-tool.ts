/**
 * Claude Code's `mcp_tool` hook handlers, omni's side of the contract (pure; no IO).
 *
 * A handler names a server the session already runs and one of its tools; Claude Code calls
 * the tool with `input`, a template whose `${field}` strings it fills from the hook payload
 * (measured on 2.1.332: a string field as itself, an object or other value as its JSON text,
 * a missing field as ""). No placeholder carries the whole payload, so the template lists
 * every top-level field a Claude Code hook payload has, and `payloadFromArgs` puts the payload
 * back together: the tool then runs the very door `omni --post-hook` runs, on the same bytes.
 * The tool's text result is read by the host like a command hook's stdout.
 */

import { HOOK_TOOL, OMNI_SERVER as HOOK_SERVER } from '../mcp-offer.js';

/** The server name in `mcpServers` and the internal tool the handlers call (../mcp-offer.ts). */
export { HOOK_SERVER, HOOK_TOOL };
/** The name the host gives the tool; a `permissions.deny` entry for it keeps it from the model. */
export const HOOK_TOOL_FULL_NAME = `mcp__${HOOK_SERVER}__${HOOK_TOOL}`;
/** The `omni mcp` flag that adds the internal tool (Cursor's `omni mcp` has no hooks to serve). */
export const HOOK_TOOL_FLAG = '--hook-tool';

/**
 * Every top-level field of a Claude Code tool-event payload (2.1.332 fixtures, in the host's
 * order), and whether the host's value is JSON (object, boolean, number) rather than a string.
 */
export const PAYLOAD_FIELDS: ReadonlyArray<readonly [name: string, json: boolean]> = [
  ['session_id', false],
  ['transcript_path', false],
  ['cwd', false],
  ['prompt_id', false],
  ['permission_mode', false],
  ['effort', true],
  ['agent_id', false],
  ['agent_type', false],
  ['hook_event_name', false],
  ['tool_name', false],
  ['tool_input', true],
  ['tool_response', true],
  ['tool_use_id', false],
  ['error', false],
  ['is_interrupt', true],
  ['duration_ms', true],
];

/** The argument naming which of omni's hook entries (`omni --<name>`) serves the call. */
export const HOOK_ARG = 'omni_hook';

/** The `input` template of the handler for one hook entry (`post-hook`, `pre-hook`, …). */
export function hookToolInput(entry: string): Record<string, string> {
  const input: Record<string, string> = { [HOOK_ARG]: entry };
  for (const [name] of PAYLOAD_FIELDS) input[name] = '${' + name + '}';
  return input;
}

/**
 * What Claude Code sends for `template` and `payload` (the measured interpolation; the
 * corpus test uses it to feed the tool exactly what the host would).
 */
export function renderTemplate(template: Record<string, string>, payload: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(template)) {
    out[k] = v.replace(/\$\{([^}]+)\}/g, (_, path: string) => {
      let cur: unknown = payload;
      for (const part of path.split('.')) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
      if (cur === undefined || cur === null) return '';
      return typeof cur === 'string' ? cur : JSON.stringify(cur);
    });
  }
  return out;
}

/**
 * The hook payload back from the tool's arguments: "" is a field the payload did not have,
 * a JSON field is parsed (kept as text if it does not parse). The entry is returned apart.
 */
export function payloadFromArgs(args: Record<string, unknown>): { entry: string; payload: Record<string, unknown> } {
  const entry = typeof args[HOOK_ARG] === 'string' ? (args[HOOK_ARG] as string) : 'hook';
  const payload: Record<string, unknown> = {};
  for (const [name, json] of PAYLOAD_FIELDS) {
    const v = args[name];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string' || !json) {
      payload[name] = v;
      continue;
    }
    try {
      payload[name] = JSON.parse(v);
    } catch {
      payload[name] = v;
    }
  }
  return { entry, payload };
}
