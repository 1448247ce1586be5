/**
 * omni's hooks in a host config shaped `{hooks: {<Event>: [{matcher?, hooks: [{type: "command",
 * command, timeout?}]}]}}`: Claude Code's settings.json, Codex's hooks.json and Gemini's
 * settings.json all use it. Each host passes its own event names and timeouts as specs.
 *
 * - idempotent: a second install leaves the file byte-identical (and does not write it);
 * - every foreign hook and key is kept, in place;
 * - stale omni entries (any earlier binary path, any of omni's hook flags) are replaced;
 * - the file is read and written by ./config-file.ts (atomic, with a backup).
 */
import type { InstallResult } from '../adapter.js';
import { HOOK_TOOL, OMNI_SERVER } from '../mcp-offer.js';
import { shQuote } from '../omni-command.js';
import { isObj, readSettings, SettingsError, writeSettings, type Json, type Obj } from './config-file.js';

export interface OmniHookSpec {
  event: string;
  matcher?: string;
  flag: string;
  /** In the host's own unit (seconds for Claude Code and Codex, milliseconds for Gemini). */
  timeout?: number;
  /** Claude Code only: an `mcp_tool` handler on a server the session runs, instead of a command. */
  mcpTool?: { server: string; tool: string; input: Record<string, string> };
}

const OMNI_FLAGS = 'post-hook-failure|post-hook|pre-hook|session-start|session-end|pre-compact|hook';
const OMNI_CMD_RE = new RegExp(
  String.raw`(?:^|[\s/'"])(?:omni|omni\.cjs|omni\.js|omni\.mjs|omni\.ts)['"]?\s+--(?:${OMNI_FLAGS})(?:\s|$)`,
);

/** Is this handler one of omni's (any version, any path, command or Claude Code mcp_tool)? */
export function isOmniHandler(h: unknown): boolean {
  if (typeof h !== 'object' || h === null) return false;
  if (isOmniMcpToolHandler(h)) return true;
  const cmd = (h as { command?: unknown }).command;
  if (typeof cmd === 'string' && OMNI_CMD_RE.test(cmd)) return true;
  const args = (h as { args?: unknown }).args;
  if (Array.isArray(args) && typeof cmd === 'string') {
    return OMNI_CMD_RE.test([cmd, ...args.map(String)].map((a) => shQuote(a)).join(' '));
  }
  return false;
}

/**
 * The command line a hook runs: `env -u NODE_EXTRA_CA_CERTS '<node>' '<abs omni.cjs>' --post-hook`,
 * or `<abs bin> --post-hook`. The hook makes no TLS calls, and Node 20 parses the extra CA
 * bundle at start-up before any JS runs: on this machine that was 80 of node's 110 ms, paid
 * on every tool call.
 */
export function hookCommand(bin: string, flag: string, nodePath: string = process.execPath): string {
  if (/\.(c|m)?js$/.test(bin)) return `env -u NODE_EXTRA_CA_CERTS ${shQuote(nodePath)} ${shQuote(bin)} ${flag}`;
  return `${shQuote(bin)} ${flag}`;
}

/** omni's Claude Code `mcp_tool` handler: its internal hook tool on its own server. */
export function isOmniMcpToolHandler(h: unknown): boolean {
  const o = h as { type?: unknown; server?: unknown; tool?: unknown } | null;
  return typeof o === 'object' && o !== null && o.type === 'mcp_tool' && o.server === OMNI_SERVER && o.tool === HOOK_TOOL;
}

/** Remove omni's handlers. Returns how many were removed. Groups/events emptied by it go away. */
function stripOmni(settings: Obj): number {
  const hooks = settings.hooks;
  if (!isObj(hooks)) return 0;
  let removed = 0;
  for (const event of Object.keys(hooks)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept: Json[] = [];
    for (const g of groups) {
      if (!isObj(g) || !Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const handlers = g.hooks.filter((h) => !isOmniHandler(h));
      const n = g.hooks.length - handlers.length;
      removed += n;
      if (n === 0) kept.push(g);
      else if (handlers.length > 0) kept.push({ ...g, hooks: handlers });
    }
    hooks[event] = kept;
  }
  return removed;
}

function dropEmptyEvents(settings: Obj, keep: Set<string>): void {
  const hooks = settings.hooks;
  if (!isObj(hooks)) return;
  for (const event of Object.keys(hooks)) {
    const g = hooks[event];
    if (Array.isArray(g) && g.length === 0 && !keep.has(event)) delete hooks[event];
  }
}

/** The specs an install registers: the pre-tool rewrite's only when asked (`omni init --rewrite`). */
export function hookSpecs(all: readonly OmniHookSpec[], preHook: boolean): readonly OmniHookSpec[] {
  return preHook ? all : all.filter((h) => h.flag !== '--pre-hook');
}

/** settings + omni's hooks (pure). */
export function withOmniHooks(settings: Obj, specs: readonly OmniHookSpec[], bin: string, nodePath?: string): Obj {
  const s = structuredClone(settings);
  if (s.hooks !== undefined && !isObj(s.hooks)) throw new SettingsError('"hooks" in the settings file is not an object; omni will not overwrite it');
  const hadHooks = isObj(s.hooks);
  stripOmni(s);
  if (!hadHooks) s.hooks = {};
  const hooks = s.hooks as Obj;
  for (const spec of specs) {
    const group: Obj = {};
    if (spec.matcher) group.matcher = spec.matcher;
    const handler: Obj = spec.mcpTool
      ? { type: 'mcp_tool', server: spec.mcpTool.server, tool: spec.mcpTool.tool, input: spec.mcpTool.input }
      : { type: 'command', command: hookCommand(bin, spec.flag, nodePath) };
    if (spec.timeout) handler.timeout = spec.timeout;
    group.hooks = [handler];
    if (!Array.isArray(hooks[spec.event])) hooks[spec.event] = [];
    (hooks[spec.event] as Json[]).push(group);
  }
  dropEmptyEvents(s, new Set());
  return s;
}

/** settings without omni's hooks (pure). */
export function withoutOmniHooks(settings: Obj): Obj {
  const s = structuredClone(settings);
  const removed = stripOmni(s);
  if (removed > 0) {
    dropEmptyEvents(s, new Set());
    if (isObj(s.hooks) && Object.keys(s.hooks).length === 0) delete s.hooks;
  }
  return s;
}

/**
 * omni's handlers found in a settings object: event → commands. An `mcp_tool` handler has
 * `type: 'mcp_tool'` and, as its command, `mcp_tool <server>/<tool>`.
 */
export function omniHandlersIn(settings: unknown): { event: string; matcher: string | undefined; command: string; type: 'command' | 'mcp_tool' }[] {
  const out: { event: string; matcher: string | undefined; command: string; type: 'command' | 'mcp_tool' }[] = [];
  if (!isObj(settings) || !isObj(settings.hooks)) return out;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      if (!isObj(g) || !Array.isArray(g.hooks)) continue;
      for (const h of g.hooks) {
        const matcher = typeof g.matcher === 'string' ? g.matcher : undefined;
        if (isOmniMcpToolHandler(h)) out.push({ event, matcher, command: `mcp_tool ${OMNI_SERVER}/${HOOK_TOOL}`, type: 'mcp_tool' });
        else if (isOmniHandler(h) && isObj(h) && typeof h.command === 'string') out.push({ event, matcher, command: h.command, type: 'command' });
      }
    }
  }
  return out;
}

function changeFile(file: string, mutate: (json: Obj) => Obj, onlyIfExists: boolean): InstallResult {
  const { text, json } = readSettings(file);
  if (onlyIfExists && text === null) return { changed: false, files: [], notes: [] };
  const w = writeSettings(file, text, mutate(json));
  return { changed: w.changed, files: [w.file], notes: w.backup ? [`previous ${file} kept as ${w.backup}`] : [] };
}

/** An installer's install step for a hook config file (Codex, Gemini): omni's specs in, reported. */
export function installHookFile(file: string, specs: readonly OmniHookSpec[], bin: string, nodePath?: string): InstallResult {
  const r = changeFile(file, (json) => withOmniHooks(json, specs, bin, nodePath), false);
  return { ...r, files: [file], notes: [r.changed ? `hooks registered in ${file}` : `hooks already registered in ${file}`, ...r.notes] };
}

/** The matching uninstall step: omni's handlers out, everything else kept; no file, no change. */
export function uninstallHookFile(file: string): InstallResult {
  const r = changeFile(file, withoutOmniHooks, true);
  return { ...r, notes: [r.changed ? `omni's hooks removed from ${file}` : `no omni hooks in ${file}`, ...r.notes] };
}
