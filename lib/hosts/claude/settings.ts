/**
 * Installing omni's hooks into a Claude Code settings.json, and removing them: Claude Code's
 * events, matchers, timeouts (seconds) and file locations. The file handling is ../kit/.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { editSettings, type Obj, type WriteResult } from '../kit/config-file.js';
import { hookSpecs, withOmniHooks as withSpecs, withoutOmniHooks, type OmniHookSpec } from '../kit/hook-entries.js';

/**
 * PostToolUse: Bash, Read, Edit and Write (no reply to these two: what the model wrote is the
 * view of the file a later Read is answered from), and every MCP tool (`mcp__<server>__<tool>`)
 * but those of the `omni` server, whose results are omni's already (the hook skips them too, by
 * any server name). Any
 * character beyond letters, digits, `_`, `-`, `|` makes the CLI read a matcher as an unanchored
 * JavaScript regex, so each alternative is anchored: `Read` alone would also hit
 * `ReadMcpResourceTool`. Measured on Claude Code 2.1.332 (docs/claude-code-findings.md §7).
 */
export const POST_TOOL_MATCHER = '^(Bash|Read|Edit|Write)$|^mcp__(?!omni__)';

/** What omni registers. Timeouts in seconds. SessionEnd gets none: it must not raise the host's 1.5 s budget. */
export const OMNI_HOOKS: readonly OmniHookSpec[] = [
  { event: 'PreToolUse', matcher: 'Bash', flag: '--pre-hook', timeout: 15 },
  { event: 'PostToolUse', matcher: POST_TOOL_MATCHER, flag: '--post-hook', timeout: 60 },
  { event: 'PostToolUseFailure', matcher: 'Bash', flag: '--post-hook-failure', timeout: 15 },
  { event: 'SessionStart', flag: '--session-start', timeout: 15 },
  { event: 'SessionEnd', flag: '--session-end' },
  { event: 'PreCompact', flag: '--pre-compact', timeout: 15 },
];

export interface InstallOptions {
  /**
   * Also register the PreToolUse rewrite into `omni exec` (`omni init --rewrite`; default
   * false). Without it omni only distils in PostToolUse, which has no permission impact at all:
   * the command the user approved is the command the host runs.
   */
  preHook?: boolean;
}

/** The hook specs an install registers. */
export function omniHookSpecs(opts: InstallOptions = {}): readonly OmniHookSpec[] {
  return hookSpecs(OMNI_HOOKS, opts.preHook === true);
}

/** settings + omni's Claude Code hooks (pure). */
export function withOmniHooks(settings: Obj, bin: string, nodePath?: string, opts: InstallOptions = {}): Obj {
  return withSpecs(settings, omniHookSpecs(opts), bin, nodePath);
}

/** Claude Code's own folder: `$CLAUDE_CONFIG_DIR`, default `~/.claude`. */
export function claudeDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

export function userSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(claudeDir(env), 'settings.json');
}

export function projectSettingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.json');
}

export function installHooks(file: string, bin: string, nodePath?: string, opts: InstallOptions = {}): WriteResult {
  return editSettings(file, (json) => withOmniHooks(json, bin, nodePath, opts));
}

export function uninstallHooks(file: string): WriteResult {
  return editSettings(file, withoutOmniHooks, { onlyIfExists: true });
}

