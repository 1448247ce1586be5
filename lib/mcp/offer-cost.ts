/**
 * What omni's offered tools cost the model, per request, and its record in the store.
 *
 * A server's tools ride on every model request of the session. Claude Code 2.1.332 sends
 * (measured with the real CLI; test/real-host/claude-mcp-tools.test.ts compares this figure with
 * the request bodies it recorded):
 * - the server's instructions, in the system prompt's "# MCP Server Instructions" section;
 * - each tool by name only, one line in its list of deferred tools (the model loads a schema
 *   through ToolSearch) — unless ENABLE_TOOL_SEARCH turns deferral off (false, or auto, under
 *   whose threshold omni's few tools stay), when each goes whole into `tools` as
 *   `{name, description, input_schema}`.
 * Any other host (Cursor) is counted with whole definitions.
 *
 * The count is a floor: the server sees the requests that follow a tool call it hears of (a
 * PostToolUse hook call on omni_hook, a call of its own tools), not a turn's first request or
 * one after a tool no omni hook watches, and a definition the model loaded through ToolSearch
 * rides along on later requests too.
 */
import { HOOK_TOOL } from '../hosts/claude/hook-tool.js';
import { recordCost } from '../store/costs.js';
import type { Store } from '../store/open.js';
import { logDiagnostic } from '../store/diagnostics.js';

/** The text the host puts before the first server's instructions (and its separator). */
export const INSTRUCTIONS_HEADER =
  '\n\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n';

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** Does the host list MCP tools by name only (Claude Code's default tool search)? */
export function defersTools(env: NodeJS.ProcessEnv): boolean {
  if (env.CLAUDECODE !== '1') return false;
  const v = (env.ENABLE_TOOL_SEARCH ?? '').trim().toLowerCase();
  return v === '' || ['1', 'true', 'yes', 'on', 'force', 'auto:0'].includes(v);
}

/** Bytes per model request: the instructions section and each tool the model is offered. */
export function perRequestBytes(tools: readonly ListedTool[], instructions: string | undefined, env: NodeJS.ProcessEnv, server = 'omni'): number {
  const offered = tools.filter((t) => t.name !== HOOK_TOOL);
  let n = instructions ? Buffer.byteLength(`${INSTRUCTIONS_HEADER}## ${server}\n${instructions}`) : 0;
  const deferred = defersTools(env);
  for (const t of offered) {
    const name = `mcp__${server}__${t.name}`;
    n += deferred ? Buffer.byteLength(name) + 1 : Buffer.byteLength(JSON.stringify({ name, description: t.description, input_schema: t.inputSchema }));
  }
  return n;
}

/**
 * The server's running figure: set from what it really answered `tools/list` with, recorded
 * once per model request it learns of. Recording never fails a call.
 */
export class OfferCost {
  perRequest = 0;
  constructor(private readonly env: NodeJS.ProcessEnv, private readonly instructions: string | undefined) {}

  /** The server answered `tools/list` with these: the cost from now on. */
  listed(tools: readonly ListedTool[]): void {
    this.perRequest = perRequestBytes(tools, this.instructions, this.env);
  }

  record(store: Store | null, session: string | null | undefined): void {
    if (!store || this.perRequest <= 0) return;
    try {
      recordCost(store, { what: 'mcp-tools', session: session || this.env.CLAUDE_CODE_SESSION_ID || null, requests: 1, bytes: this.perRequest });
    } catch (err) {
      logDiagnostic('mcp-cost', err, this.env);
    }
  }
}
