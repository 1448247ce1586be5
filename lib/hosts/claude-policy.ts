/**
 * Claude Code's half of the pre-tool rewrite policy: may omni turn this Bash call into
 * `omni exec …` without widening the user's permissions? (docs/claude-code-findings.md)
 *
 * The host checks its permission rules against the REWRITTEN command, so:
 * 1. A deny or ask rule that matches the ORIGINAL command → no rewrite (the host would miss it).
 * 2. An allow rule that matches the original → rewrite with `permissionDecision: "allow"` (the
 *    user already approved exactly this; without it the wrapper would be refused or prompted).
 * 3. No rule: rewrite (without a decision) only under `bypassPermissions`, where the host asks
 *    nothing anyway. In every other mode the host would prompt or refuse for the wrapper.
 * 4. Rules given on the host's command line (`--settings`, `--allowedTools`, …) cannot be read
 *    by a hook: no rewrite at all.
 */
import type { JsonObject, PreToolInput, RewriteDecision } from './adapter.js';
import { checkBashCommand, loadPermissionRules } from './claude-permissions.js';
import { ancestorArgs } from './process-tree.js';

export const RULE_FLAGS = ['--settings', '--disallowedTools', '--disallowed-tools', '--allowedTools', '--allowed-tools', '--permission-prompt-tool'];

/**
 * Permission rules can also come from the host's command line (the Agent SDK passes its options
 * this way). When the host process (an ancestor of this hook) was started with any of them,
 * omni does not rewrite. Returns the flag found, or null.
 */
export function hostCommandLineRules(startPid: number = process.ppid, maxDepth = 6): string | null {
  for (const args of ancestorArgs(startPid, maxDepth)) {
    for (const arg of args) {
      const flag = RULE_FLAGS.find((f) => arg === f || arg.startsWith(f + '='));
      if (flag) return flag;
    }
  }
  return null;
}

export function claudeRewritePolicy(p: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv): RewriteDecision {
  // Plan mode (and any mode omni does not know) has its own restrictions: stay out of it.
  const mode = typeof p.permission_mode === 'string' ? p.permission_mode : '';
  if (!['default', 'acceptEdits', 'dontAsk', 'auto', 'bypassPermissions'].includes(mode)) {
    return { rewrite: false, reason: `permission mode ${mode || '(none)'}` };
  }
  const cliRules = env.OMNI_IGNORE_HOST_ARGS === '1' ? null : hostCommandLineRules();
  if (cliRules) return { rewrite: false, reason: `the host was started with ${cliRules}: rules a hook cannot see` };
  const rules = loadPermissionRules([env.CLAUDE_PROJECT_DIR, input.cwd], env);
  const verdict = checkBashCommand(input.command, rules);
  if (verdict.deny) return { rewrite: false, reason: `deny rule ${verdict.deny}` };
  if (verdict.ask) return { rewrite: false, reason: `ask rule ${verdict.ask}` };
  if (verdict.allow) return { rewrite: true, decision: 'allow', reason: `allow rule ${verdict.allow}` };
  if (mode !== 'bypassPermissions') return { rewrite: false, reason: `no allow rule in permission mode ${mode}` };
  return { rewrite: true, decision: null, reason: 'bypassPermissions' };
}
