/**
 * omni_run is a shell the host's Bash permission rules do not reach: the host checks
 * `mcp__omni__omni_run`, not the command inside it. So before running anything, omni_run asks
 * the user's Claude Code rules itself (lib/hosts/claude/permissions.ts, matched generously) and
 * refuses any command a Bash deny or ask rule names: it never runs what Bash would refuse or
 * stop to ask about. A settings file omni cannot read or parse counts as an ask rule for every
 * command (it might hold a deny).
 *
 * Which project's rules: the server's project (`omni mcp --cwd`, the host's working
 * directory), the host's CLAUDE_PROJECT_DIR when it says one, and the directory the call runs
 * in. Their deny and ask rules all count: a rule in any of them refuses.
 *
 * Not reached: rules passed on the host's command line (`claude --settings`), which no file
 * holds. Bash's own prompt for a command no allow rule names is not mirrored: approving
 * omni_run approves what it runs (README: "What omni offers the model").
 */
import { checkBashCommand, loadPermissionRules } from '../hosts/claude/permissions.js';

/** The refusal's text, or null when no deny or ask rule names the command. */
export function runRefusal(command: string, dirs: (string | undefined)[], env: NodeJS.ProcessEnv): string | null {
  const rules = loadPermissionRules(dirs, env);
  const v = checkBashCommand(command, rules);
  const rule = v.deny ?? v.ask;
  if (rule === null) return null;
  const kind = v.deny !== null ? 'deny' : 'ask';
  const unreadable = rules.sources.filter((s) => /\((unparsable|unreadable)/.test(s));
  const from = unreadable.length && rule === 'Bash' ? ` (${unreadable.join('; ')})` : '';
  const what = kind === 'deny' ? 'denies it' : 'asks before running it';
  return (
    `omni_run refused: the Bash permission rule "${rule}" (${kind}) in your Claude Code settings ${what}${from}. ` +
    `omni_run never runs a command the host's Bash rules would deny or ask about; ` +
    (kind === 'ask' ? 'run it with the Bash tool, so the host can ask the user.' : 'the user has ruled it out.')
  );
}
