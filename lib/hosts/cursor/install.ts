/**
 * Cursor's installer half (tier "handoff"). Cursor cannot replace a shell command's output
 * (its hooks can observe a command but not change what the agent gets), so omni is offered to its agent as an MCP server (`omni mcp`, tool
 * `omni_run`) in `.cursor/mcp.json`, plus, per project, a rule in `.cursor/rules/omni.mdc`
 * telling the agent when to use it. Cursor has no rules file it reads at user scope (user
 * rules live in its settings UI), so user scope installs the MCP server only.
 *
 * JSON handling (atomic write, backup, indentation kept, byte-identical on a second run) is
 * ../kit/config-file.ts; the server entry, ../kit/mcp-entry.ts.
 */
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { readText } from '../read-text.js';
import type { HostInstaller, InstallOptions, InstallResult } from '../adapter.js';
import { isObj, readSettings, readSettingsOrNull, SettingsError, writeSettings, writeTextFile, type Obj } from '../kit/config-file.js';
import { cliProblems, cliVersion, detectedAt, findProgram } from '../kit/detect.js';
import { mcpSlot, withMcpServer, withoutMcpServer } from '../kit/mcp-entry.js';
import { hostStatus } from '../kit/status.js';
import { MODEL_TOOLS, OMNI_SERVER } from '../mcp-offer.js';

export const SERVER_NAME = OMNI_SERVER;
export const NOTE = 'Cursor cannot replace shell output; noisy commands go through omni_run (MCP)';
/**
 * Cursor's server is `omni mcp` bare: it offers the model omni's tools (the handoff is omni_run),
 * each on every model request, and omni_run refuses what the user's Claude Code Bash deny and
 * ask rules name (lib/mcp/run-permission.ts), the only permission rules omni reads.
 */
export const OFFERED = `offered to the model: ${MODEL_TOOLS.join(', ')}`;

/** First line of the rule's body: marks the file as omni's (init rewrites it, uninstall removes it). */
const RULE_MARK = '<!-- written by `omni init --cursor --project`; `omni init --cursor --project --uninstall` removes it -->';

export const RULE = `---
description: Run noisy shell commands through omni's omni_run MCP tool
alwaysApply: true
---
${RULE_MARK}
# omni: distilled command output

- Run noisy commands (test runners, builds, package installs, linters, anything that prints long logs) with the \`omni_run\` tool of the \`omni\` MCP server instead of the terminal. It returns the output with the noise folded away; failures, warnings, the verdict and every row of a listing are kept.
- A failing command (non-zero exit) comes back from \`omni_run\` verbatim, byte for byte, with its exit code: there is no need to run it again in the terminal to see the real error.
- A line like \`[omni: 298 similar lines folded — omni retrieve 49a3cb58f9799547]\` stands for lines omni removed. Call \`omni_retrieve\` with that handle to get them back exactly.
- \`omni_run\` answers when the command exits: keep dev servers, watch modes and interactive commands in the terminal.
`;

export function cursorHome(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || homedir(), '.cursor');
}

export function mcpPath(scope: 'user' | 'project', cwd: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(cursorHome(env), 'mcp.json') : join(cwd, '.cursor', 'mcp.json');
}

export function rulePath(cwd: string): string {
  return join(cwd, '.cursor', 'rules', 'omni.mdc');
}

/** The server entry: `<node> <abs omni.cjs> mcp`, or `<abs bin> mcp` for an executable. */
export function omniServer(bin: string, nodePath: string = process.execPath): Obj {
  return /\.(c|m)?js$/.test(bin) ? { command: nodePath, args: [bin, 'mcp'] } : { command: bin, args: ['mcp'] };
}

const OMNI_ENTRY = new Set(['omni', 'omni.cjs', 'omni.js', 'omni.mjs', 'omni.ts']);

/** omni's entry file in a server entry that runs `omni mcp` (any path, any version); else null. */
export function omniEntryOf(server: unknown): string | null {
  if (!isObj(server) || typeof server.command !== 'string') return null;
  const words = [server.command, ...(Array.isArray(server.args) ? server.args.map(String) : [])];
  const i = words.findIndex((w, k) => OMNI_ENTRY.has(basename(w)) && words[k + 1] === 'mcp');
  return i < 0 ? null : words[i];
}

function servers(json: Obj, file: string): Obj {
  if (json.mcpServers === undefined) return {};
  if (!isObj(json.mcpServers)) throw new SettingsError(`"mcpServers" in ${file} is not an object; omni will not overwrite it`);
  return json.mcpServers;
}

const isOmniServer = (entry: unknown): boolean => omniEntryOf(entry) !== null;

/** mcp.json + omni's server (pure). Foreign servers and keys stay where they are. */
export function withOmniServer(json: Obj, file: string, bin: string, nodePath?: string): Obj {
  servers(json, file);
  if (mcpSlot(json, SERVER_NAME, isOmniServer) === 'foreign') {
    throw new SettingsError(`${file} already has an MCP server named "${SERVER_NAME}" that does not run omni; rename it, omni will not overwrite it`);
  }
  return withMcpServer(json, SERVER_NAME, omniServer(bin, nodePath));
}

/** mcp.json without omni's server (pure); a server named omni that is not omni's stays. */
export function withoutOmniServer(json: Obj, file: string): Obj {
  servers(json, file);
  return withoutMcpServer(json, SERVER_NAME, isOmniServer);
}

/** Atomic text write with a backup of the previous file, unless the bytes would not change. */
function writeText(file: string, text: string): { changed: boolean; backup: string | null } {
  return writeTextFile(file, readText(file), text);
}

function isOmniRule(text: string): boolean {
  return text.includes(RULE_MARK);
}

/** Writes the rule; the caller has checked that any file already there is omni's. */
function installRule(cwd: string): { changed: boolean; notes: string[] } {
  const file = rulePath(cwd);
  const w = writeText(file, RULE);
  return { changed: w.changed, notes: [w.changed ? `rule written to ${file}` : `rule in ${file} already up to date`] };
}

/**
 * Cursor's program: OMNI_CURSOR_BIN, else `cursor-agent` or `cursor` on PATH (the Linux packages
 * put `cursor` there), else the macOS app. ~/.cursor alone proves nothing: omni init writes
 * ~/.cursor/mcp.json itself.
 */
function findCursorBin(env: NodeJS.ProcessEnv): string | null {
  const app = 'Cursor.app/Contents/MacOS/Cursor';
  const also = process.platform === 'darwin' ? [join('/Applications', app), join(env.HOME || homedir(), 'Applications', app)] : [];
  return findProgram(['cursor-agent', 'cursor'], env, env.OMNI_CURSOR_BIN, also);
}

export const cursorInstaller: HostInstaller = {
  id: 'cursor',
  name: 'Cursor',

  detect(env) {
    return detectedAt(findCursorBin(env), (bin) => cliVersion(bin, env).version);
  },

  install(opts: InstallOptions): InstallResult {
    const file = mcpPath(opts.scope, opts.cwd, opts.env);
    const { text, json } = readSettings(file);
    // Check the rule before writing anything, so a refusal leaves both files as they were.
    if (opts.scope === 'project') {
      const rule = readText(rulePath(opts.cwd));
      if (rule !== null && !isOmniRule(rule)) throw new SettingsError(`${rulePath(opts.cwd)} exists and is not omni's rule; move it aside, omni will not overwrite it`);
    }
    const w = writeSettings(file, text, withOmniServer(json, file, opts.bin, opts.nodePath));
    const notes = [w.changed ? `MCP server "${SERVER_NAME}" registered in ${file}` : `MCP server "${SERVER_NAME}" in ${file} already up to date`];
    if (w.backup) notes.push(`previous ${file} kept as ${w.backup}`);
    const files = [w.file];
    let changed = w.changed;
    if (opts.scope === 'project') {
      const r = installRule(opts.cwd);
      changed ||= r.changed;
      files.push(rulePath(opts.cwd));
      notes.push(...r.notes);
    } else {
      notes.push(
        'Cursor reads no rules file at user scope: tell its agent to use omni_run in a User Rule (Cursor Settings → Rules), or run `omni init --cursor --project` in a project to write .cursor/rules/omni.mdc',
      );
    }
    notes.push(NOTE, OFFERED, 'Cursor picks up a new MCP server after a reload (or enable it under Settings → MCP)');
    return { changed, files, notes };
  },

  uninstall(opts: InstallOptions): InstallResult {
    const file = mcpPath(opts.scope, opts.cwd, opts.env);
    const notes: string[] = [];
    const files: string[] = [];
    let changed = false;
    const { text, json } = readSettings(file);
    if (text !== null && !omniEntryOf(servers(json, file)[SERVER_NAME])) {
      notes.push(`no omni MCP server in ${file}`);
    } else if (text !== null) {
      const w = writeSettings(file, text, withoutOmniServer(json, file));
      changed = w.changed;
      files.push(w.file);
      notes.push(`MCP server "${SERVER_NAME}" removed from ${file}`);
      if (w.backup) notes.push(`previous ${file} kept as ${w.backup}`);
    } else {
      notes.push(`no ${file}; nothing to do`);
    }
    if (opts.scope === 'project') {
      const rule = rulePath(opts.cwd);
      const t = readText(rule);
      if (t !== null && isOmniRule(t)) {
        rmSync(rule);
        changed = true;
        files.push(rule);
        notes.push(`rule ${rule} removed`);
      } else if (t !== null) {
        notes.push(`${rule} is not omni's rule; left in place`);
      }
    }
    return { changed, files, notes };
  },

  status(opts) {
    return hostStatus(cursorInstaller, opts.env, {
      read(s) {
        const { problems, files } = s;
        problems.push(...cliProblems({ name: 'Cursor', command: '`cursor-agent` or `cursor`', bin: s.where ?? null, pkg: 'Cursor (and its `cursor` shell command)', envVar: 'OMNI_CURSOR_BIN' }));
        const user = mcpPath('user', opts.cwd, opts.env);
        const project = mcpPath('project', opts.cwd, opts.env);
        for (const file of [user, project]) {
          if (!existsSync(file)) continue;
          const r = readSettingsOrNull(file);
          if (r.json === null) {
            problems.push({ status: 'fail', what: r.error ?? `${file} cannot be read`, fix: `fix ${file}; Cursor cannot load its MCP servers either` });
            continue;
          }
          const entry = isObj(r.json.mcpServers) ? r.json.mcpServers[SERVER_NAME] : undefined;
          const entryFile = omniEntryOf(entry);
          if (!entryFile) continue;
          s.wired = true;
          files.push(file);
          const command = (entry as Obj).command as string;
          const again = `run omni init --cursor${file === project ? ' --project' : ''} again`;
          for (const p of [command, entryFile]) {
            if (p.startsWith('/') && !existsSync(p)) problems.push({ status: 'fail', what: `${file}: the omni MCP server runs ${p}, which does not exist`, fix: again });
          }
          if (opts.bin && entryFile !== opts.bin && existsSync(opts.bin)) {
            problems.push({ status: 'warn', what: `${file}: the omni MCP server runs ${entryFile}, not this omni (${opts.bin})`, fix: again });
          }
        }
        if (!s.wired) {
          files.push(user);
          problems.push({ status: 'fail', what: `no omni MCP server in ${user} or ${project}`, fix: 'omni init --cursor (every project) or omni init --cursor --project (this one, with its rule)' });
        }
        const rule = rulePath(opts.cwd);
        const text = readText(rule);
        if (text === null) {
          problems.push({ status: 'warn', what: `no ${rule}: Cursor's agent in this project is not told to run noisy commands through omni_run`, fix: 'omni init --cursor --project (or a User Rule in Cursor Settings → Rules)' });
        } else if (isOmniRule(text) && text !== RULE) {
          problems.push({ status: 'warn', what: `${rule} is from another omni version`, fix: 'omni init --cursor --project' });
        } else if (isOmniRule(text)) {
          files.push(rule);
        }
      },
      failed: { what: 'Cursor check failed', fix: 'run omni doctor again; report it if it persists' },
      settle(s) {
        const working = s.wired && !s.problems.some((p) => p.status === 'fail');
        return {
          tier: working ? 'handoff' : 'memory',
          note: working ? `${NOTE}; ${OFFERED}` : 'nothing yet: omni reaches Cursor only through its MCP server (omni init --cursor)',
        };
      },
    });
  },
};
