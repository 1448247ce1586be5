/**
 * Claude Code's installer half: hooks into settings.json (user or project scope), and doctor's
 * checks: the CLI's version (updatedToolOutput needs >= 2.1.121); omni's hooks registered in
 * user, project and local settings, each pointing at files that exist; no duplicate
 * registrations under different paths (both would run, one rewrite would win at random);
 * `disableAllHooks`; and a probe payload fed through the registered PostToolUse command giving
 * a reply the host accepts (checked with the zod schema).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readText } from '../read-text.js';
import type { HostInstaller, InstallOptions, InstallResult } from '../adapter.js';
import { OMNI_HOOKS, projectSettingsPath, userSettingsPath, omniHookSpecs, withOmniHooks } from './settings.js';
import { cliVersion, compareVersions, detectedAt, findProgram, missingInCommand } from '../kit/detect.js';
import { hookCommand, omniHandlersIn } from '../kit/hook-entries.js';
import { hostStatus } from '../kit/status.js';
import { claudeJsonPath, hasDenyEntry, installServer, isOmniServerEntry, MIN_MCP_TOOL_VERSION, serverSlot, uninstallServer, withOmniMcpHooks, withoutOmniMcpHooks } from './mcp-transport.js';
import { HOOK_SERVER, HOOK_TOOL_FULL_NAME } from './hook-tool.js';
import { isObj, readJsonLoose as readJson, readSettings, writeSettings, type Obj } from '../kit/config-file.js';
import { MCP_TOOLS_FLAG, MODEL_TOOLS } from '../mcp-offer.js';

/** Does a PostToolUse matcher hit a tool name, as the CLI reads it (an exact list, else a JavaScript regex)? */
function matcherHits(matcher: string, tool: string): boolean {
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split('|').includes(tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return false;
  }
}

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

export const MIN_CLAUDE_VERSION = '2.1.121';

export function checkClaudeVersion(env: NodeJS.ProcessEnv): Check {
  const bin = findClaudeBin(env);
  if (!bin) return { name: 'claude-version', status: 'fail', detail: 'Claude Code (`claude`) not found on PATH; install it or set OMNI_CLAUDE_BIN' };
  const { version: v, error } = cliVersion(bin, { ...env, DISABLE_AUTOUPDATER: '1' });
  if (!v) return { name: 'claude-version', status: 'fail', detail: `\`${bin} --version\` gave no version (${error})` };
  if (compareVersions(v, MIN_CLAUDE_VERSION) < 0) {
    return { name: 'claude-version', status: 'fail', detail: `Claude Code ${v} ignores updatedToolOutput; ${MIN_CLAUDE_VERSION} or later is needed (\`claude update\`)` };
  }
  return { name: 'claude-version', status: 'ok', detail: `Claude Code ${v} (${bin})` };
}

export interface Registration {
  file: string;
  event: string;
  matcher: string | undefined;
  command: string;
  type: 'command' | 'mcp_tool';
}

export type Transport = { kind: 'mcp_tool' | 'command'; why: string };

/**
 * Which transport an install wires, and why. `OMNI_CLAUDE_TRANSPORT=command|mcp_tool` decides
 * outright; otherwise mcp_tool handlers wherever the host runs them: user scope (the server is
 * registered for the user), a Claude Code version known to run them, and an `omni` server
 * slot that is free or already omni's.
 */
export function chooseTransport(opts: Pick<InstallOptions, 'scope' | 'env'>, version: string | undefined, slot: 'free' | 'omni' | 'foreign'): Transport {
  const forced = opts.env.OMNI_CLAUDE_TRANSPORT;
  if (forced === 'command') return { kind: 'command', why: 'OMNI_CLAUDE_TRANSPORT=command' };
  if (opts.scope === 'project') return { kind: 'command', why: 'project scope: omni registers its MCP server for the user only' };
  if (slot === 'foreign') return { kind: 'command', why: `~/.claude.json already has an MCP server named "${HOOK_SERVER}" that is not omni's hook server; left alone` };
  if (forced === 'mcp_tool' || forced === 'mcp') return { kind: 'mcp_tool', why: `OMNI_CLAUDE_TRANSPORT=${forced}` };
  if (!version) return { kind: 'command', why: 'Claude Code not found, so its version is unknown; mcp_tool handlers need ' + MIN_MCP_TOOL_VERSION + ' or later' };
  if (compareVersions(version, MIN_MCP_TOOL_VERSION) < 0) return { kind: 'command', why: `Claude Code ${version} does not apply the replies of mcp_tool hook handlers (${MIN_MCP_TOOL_VERSION} or later does)` };
  return { kind: 'mcp_tool', why: `Claude Code ${version} runs mcp_tool hook handlers (${MIN_MCP_TOOL_VERSION} or later): no Node start-up per tool call` };
}

function checkHooks(env: NodeJS.ProcessEnv, projectDir: string): { checks: Check[]; regs: Registration[] } {
  const files = [userSettingsPath(env), projectSettingsPath(projectDir), join(projectDir, '.claude', 'settings.local.json')];
  const regs: Registration[] = [];
  const checks: Check[] = [];
  for (const f of files) {
    if (!existsSync(f)) continue;
    const json = readJson(f);
    if (json === undefined) {
      checks.push({ name: 'settings', status: 'fail', detail: `${f} is not valid JSON: Claude Code will not load its hooks` });
      continue;
    }
    if ((json as { disableAllHooks?: unknown }).disableAllHooks === true) {
      checks.push({ name: 'settings', status: 'fail', detail: `${f} sets "disableAllHooks": true: no hook runs` });
    }
    for (const h of omniHandlersIn(json)) regs.push({ file: f, ...h });
  }
  if (regs.length === 0) {
    checks.push({ name: 'hooks-registered', status: 'fail', detail: `no omni hooks in ${files.join(', ')}; run \`omni init\`` });
    return { checks, regs };
  }
  // PreToolUse is opt-in (`omni init --rewrite`).
  const missing = OMNI_HOOKS.filter((s) => s.event !== 'PreToolUse' && !regs.some((r) => r.event === s.event));
  const post = OMNI_HOOKS.find((s) => s.event === 'PostToolUse');
  if (missing.some((m) => m.event === 'PostToolUse')) {
    checks.push({ name: 'hooks-registered', status: 'fail', detail: `PostToolUse is not registered; run \`omni init\`` });
  } else if (missing.length > 0) {
    checks.push({ name: 'hooks-registered', status: 'warn', detail: `not registered: ${missing.map((m) => m.event).join(', ')}; run \`omni init\`` });
  } else {
    checks.push({ name: 'hooks-registered', status: 'ok', detail: `${regs.length} omni hooks in ${[...new Set(regs.map((r) => r.file))].join(', ')}` });
  }
  checks.push(
    regs.some((r) => r.event === 'PreToolUse')
      ? { name: 'rewrite', status: 'ok', detail: 'on: PreToolUse rewrites plain noisy commands into omni exec where the host would run them unasked (`omni init --claude` again turns it off)' }
      : { name: 'rewrite', status: 'ok', detail: 'off: commands run as approved, in the host\'s shell, and are distilled afterwards (`omni init --claude --rewrite` turns it on)' },
  );
  const postRegs = regs.filter((r) => r.event === 'PostToolUse');
  for (const r of postRegs) {
    if (post && r.matcher !== undefined && !/Bash/.test(r.matcher) && r.matcher !== '*' && r.matcher !== '') {
      checks.push({ name: 'hooks-registered', status: 'fail', detail: `PostToolUse matcher ${JSON.stringify(r.matcher)} in ${r.file} does not include Bash` });
    } else if (post && r.matcher !== undefined && r.matcher !== '*' && r.matcher !== '' && !matcherHits(r.matcher, 'Edit')) {
      // An install from before Edit and Write were registered: a Read after the model's own edit
      // is answered from the file as it read it, not as it left it.
      checks.push({ name: 'hooks-registered', status: 'warn', detail: `PostToolUse matcher ${JSON.stringify(r.matcher)} in ${r.file} does not include Edit and Write; run \`omni init\` again` });
    }
  }
  const distinct = new Set(postRegs.map((r) => r.command));
  if (postRegs.some((r) => r.type === 'mcp_tool') && postRegs.some((r) => r.type === 'command')) {
    checks.push({ name: 'hooks-duplicate', status: 'fail', detail: `PostToolUse has both omni's command hook and its mcp_tool handler: both run, and only one rewrite survives. Run \`omni init --uninstall\` in the stale scope, then \`omni init\`` });
  }
  if (distinct.size > 1) {
    checks.push({
      name: 'hooks-duplicate',
      status: 'fail',
      detail: `omni's PostToolUse hook is registered ${distinct.size} times with different commands (${[...distinct].join(' | ')}): both run, and only one rewrite survives. Run \`omni init --uninstall\` in the stale scope`,
    });
  }
  // every registered command must point at files that exist
  const bad: string[] = [];
  for (const r of regs) if (r.type === 'command') for (const m of missingInCommand(r.command, env)) bad.push(`${r.event}: ${m} (in ${r.file})`);
  if (bad.length) {
    checks.push({ name: 'hooks-executable', status: 'fail', detail: `hook commands point at missing files (the host runs them, gets exit 127 and silently skips omni): ${[...new Set(bad)].join('; ')}. Run \`omni init\` again` });
  } else {
    checks.push({ name: 'hooks-executable', status: 'ok', detail: 'every hook command points at existing files' });
  }
  return { checks, regs };
}

/** A probe PostToolUse payload: a noisy successful Bash call. */
export function probePayload(cwd: string): Record<string, unknown> {
  const lines: string[] = [];
  for (let i = 1; i <= 400; i++) lines.push(`Downloading package-${i % 3} 50%`);
  lines.push('omni doctor probe: done');
  return {
    session_id: '00000000-0000-4000-8000-00000000d0c7',
    transcript_path: '/dev/null',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'omni-doctor-probe', description: 'omni doctor probe' },
    tool_response: { stdout: lines.join('\n'), stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    tool_use_id: 'toolu_omni_doctor_probe',
  };
}

async function checkProbe(regs: Registration[], env: NodeJS.ProcessEnv, cwd: string): Promise<Check> {
  let post: Registration | undefined = regs.find((r) => r.event === 'PostToolUse');
  if (!post) return { name: 'probe', status: 'fail', detail: 'no PostToolUse command to probe' };
  if (post.type === 'mcp_tool') {
    // The tool runs the door `omni --post-hook` runs: probe that door with the server's own node and entry.
    const entry = serverEntry(env);
    if (!entry) return { name: 'probe', status: 'fail', detail: `PostToolUse calls ${HOOK_TOOL_FULL_NAME}, but ${claudeJsonPath(env)} has no omni MCP server; run \`omni init --claude\`` };
    post = { ...post, command: hookCommand(entry.args[0], '--post-hook', entry.command) };
  }
  const payload = probePayload(cwd);
  // The probe is not the user's run: it goes to a store of its own, thrown away after, so it
  // leaves no run row, archive, ledger or diff trace in the user's (the store check is apart).
  const probeHome = mkdtempSync(join(tmpdir(), 'omni-doctor-probe-'));
  let r: SpawnSyncReturns<string>;
  let ms: number;
  let log: string;
  try {
    const t0 = Date.now();
    r = spawnSync('/bin/sh', ['-c', post.command], { input: JSON.stringify(payload), encoding: 'utf8', timeout: 30_000, cwd, env: { ...env, OMNI_HOME: probeHome } });
    ms = Date.now() - t0;
    log = readText(join(probeHome, 'omni.log')) ?? '';
  } finally {
    rmSync(probeHome, { recursive: true, force: true });
  }
  if (r.error) return { name: 'probe', status: 'fail', detail: `running \`${post.command}\` failed: ${r.error.message}` };
  if (r.status !== 0) return { name: 'probe', status: 'fail', detail: `\`${post.command}\` exited ${r.status} (${(r.stderr || '').trim().slice(0, 300)})` };
  const out = (r.stdout || '').trim();
  if (out === '') {
    const said = log.trim().split('\n').slice(-3).join(' | ').slice(0, 600);
    return { name: 'probe', status: 'fail', detail: `\`${post.command}\` gave no reply for a 400-line noisy probe${said ? ` (its log: ${said})` : ' (and logged nothing)'}` };
  }
  let reply: unknown;
  try {
    reply = JSON.parse(out);
  } catch {
    return { name: 'probe', status: 'fail', detail: `the hook printed something that is not one JSON object: the host would ignore it (${out.slice(0, 120)})` };
  }
  const { PostToolUseBashReply } = await import('./schemas.js');
  const v = PostToolUseBashReply.safeParse(reply);
  if (!v.success) return { name: 'probe', status: 'fail', detail: `the reply does not match Bash's output shape; the host would use the original output: ${v.error.message.slice(0, 300)}` };
  const raw = (payload.tool_response as { stdout: string }).stdout.length;
  const got = v.data.hookSpecificOutput.updatedToolOutput.stdout;
  return {
    name: 'probe',
    status: 'ok',
    detail: `probe reply accepted: ${raw} B -> ${got.length} B in ${ms} ms; the model would see:\n${got.split('\n').map((l) => '    ' + l).join('\n')}`,
  };
}


/** omni's hook server entry in ~/.claude.json: its node and args. */
function serverEntry(env: NodeJS.ProcessEnv): { command: string; args: string[] } | null {
  const j = readJson(claudeJsonPath(env));
  const e = isObj(j) && isObj(j.mcpServers) ? j.mcpServers[HOOK_SERVER] : undefined;
  if (!isOmniServerEntry(e) || !isObj(e) || typeof e.command !== 'string' || !Array.isArray(e.args)) return null;
  return { command: e.command, args: e.args.map(String) };
}

/** What omni's hook server offers the model: nothing by default, its tools with --mcp-tools. */
export function offeredCheck(args: string[]): Check {
  if (args.includes(MCP_TOOLS_FLAG)) {
    return {
      name: 'mcp-tools',
      status: 'ok',
      detail: `offered to the model: ${MODEL_TOOLS.join(', ')} (${MCP_TOOLS_FLAG}). Each model request carries them; \`omni stats\` nets that cost against the saving. omni_run refuses what your Bash deny and ask rules name. To offer nothing: \`omni init --claude\``,
    };
  }
  return { name: 'mcp-tools', status: 'ok', detail: `offered to the model: none (omni's server answers only its hook handlers). To offer ${MODEL_TOOLS.join(', ')}: \`omni init --claude ${MCP_TOOLS_FLAG}\`` };
}

/** Which transport is wired, why, and whether the host will run it. */
function checkTransport(env: NodeJS.ProcessEnv, regs: Registration[], version: string | null): Check[] {
  const tools = regs.filter((r) => r.event === 'PreToolUse' || r.event === 'PostToolUse' || r.event === 'PostToolUseFailure');
  if (tools.length === 0) return [];
  if (!tools.some((r) => r.type === 'mcp_tool')) {
    const why = version && compareVersions(version, MIN_MCP_TOOL_VERSION) >= 0
      ? `Claude Code ${version} could use mcp_tool handlers (no process per tool call): run \`omni init --claude\` again`
      : `mcp_tool handlers need Claude Code ${MIN_MCP_TOOL_VERSION} or later${version ? ` (found ${version})` : ''}`;
    return [{ name: 'transport', status: 'ok', detail: `command hooks: a new omni process per tool call. ${why}` }];
  }
  const out: Check[] = [];
  const entry = serverEntry(env);
  const file = claudeJsonPath(env);
  if (!entry) {
    out.push({ name: 'transport', status: 'fail', detail: `mcp_tool handlers call ${HOOK_TOOL_FULL_NAME}, but ${file} registers no omni MCP server: the host reports "not connected" and omni does nothing. Run \`omni init --claude\`` });
    return out;
  }
  const missing = entry.args.slice(0, 1).concat(entry.command).filter((p) => p.startsWith('/') && !existsSync(p));
  if (missing.length) out.push({ name: 'transport', status: 'fail', detail: `omni's MCP server in ${file} points at missing files (${missing.join(', ')}): omni does nothing. Run \`omni init --claude\` again` });
  else if (version && compareVersions(version, MIN_MCP_TOOL_VERSION) < 0) out.push({ name: 'transport', status: 'fail', detail: `mcp_tool handlers are wired, but Claude Code ${version} does not run them (${MIN_MCP_TOOL_VERSION} or later does): run \`omni init --claude\` again for command hooks, or update Claude Code` });
  else out.push({ name: 'transport', status: 'ok', detail: `mcp_tool handlers on omni's MCP server (\`${entry.command} ${entry.args.join(' ')}\`, ${file}): one process per session, no start-up per tool call` });
  out.push(offeredCheck(entry.args));
  const settings = regs.filter((r) => r.type === 'mcp_tool').map((r) => r.file);
  if (!settings.some((f) => hasDenyEntry(readJson(f)))) out.push({ name: 'transport', status: 'warn', detail: `no permissions.deny entry for ${HOOK_TOOL_FULL_NAME}: the model is offered omni's internal hook tool. Run \`omni init --claude\`` });
  return out;
}

/** Every check doctor runs for Claude Code, in order. */
export async function claudeChecks(env: NodeJS.ProcessEnv, cwd: string): Promise<Check[]> {
  const version = checkClaudeVersion(env);
  const checks: Check[] = [version];
  const hooks = checkHooks(env, env.CLAUDE_PROJECT_DIR || cwd);
  checks.push(...hooks.checks);
  const v = /Claude Code (\d+\.\d+\.\d+)/.exec(version.detail)?.[1] ?? null;
  checks.push(...checkTransport(env, hooks.regs, v));
  if (hooks.regs.some((r) => r.event === 'PostToolUse')) checks.push(await checkProbe(hooks.regs, env, cwd));
  return checks;
}

/**
 * The CLI: OMNI_CLAUDE_BIN, else `claude` on PATH, else the old local install
 * (~/.claude/local/claude, reached through a shell alias). ~/.claude alone is not Claude Code.
 */
function findClaudeBin(env: NodeJS.ProcessEnv): string | null {
  return findProgram(['claude'], env, env.OMNI_CLAUDE_BIN, [join(env.CLAUDE_CONFIG_DIR || join(env.HOME || '', '.claude'), 'local', 'claude')]);
}

/** Command hooks for every event, and none of the mcp transport's entries (its deny entry included). */
function withOmniHooksCommand(json: Obj, opts: InstallOptions): Obj {
  return withOmniHooks(withoutOmniMcpHooks(json), opts.bin, opts.nodePath, { preHook: opts.preHook });
}

function settingsFile(opts: Pick<InstallOptions, 'scope' | 'cwd' | 'env'>): string {
  return opts.scope === 'project' ? projectSettingsPath(opts.cwd) : userSettingsPath(opts.env);
}

/** What the install says about the rewrite, either way. */
function rewriteNote(preHook: boolean): string {
  return preHook
    ? 'rewrite: PreToolUse rewrites plain noisy commands into `omni exec --bash` where the host would run them unasked (--rewrite); everything else is distilled after it ran'
    : 'no command rewrite: every command runs as the user approved it, in the host\'s shell; omni distils its output afterwards (`omni init --claude --rewrite` opts in)';
}

/** Did doctor find omni's PreToolUse registered? */
function hooksRewrite(checks: Check[]): boolean {
  return checks.some((c) => c.name === 'rewrite' && c.status === 'ok' && c.detail.startsWith('on'));
}

export const claudeInstaller: HostInstaller = {
  id: 'claude',
  name: 'Claude Code',
  detect(env) {
    return detectedAt(findClaudeBin(env), (bin) => cliVersion(bin, { ...env, DISABLE_AUTOUPDATER: '1' }).version);
  },
  install(opts) {
    const claudeJson = claudeJsonPath(opts.env);
    const slot = opts.scope === 'user' ? serverSlot(readSettings(claudeJson).json) : 'free';
    const version = opts.env.OMNI_CLAUDE_TRANSPORT ? undefined : claudeInstaller.detect(opts.env).version;
    const transport = chooseTransport(opts, version, slot);
    const file = settingsFile(opts);
    if (transport.kind === 'mcp_tool') {
      // Settings first (an unreadable file stops the install before anything is written): a
      // server registered without the deny entry would offer omni_hook to the model.
      const { text, json } = readSettings(file);
      const r = writeSettings(file, text, withOmniMcpHooks(json, opts.bin, opts.nodePath, { preHook: opts.preHook }));
      const srv = installServer(claudeJson, opts.bin, opts.nodePath, { mcpTools: opts.mcpTools });
      const changed = r.changed || srv.changed;
      const offered = opts.mcpTools
        ? `offered to the model: ${MODEL_TOOLS.join(', ')} (each model request carries their definitions; \`omni stats\` counts that cost; omni_run refuses what your Bash deny and ask rules name)`
        : `offered to the model: no tool (\`omni init --claude ${MCP_TOOLS_FLAG}\` offers ${MODEL_TOOLS.join(', ')})`;
      const result: InstallResult = {
        changed,
        files: [r.file, srv.file],
        notes: changed
          ? [
              `transport: mcp_tool handlers (${transport.why})`,
              `transport: mcp_tool handlers (${transport.why})`,
              `MCP server "${HOOK_SERVER}" registered in ${srv.file}${srv.backup ? ` (backup: ${srv.backup})` : ''}: ${opts.nodePath ?? process.execPath} ${opts.bin} mcp --hook-tool${opts.mcpTools ? ` ${MCP_TOOLS_FLAG}` : ''}`,
              offered,
              `hooks registered in ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}: ${opts.preHook ? 'PreToolUse, ' : ''}PostToolUse, PostToolUseFailure call ${HOOK_TOOL_FULL_NAME} (denied to the model in permissions.deny); SessionStart, SessionEnd, PreCompact run ${hookCommand(opts.bin, '--<event>', opts.nodePath)}`,
            ]
          : [`transport: mcp_tool handlers (${transport.why})`, `hooks in ${r.file} and the MCP server in ${srv.file} already up to date`, offered],
      };
      result.notes.push(rewriteNote(opts.preHook));
      return result;
    }
    // Command hooks; a server omni registered earlier would only cost a process per session.
    const srv = opts.scope === 'user' && slot === 'omni' ? uninstallServer(claudeJson) : null;
    const { text, json } = readSettings(file);
    const r = writeSettings(file, text, withOmniHooksCommand(json, opts));
    const events = omniHookSpecs({ preHook: opts.preHook }).map((h) => h.event).join(', ');
    const ignored = opts.mcpTools ? [`${MCP_TOOLS_FLAG} ignored: command hooks register no MCP server (\`omni mcp\` offers the tools if you add it yourself)`] : [];
    return {
      changed: r.changed || !!srv?.changed,
      files: [r.file],
      notes: [
        ...(r.changed
          ? [`transport: command hooks (${transport.why})`, `hooks registered in ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}`, `events: ${events}`, `command: ${hookCommand(opts.bin, '--<event>', opts.nodePath)}`, ...ignored]
          : [`transport: command hooks (${transport.why})`, `hooks in ${r.file} already up to date`, ...ignored]),
        rewriteNote(opts.preHook),
      ],
    };
  },
  uninstall(opts) {
    const file = settingsFile(opts);
    const { text, json } = readSettings(file);
    const r = text === null ? { file, changed: false, backup: null } : writeSettings(file, text, withoutOmniMcpHooks(json));
    const srv = opts.scope === 'user' ? uninstallServer(claudeJsonPath(opts.env)) : null;
    const notes = [r.changed ? `removed omni's hooks from ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}` : `no omni hooks in ${r.file}; nothing to do`];
    if (srv?.changed) notes.push(`removed omni's MCP server "${HOOK_SERVER}" from ${srv.file}`);
    return { changed: r.changed || !!srv?.changed, files: [r.file, ...(srv?.changed ? [srv.file] : [])], notes };
  },
  status(opts) {
    let checks: Check[] = [];
    return hostStatus(claudeInstaller, opts.env, {
      async read(s) {
        checks = await claudeChecks(opts.env, opts.cwd);
        s.wired = checks.some((c) => c.name === 'hooks-registered' && c.status !== 'fail');
        s.files.push(userSettingsPath(opts.env), projectSettingsPath(opts.cwd));
        s.problems.push(
          ...checks
            .filter((c) => c.status !== 'ok')
            .map((c) => ({ status: c.status as 'warn' | 'fail', what: `${c.name}: ${c.detail}`, fix: /omni init/.test(c.detail) ? 'omni init --claude' : 'see the detail' })),
        );
      },
      failed: { what: 'Claude Code check failed', fix: 'run omni doctor again; report it if it persists' },
      settle: () => ({
        tier: 'full',
        note: hooksRewrite(checks)
          ? 'PostToolUse replaces Bash and Read output (updatedToolOutput); PreToolUse rewrites plain noisy commands into omni exec where the host would run them unasked (omni init --rewrite)'
          : 'PostToolUse replaces Bash and Read output (updatedToolOutput); commands run as the user approved them, in the host\'s shell',
        checks,
      }),
    });
  },
};
