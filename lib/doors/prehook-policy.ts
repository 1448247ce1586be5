/**
 * The pre-tool rewrite into `omni exec …`, host-neutral half. The pre-hook is installed only on
 * request (`omni init --rewrite`); by default omni acts after the tool, and the command the user
 * approved is the command the host runs, in its own shell.
 *
 * When installed, it first refuses (deny, with a short reason) a command that asks omni to print
 * masked secrets raw (`omni retrieve … --reveal`, read generously: hosts/omni-command.ts).
 *
 * Then a command is rewritten only when
 * 1. it is plain words (lib/command/plain-words.ts): nothing any shell or permission matcher
 *    could read another way: no quotes, backslashes, expansions, globs, operators, assignments,
 *    wrappers, paths in the program word, or spacing other than one space between words; and not
 *    interactive, backgrounded, `OMNI_PASSTHROUGH=1` or omni's own;
 * 2. the distiller registry puts it on its rewrite allow-list (noisy families only);
 * 3. the host's own policy (`adapter.rewrite.policy`) says the host would run the original as it
 *    is, without asking, and the rewrite widens nothing.
 * The rewrite runs the line under bash (`omni exec --bash '<line>'`, lib/doors/shell.ts), the
 * shell the hosts run their commands in, so even a line that slipped through would mean what it
 * meant.
 */
import { analyzeCommand } from '../command/parse.js';
import { plainWords } from '../command/plain-words.js';
import { routeCommand } from '../distillers/registry.js';
import type { HostAdapter, JsonObject, PreToolInput } from '../hosts/adapter.js';
import { isOmniOwnCommand, revealRequested, shQuote } from '../hosts/omni-command.js';
import { commandRequestsPassthrough, passthroughRequested } from '../command/passthrough.js';
import { findBash } from './shell.js';

export type PreHookDecision =
  | { rewrite: true; command: string; decision: 'allow' | null; reply: string; reason: string }
  | { rewrite: false; reason: string; reply?: string };

/** The reason the model is shown when omni refuses `omni retrieve … --reveal`. */
export const REVEAL_DENIED = 'omni: `omni retrieve --reveal` prints masked secrets raw; only the user may run it, in their own terminal.';

/** How the hook invokes omni again: `OMNI_BIN` (tests), else the running entry script. */
export function omniInvocation(env: NodeJS.ProcessEnv, argv1: string | undefined = process.argv[1]): string | null {
  const bin = env.OMNI_BIN || argv1;
  if (!bin || !bin.startsWith('/')) return null;
  if (/\.(c|m)?js$/.test(bin)) return `${shQuote(process.execPath)} ${shQuote(bin)}`;
  return shQuote(bin);
}

/** `OMNI_SESSION_ID=… OMNI_AGENT_ID=… <omni> exec --bash '<original>'`. */
export function rewriteCommand(original: string, sessionId: string, agentId: string, omni: string): string {
  return `OMNI_SESSION_ID=${shQuote(sessionId)} OMNI_AGENT_ID=${shQuote(agentId)} ${omni} exec --bash ${shQuote(original)}`;
}

/** Is this command, on its own, worth and safe to wrap? (no host knowledge) */
export function plainRewritable(command: string, background = false): { ok: true } | { ok: false; reason: string } {
  if (command.trim() === '') return { ok: false, reason: 'empty command' };
  if (background) return { ok: false, reason: 'background run' };
  if (isOmniOwnCommand(command)) return { ok: false, reason: 'omni command' };
  // The post-hook must see the line as typed, to make the same pass-through decision exec would.
  if (commandRequestsPassthrough(command)) return { ok: false, reason: 'OMNI_PASSTHROUGH=1' };
  if (plainWords(command) === null) return { ok: false, reason: 'not plain words (quotes, expansions, operators, wrappers, a path or extra spacing): left to the host as typed' };
  const a = analyzeCommand(command);
  if (a.interactive) return { ok: false, reason: 'interactive program' };
  const route = routeCommand(command);
  if (route.distiller === null) return { ok: false, reason: `not distilled: ${route.reason}` };
  if (!route.rewrite) return { ok: false, reason: `not on the rewrite allow-list: ${route.reason}` };
  return { ok: true };
}

export async function decideRewrite(host: HostAdapter, payload: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv): Promise<PreHookDecision> {
  if (!host.rewrite) return { rewrite: false, reason: `${host.id} has no rewrite` };
  // Refusing narrows: it holds whatever else is set.
  if (revealRequested(input.command)) return { rewrite: false, reason: 'omni retrieve --reveal', reply: host.rewrite.deny(payload, input, REVEAL_DENIED) };
  if (env.OMNI_NO_REWRITE === '1') return { rewrite: false, reason: 'OMNI_NO_REWRITE=1' };
  if (passthroughRequested(null, env)) return { rewrite: false, reason: 'OMNI_PASSTHROUGH=1' };
  const plain = plainRewritable(input.command, input.background === true);
  if (!plain.ok) return { rewrite: false, reason: plain.reason };
  const omni = omniInvocation(env);
  if (!omni) return { rewrite: false, reason: 'omni entry path unknown' };
  if (!findBash(env)) return { rewrite: false, reason: 'no bash to run the rewrite in' };
  const command = rewriteCommand(input.command, input.sessionId, input.agentId, omni);
  const policy = await host.rewrite.policy(payload, input, env, command);
  if (!policy.rewrite) return policy;
  const reply = host.rewrite.reply(payload, input, command, policy.decision, policy.reason);
  return { rewrite: true, command, decision: policy.decision, reply, reason: policy.reason };
}
