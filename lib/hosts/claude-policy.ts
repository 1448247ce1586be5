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
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { JsonObject, PreToolInput, RewriteDecision } from './adapter.js';
import { checkBashCommand, loadPermissionRules } from './claude-permissions.js';

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

/**
 * Permission rules can also come from the host's command line (the Agent SDK passes its options
 * this way). When the host process (an ancestor of this hook) was started with any of them,
 * omni does not rewrite. Returns the flag found, or null.
 */
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
