/**
 * Claude Code's half of the pre-tool rewrite policy: would the host run this Bash call as it is,
 * without asking, and does turning it into `omni exec --bash '…'` change nothing the host
 * judges? (docs/claude-code-findings.md §1). The command is already plain words
 * (lib/doors/prehook-policy.ts); the host checks its rules against the REWRITTEN command, so:
 *
 * 1. A deny or ask rule that matches the original, generously (claude-permissions.ts), or the
 *    rewritten command → no rewrite (the host would deny or ask; a wrapper would hide it).
 * 2. bypassPermissions: the host asks nothing, so rewrite without a decision.
 * 3. default, acceptEdits, dontAsk: rewrite only when the user's own allow rule certainly
 *    matches the original (strict), and say `allow`: the host would have allowed exactly this.
 *    Nothing there names a path outside the project (the host checks some of those itself).
 * 4. Any other mode (plan, auto, a mode omni does not know): no rewrite.
 * 5. Rules a hook cannot read (`--settings`, `--allowedTools`, … on the host's command line),
 *    a Bash sandbox in the settings, or a shell start-up file that makes the program a function
 *    or an alias → no rewrite.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject, PreToolInput, RewriteDecision } from '../adapter.js';
import { checkBashCommand, loadPermissionRules } from './permissions.js';
import { ancestorArgs } from '../process-tree.js';
import { definedIn, filesIn, shellStartupFiles } from '../shell-startup.js';

/** Claude Code's shell snapshots (each Bash command first runs one). */
export function claudeSnapshotFiles(env: NodeJS.ProcessEnv): string[] {
  return filesIn(join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'), 'shell-snapshots'));
}

export const RULE_FLAGS = ['--settings', '--disallowedTools', '--disallowed-tools', '--allowedTools', '--allowed-tools', '--permission-prompt-tool'];

/** Modes where the user's allow rules decide what runs unasked. */
const ALLOW_MODES = new Set(['default', 'acceptEdits', 'dontAsk']);

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

export function claudeRewritePolicy(p: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv, rewritten: string): RewriteDecision {
  const mode = typeof p.permission_mode === 'string' ? p.permission_mode : '';
  if (mode !== 'bypassPermissions' && !ALLOW_MODES.has(mode)) return { rewrite: false, reason: `permission mode ${mode || '(none)'}` };
  const cliRules = env.OMNI_IGNORE_HOST_ARGS === '1' ? null : hostCommandLineRules();
  if (cliRules) return { rewrite: false, reason: `the host was started with ${cliRules}: rules a hook cannot see` };
  const rules = loadPermissionRules([env.CLAUDE_PROJECT_DIR, input.cwd], env);
  if (rules.sandbox) return { rewrite: false, reason: `a Bash sandbox is set in ${rules.sandbox}` };
  const verdict = checkBashCommand(input.command, rules);
  if (verdict.deny) return { rewrite: false, reason: `deny rule ${verdict.deny}` };
  if (verdict.ask) return { rewrite: false, reason: `ask rule ${verdict.ask}` };
  const wrapper = checkBashCommand(rewritten, { ...rules, allow: [] });
  if (wrapper.deny || wrapper.ask) return { rewrite: false, reason: `rule ${wrapper.deny ?? wrapper.ask} would judge the rewritten command` };
  if (mode !== 'bypassPermissions') {
    if (!verdict.allow) return { rewrite: false, reason: `no allow rule in permission mode ${mode}` };
    if (input.command.split(' ').slice(1).some((w) => w.startsWith('/') || w.split(/[/=]/).includes('..'))) {
      return { rewrite: false, reason: 'a path outside the project: the host may ask about it itself' };
    }
  }
  const program = input.command.split(' ')[0];
  const defined = definedIn([...claudeSnapshotFiles(env), ...shellStartupFiles(env)], program);
  if (defined) return { rewrite: false, reason: `${program} may be a function or alias of the host's shell (${defined})` };
  if (verdict.allow) return { rewrite: true, decision: 'allow', reason: `allow rule ${verdict.allow}` };
  return { rewrite: true, decision: null, reason: 'bypassPermissions' };
}
