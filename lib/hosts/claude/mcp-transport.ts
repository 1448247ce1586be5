/**
 * The fast transport for Claude Code: PreToolUse, PostToolUse and PostToolUseFailure answered by
 * `mcp_tool` handlers calling omni's internal hook tool on omni's MCP server, which the host
 * starts once per session (no Node start-up per tool call). SessionStart, SessionEnd and
 * PreCompact stay command hooks: they run once per session, and at SessionStart the server is
 * not connected yet.
 *
 * Three places change, and `omni init --uninstall` reverts all three:
 * - `~/.claude.json` `mcpServers.omni` (user scope, where `claude mcp add -s user` writes on
 *   2.1.332): `node <omni.cjs> mcp --hook-tool`;
 * - `~/.claude/settings.json` hooks: the mcp_tool handlers and the three command hooks;
 * - `~/.claude/settings.json` `permissions.deny`: the internal tool, so the model never sees
 *   it (the handlers still call it).
 * The server offers the model nothing else unless the user opts in (`--mcp-tools`, ./mcp-offer.ts):
 * every offered tool rides on every model request, and omni_run is a shell of its own.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HOOK_SERVER, HOOK_TOOL, HOOK_TOOL_FLAG, HOOK_TOOL_FULL_NAME, hookToolInput } from './hook-tool.js';
import { editSettings, isObj, type Json, type Obj, type WriteResult } from '../kit/config-file.js';
import { withOmniHooks as withSpecs, withoutOmniHooks, type OmniHookSpec } from '../kit/hook-entries.js';
import { mcpSlot, withMcpServer, withoutMcpServer } from '../kit/mcp-entry.js';
import { OMNI_HOOKS } from './settings.js';
import { MCP_TOOLS_FLAG } from '../mcp-offer.js';

/**
 * The first Claude Code release that runs `mcp_tool` hook handlers and applies their reply
 * (docs/claude-code-findings.md §8: found by running pinned releases with the real CLI).
 */
export const MIN_MCP_TOOL_VERSION = '2.1.121';

/**
 * Each tool event, as an mcp_tool handler naming the same entry its command hook would run.
 * PreToolUse only with `preHook` (`omni init --rewrite`).
 */
export function mcpHookSpecs(opts: { preHook?: boolean } = {}): OmniHookSpec[] {
  return OMNI_HOOKS.filter((h) => opts.preHook === true || h.event !== 'PreToolUse').map((h) => {
    if (h.event !== 'PreToolUse' && h.event !== 'PostToolUse' && h.event !== 'PostToolUseFailure') return h;
    return { ...h, mcpTool: { server: HOOK_SERVER, tool: HOOK_TOOL, input: hookToolInput(h.flag.replace(/^--/, '')) } };
  });
}

/** `~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json`. */
export function claudeJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, '.claude.json') : join(env.HOME || homedir(), '.claude.json');
}

/**
 * The server entry omni registers. One malloc arena: with glibc's default (one per thread) the
 * server's RSS grew 16-35 MB over 1,000 hook calls and kept creeping; with one it levels off
 * after the first few hundred (bench/hook-server.mjs). The server drops the variable from its
 * own environment at start (ARENA_MARK), so commands run through omni_run do not inherit it.
 */
export const ARENA_MARK = 'OMNI_SET_MALLOC_ARENA_MAX';
export function omniServerEntry(bin: string, nodePath: string = process.execPath, opts: { mcpTools?: boolean } = {}): Obj {
  const args = [bin, 'mcp', HOOK_TOOL_FLAG, ...(opts.mcpTools ? [MCP_TOOLS_FLAG] : [])];
  return { type: 'stdio', command: nodePath, args, env: { MALLOC_ARENA_MAX: '1', [ARENA_MARK]: '1' } };
}

/** Is this `mcpServers` entry omni's own hook server (any path)? */
export function isOmniServerEntry(e: unknown): boolean {
  if (!isObj(e) || !Array.isArray(e.args)) return false;
  const args = e.args.map(String);
  return args.includes('mcp') && args.includes(HOOK_TOOL_FLAG) && args.some((a) => /(^|\/)omni(\.c?js|\.mjs)?$/.test(a) || /(^|\/)omni$/.test(String(e.command)));
}

/** Whose is the `omni` entry in `mcpServers`: none, omni's, or someone else's (left alone). */
export function serverSlot(claudeJson: Obj): 'free' | 'omni' | 'foreign' {
  return mcpSlot(claudeJson, HOOK_SERVER, isOmniServerEntry);
}

export function withOmniServer(claudeJson: Obj, bin: string, nodePath?: string, opts: { mcpTools?: boolean } = {}): Obj {
  return withMcpServer(claudeJson, HOOK_SERVER, omniServerEntry(bin, nodePath, opts));
}

export function withoutOmniServer(claudeJson: Obj): Obj {
  return withoutMcpServer(claudeJson, HOOK_SERVER, isOmniServerEntry);
}

function denyList(settings: Obj): Json[] | null {
  const p = settings.permissions;
  return isObj(p) && Array.isArray(p.deny) ? p.deny : null;
}

/** settings + the mcp_tool handlers, the three command hooks and the deny entry (pure). */
export function withOmniMcpHooks(settings: Obj, bin: string, nodePath?: string, opts: { preHook?: boolean } = {}): Obj {
  const s = withSpecs(settings, mcpHookSpecs(opts), bin, nodePath);
  if (s.permissions !== undefined && !isObj(s.permissions)) return s;
  const perms = (s.permissions ?? {}) as Obj;
  const deny = Array.isArray(perms.deny) ? perms.deny : [];
  if (!deny.includes(HOOK_TOOL_FULL_NAME)) deny.push(HOOK_TOOL_FULL_NAME);
  perms.deny = deny;
  s.permissions = perms;
  return s;
}

/** settings without any of omni's hooks (either transport) and without its deny entry (pure). */
export function withoutOmniMcpHooks(settings: Obj): Obj {
  const s = withoutOmniHooks(settings);
  const deny = denyList(s);
  if (!deny || !deny.includes(HOOK_TOOL_FULL_NAME)) return s;
  const perms = s.permissions as Obj;
  perms.deny = deny.filter((d) => d !== HOOK_TOOL_FULL_NAME);
  if ((perms.deny as Json[]).length === 0) delete perms.deny;
  if (Object.keys(perms).length === 0) delete s.permissions;
  return s;
}

export function hasDenyEntry(settings: unknown): boolean {
  return isObj(settings) && (denyList(settings)?.includes(HOOK_TOOL_FULL_NAME) ?? false);
}

/** `~/.claude.json` holds the user's credentials state: keep its mode (0600 as the CLI makes it). */
function modeOf(file: string): number {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return 0o600;
  }
}

export function installServer(file: string, bin: string, nodePath?: string, opts: { mcpTools?: boolean } = {}): WriteResult {
  return editSettings(file, (json) => withOmniServer(json, bin, nodePath, opts), { mode: modeOf(file) });
}

export function uninstallServer(file: string): WriteResult {
  return editSettings(file, withoutOmniServer, { onlyIfExists: true, mode: modeOf(file) });
}
