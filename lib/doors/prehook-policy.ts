/**
 * The pre-tool rewrite into `omni exec …`, host-neutral half. A command is rewritten only when
 * 1. it is a plain command: no unquoted pipe, redirect, `;`, `&`, `&&`/`||`, subshell, here-doc,
 *    unbalanced quotes, interactive program, background run or `OMNI_PASSTHROUGH=1` prefix,
 *    and the distiller registry puts it on its rewrite allow-list (noisy families only);
 * 2. the host's own policy (`adapter.rewrite.policy`) says the rewrite widens no permission.
 */
import { analyzeCommand } from '../command/parse.js';
import { routeCommand } from '../distillers/registry.js';
import type { HostAdapter, JsonObject, PreToolInput } from '../hosts/adapter.js';
import { isOmniOwnCommand, shQuote } from '../hosts/omni-command.js';
import { commandRequestsPassthrough, passthroughRequested } from '../command/passthrough.js';

export type PreHookDecision =
  | { rewrite: true; command: string; decision: 'allow' | null; reply: string; reason: string }
  | { rewrite: false; reason: string };

/** How the hook invokes omni again: `OMNI_BIN` (tests), else the running entry script. */
export function omniInvocation(env: NodeJS.ProcessEnv, argv1: string | undefined = process.argv[1]): string | null {
  const bin = env.OMNI_BIN || argv1;
  if (!bin || !bin.startsWith('/')) return null;
  if (/\.(c|m)?js$/.test(bin)) return `${shQuote(process.execPath)} ${shQuote(bin)}`;
  return shQuote(bin);
}

/** `OMNI_SESSION_ID=… OMNI_AGENT_ID=… <omni> exec '<original>'`. */
export function rewriteCommand(original: string, sessionId: string, agentId: string, omni: string): string {
  return `OMNI_SESSION_ID=${shQuote(sessionId)} OMNI_AGENT_ID=${shQuote(agentId)} ${omni} exec ${shQuote(original)}`;
}

/** Is this command, on its own, worth and safe to wrap? (no host knowledge) */
export function plainRewritable(command: string, background = false): { ok: true } | { ok: false; reason: string } {
  if (command.trim() === '') return { ok: false, reason: 'empty command' };
  if (background) return { ok: false, reason: 'background run' };
  if (isOmniOwnCommand(command)) return { ok: false, reason: 'omni command' };
  // The post-hook must see the line as typed, to make the same pass-through decision exec would.
  if (commandRequestsPassthrough(command)) return { ok: false, reason: 'OMNI_PASSTHROUGH=1' };
  if (command.includes('\n')) return { ok: false, reason: 'multi-line command' };
  const a = analyzeCommand(command);
  if (a.malformed) return { ok: false, reason: 'unbalanced quotes' };
  if (a.hasUnquotedPipe) return { ok: false, reason: 'own pipe' };
  if (a.hasRedirect) return { ok: false, reason: 'own redirect' };
  if (a.hasSequence) return { ok: false, reason: 'own sequence' };
  if (a.hasBackground) return { ok: false, reason: 'own background' };
  if (a.hasSubshell) return { ok: false, reason: 'subshell or here-doc' };
  if (a.segments.length !== 1) return { ok: false, reason: '&& / || chain' };
  if (a.interactive) return { ok: false, reason: 'interactive program' };
  const route = routeCommand(command);
  if (route.distiller === null) return { ok: false, reason: `not distilled: ${route.reason}` };
  if (!route.rewrite) return { ok: false, reason: `not on the rewrite allow-list: ${route.reason}` };
  return { ok: true };
}

export async function decideRewrite(host: HostAdapter, payload: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv): Promise<PreHookDecision> {
  if (!host.rewrite) return { rewrite: false, reason: `${host.id} has no rewrite` };
  if (passthroughRequested(null, env)) return { rewrite: false, reason: 'OMNI_PASSTHROUGH=1' };
  const plain = plainRewritable(input.command, input.background === true);
  if (!plain.ok) return { rewrite: false, reason: plain.reason };
  const policy = await host.rewrite.policy(payload, input, env);
  if (!policy.rewrite) return policy;
  const omni = omniInvocation(env);
  if (!omni) return { rewrite: false, reason: 'omni entry path unknown' };
  const command = rewriteCommand(input.command, input.sessionId, input.agentId, omni);
  const reply = host.rewrite.reply(payload, input, command, policy.decision, policy.reason);
  return { rewrite: true, command, decision: policy.decision, reply, reason: policy.reason };
}
