/**
 * PreToolUse policy: which Bash commands omni rewrites into `omni exec …`, and with which
 * permission decision. The rewrite must never widen permissions (see docs/claude-code-findings.md):
 *
 * 1. Only plain commands: no unquoted pipe, redirect, `;`, `&`, `&&`/`||`, subshell, here-doc,
 *    unbalanced quotes, interactive program, background run, `OMNI_PASSTHROUGH=1` prefix, and
 *    only what the distiller registry would distil.
 * 2. A deny or ask rule that matches the ORIGINAL command → no rewrite (the host would check
 *    the rewritten command and miss the rule).
 * 3. An allow rule that matches the original → rewrite with `permissionDecision: "allow"` (the
 *    user already approved exactly this; without it the rewritten command would be refused).
 * 4. No rule: rewrite (without a decision) only under `bypassPermissions`, where the host asks
 *    nothing anyway. In every other mode the host would prompt or refuse for the wrapper,
 *    so leave the command alone; the post-hook still distils its output.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { analyzeCommand } from '../command/parse.js';
import { routeCommand } from '../distillers/registry.js';
import { checkBashCommand, loadPermissionRules } from '../hosts/claude-permissions.js';
import {
  agentIdOf,
  hasPassthroughPrefix,
  isBashInput,
  isOmniOwnCommand,
  preToolUseReply,
  shQuote,
  type PreToolUsePayload,
} from '../hosts/claude.js';

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

/**
 * Permission rules can also come from the host's command line (`--settings <file|json>`,
 * `--disallowedTools`, `--allowedTools`: the Agent SDK passes its options this way). A hook
 * cannot see them, and the host would check them against the rewritten command only. So when
 * the host process (an ancestor of this hook) was started with any of them, omni does not
 * rewrite at all. Returns the flag found, or null.
 */
export const RULE_FLAGS = ['--settings', '--disallowedTools', '--disallowed-tools', '--allowedTools', '--allowed-tools', '--permission-prompt-tool'];

function argsOf(pid: number): { ppid: number; args: string[] } | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { ppid, args };
  } catch {
    if (process.platform === 'linux') return null;
    const r = spawnSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
    const m = /^\s*(\d+)\s+(.*)$/.exec((r.stdout ?? '').trim());
    return m ? { ppid: Number(m[1]), args: m[2].split(/\s+/) } : null;
  }
}

export function hostCommandLineRules(startPid: number = process.ppid, maxDepth = 6): string | null {
  let pid = startPid;
  for (let i = 0; i < maxDepth && pid > 1; i++) {
    const a = argsOf(pid);
    if (!a) return null;
    for (const arg of a.args) {
      const flag = RULE_FLAGS.find((f) => arg === f || arg.startsWith(f + '='));
      if (flag) return flag;
    }
    pid = a.ppid;
  }
  return null;
}

export function decidePreHook(p: PreToolUsePayload, env: NodeJS.ProcessEnv): PreHookDecision {
  if (p.tool_name !== 'Bash') return { rewrite: false, reason: `tool ${p.tool_name}` };
  const input = p.tool_input;
  if (!isBashInput(input)) return { rewrite: false, reason: 'tool_input does not validate' };
  const command = input.command;
  if (command.trim() === '') return { rewrite: false, reason: 'empty command' };
  if (input.run_in_background === true) return { rewrite: false, reason: 'background run' };
  if (isOmniOwnCommand(command)) return { rewrite: false, reason: 'omni command' };
  if (hasPassthroughPrefix(command)) return { rewrite: false, reason: 'OMNI_PASSTHROUGH=1' };
  if (command.includes('\n')) return { rewrite: false, reason: 'multi-line command' };

  const a = analyzeCommand(command);
  if (a.malformed) return { rewrite: false, reason: 'unbalanced quotes' };
  if (a.passthroughPrefix) return { rewrite: false, reason: 'OMNI_PASSTHROUGH=1' };
  if (a.hasUnquotedPipe) return { rewrite: false, reason: 'own pipe' };
  if (a.hasRedirect) return { rewrite: false, reason: 'own redirect' };
  if (a.hasSequence) return { rewrite: false, reason: 'own sequence' };
  if (a.hasBackground) return { rewrite: false, reason: 'own background' };
  if (a.hasSubshell) return { rewrite: false, reason: 'subshell or here-doc' };
  if (a.segments.length !== 1) return { rewrite: false, reason: '&& / || chain' };
  if (a.interactive) return { rewrite: false, reason: 'interactive program' };
  const route = routeCommand(command);
  if (route.distiller === null) return { rewrite: false, reason: `not distilled: ${route.reason}` };
  // The registry's allow-list: only noisy families are worth a wrapper.
  if (!route.rewrite) return { rewrite: false, reason: `not on the rewrite allow-list: ${route.reason}` };

  // Plan mode (and any mode omni does not know) has its own restrictions: stay out of it.
  const mode = p.permission_mode ?? '';
  if (!['default', 'acceptEdits', 'dontAsk', 'auto', 'bypassPermissions'].includes(mode)) {
    return { rewrite: false, reason: `permission mode ${mode || '(none)'}` };
  }
  const cliRules = env.OMNI_IGNORE_HOST_ARGS === '1' ? null : hostCommandLineRules();
  if (cliRules) return { rewrite: false, reason: `the host was started with ${cliRules}: rules a hook cannot see` };
  const rules = loadPermissionRules([env.CLAUDE_PROJECT_DIR, p.cwd], env);
  const verdict = checkBashCommand(command, rules);
  if (verdict.deny) return { rewrite: false, reason: `deny rule ${verdict.deny}` };
  if (verdict.ask) return { rewrite: false, reason: `ask rule ${verdict.ask}` };
  let decision: 'allow' | null = null;
  if (verdict.allow) decision = 'allow';
  else if (p.permission_mode !== 'bypassPermissions') {
    return { rewrite: false, reason: `no allow rule in permission mode ${p.permission_mode ?? '(unknown)'}` };
  }

  const omni = omniInvocation(env);
  if (!omni) return { rewrite: false, reason: 'omni entry path unknown' };
  const rewritten = rewriteCommand(command, p.session_id, agentIdOf(p), omni);
  const reason = decision ? `omni: allowed by the user's rule ${verdict.allow}` : undefined;
  return {
    rewrite: true,
    command: rewritten,
    decision,
    reply: preToolUseReply(input, rewritten, decision, reason),
    reason: decision ? `allow rule ${verdict.allow}` : 'bypassPermissions',
  };
}
