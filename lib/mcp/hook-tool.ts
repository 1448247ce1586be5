/**
 * The internal tool behind Claude Code's `mcp_tool` hook handlers (lib/hosts/claude/hook-tool.ts):
 * the payload put back together from the handler's arguments and handed, as it is, to
 * `answerHook`, the door `omni --post-hook` runs after it has parsed stdin. The tool's text is
 * exactly that door's reply; '' leaves the host's output as it was. Any fault in one call is
 * that call's empty reply, never the server's end.
 *
 * The server lives for the session, so the store is opened once (../doors/warm-store.ts) and
 * lent to each call with a lock budget of its own; the store file's identity is checked per
 * call (a store moved aside is reopened at its path). Nothing else is kept between calls: the
 * permission rules and settings the pre-hook policy reads, the process tree and the trust
 * state are read afresh by each call, exactly as in a hook process, so none can go stale.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerHook, type HookDeps } from '../doors/hook.js';
import { logDiagnostic } from '../store/diagnostics.js';
import { WarmStore } from '../doors/warm-store.js';
import { HOOK_ARG, HOOK_TOOL, PAYLOAD_FIELDS, payloadFromArgs } from '../hosts/claude/hook-tool.js';
import type { OfferCost } from './offer-cost.js';

/** The door a call goes to (a test seam: answerHook). */
export type HookRunner = (name: string, payload: Record<string, unknown>, deps: HookDeps) => Promise<string>;

/** One process, one warm store: set up on the first hook call, shared by every later one. */
let warm: WarmStore | null = null;

export function warmStore(env: NodeJS.ProcessEnv): WarmStore {
  warm ??= new WarmStore(env);
  return warm;
}

/** Test seam: forget the warm store (closing it). */
export function resetWarmStore(): void {
  warm?.close();
  warm = null;
}

/** Hook entries that end a tool call: the model's next request follows each. */
const REQUEST_AFTER = new Set(['post-hook', 'post-hook-failure']);

/**
 * The reply text for one call: the hook door's, or '' on any fault. With `cost` (the server offers
 * the model tools), a call that ends a tool call counts one model request carrying them.
 */
export async function hookToolReply(args: Record<string, unknown>, env: NodeJS.ProcessEnv, run: HookRunner = answerHook, cost?: OfferCost): Promise<string> {
  try {
    const { entry, payload } = payloadFromArgs(args);
    const w = warmStore(env);
    return await w.run(async () => {
      // The warm store, lent to this call with a lock budget of its own.
      const reply = await run(entry, payload, { env, store: () => w.forCall() });
      if (cost && REQUEST_AFTER.has(entry)) cost.record(w.get(), typeof payload.session_id === 'string' ? payload.session_id : null);
      return reply;
    });
  } catch (err) {
    logDiagnostic('mcp-hook', err, env);
    return '';
  }
}

export function registerHookTool(server: McpServer, env: NodeJS.ProcessEnv, run: HookRunner = answerHook, cost?: OfferCost): void {
  const shape: Record<string, z.ZodOptional<z.ZodString>> = { [HOOK_ARG]: z.string().optional() };
  for (const [name] of PAYLOAD_FIELDS) shape[name] = z.string().optional();
  server.registerTool(
    HOOK_TOOL,
    {
      description: "Internal: omni's Claude Code hook door, called by omni's mcp_tool hook handlers. Not for the model.",
      inputSchema: shape,
    },
    async (a): Promise<CallToolResult> => ({ content: [{ type: 'text', text: await hookToolReply(a as Record<string, unknown>, env, run, cost) }] }),
  );
}
