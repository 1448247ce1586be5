/**
 * omni's hooks in the Codex CLI's hooks.json (`$CODEX_HOME/hooks.json`, default
 * `~/.codex/hooks.json`, or `<project>/.codex/hooks.json`), and what doctor says about them.
 * Codex's timeouts are seconds. File handling (idempotence, foreign entries, atomic write +
 * backup) is ../kit/ (config-file.ts, hook-entries.ts). What the CLI does with each reply: docs/codex-findings.md.
 *
 * Trust: Codex runs a non-managed hook only when `[hooks.state."<key>"] trusted_hash` in the
 * USER config.toml equals the hook's current hash (codex-cli 0.171.0). The key is
 * `<hooks.json path>:<event_key>:<group index>:<handler index>`; the hash is sha256 over the
 * key-sorted JSON of `{event_name, matcher?, hooks: [{type, command, timeout, async}]}`
 * (checked against the `currentHash` the CLI's own `hooks/list` reports). omni never writes
 * trust itself: reviewing a hook is the user's step (`/hooks` in the TUI). Doctor reads it.
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readText } from '../read-text.js';
import type { HostInstaller, InstallOptions, InstallResult } from '../adapter.js';
import { cliVersion, detectedAt, missingInCommand, findProgram, cliProblems } from '../kit/detect.js';
import { isObj, readSettings, readSettingsOrNull, type Obj } from '../kit/config-file.js';
import { hookSpecs, installHookFile, isOmniHandler, uninstallHookFile, type OmniHookSpec } from '../kit/hook-entries.js';
import { hostStatus, type StatusDraft } from '../kit/status.js';

/**
 * Timeouts in seconds. Codex clamps SessionEnd to 3 s (and warns at every start when the file
 * asks for more). PostToolUseFailure is not registered: 0.171.0 never fires it; failures come
 * to PostToolUse.
 */
export const CODEX_HOOKS: readonly OmniHookSpec[] = [
  { event: 'PreToolUse', matcher: 'Bash', flag: '--pre-hook', timeout: 15 },
  { event: 'PostToolUse', matcher: 'Bash', flag: '--post-hook', timeout: 60 },
  { event: 'SessionStart', flag: '--session-start', timeout: 15 },
  { event: 'SessionEnd', flag: '--session-end', timeout: 3 },
  { event: 'PreCompact', flag: '--pre-compact', timeout: 15 },
];

/** The version omni's Codex adapter was measured against. */
export const MEASURED_VERSION = '0.171.0';

export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

export function hooksPath(scope: 'user' | 'project', cwd: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(codexHome(env), 'hooks.json') : join(cwd, '.codex', 'hooks.json');
}

/** Trust state lives in the user config.toml only (project layers cannot mark hooks trusted). */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
  return join(codexHome(env), 'config.toml');
}

/** The CLI: OMNI_CODEX_BIN, else `codex` on PATH. */
export function findCodexBin(env: NodeJS.ProcessEnv): string | null {
  return findProgram(['codex'], env, env.OMNI_CODEX_BIN);
}

// ---------------------------------------------------------------------------------------------
// Trust: keys and hashes as codex-cli 0.171.0 computes them.

/** `PreToolUse` → `pre_tool_use` (the event key in trust keys and hashes). */
export function eventKey(event: string): string {
  return event.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '_') + c.toLowerCase());
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  }
  return v;
}

/** The hash Codex compares with `trusted_hash` for one command handler. Codex's default timeout is 600 s. */
export function trustHash(event: string, matcher: string | undefined, handler: { command: string; timeout?: number; async?: boolean; statusMessage?: string }): string {
  const h: Record<string, unknown> = { type: 'command', command: handler.command, timeout: handler.timeout ?? 600, async: handler.async ?? false };
  if (handler.statusMessage !== undefined) h.statusMessage = handler.statusMessage;
  const identity: Record<string, unknown> = { event_name: eventKey(event), hooks: [h] };
  if (matcher !== undefined) identity.matcher = matcher;
  return 'sha256:' + createHash('sha256').update(JSON.stringify(canonical(identity))).digest('hex');
}

export interface OmniCodexHook {
  event: string;
  matcher: string | undefined;
  command: string;
  /** Codex's trust key for this handler: `<file><suffix>`. */
  key: string;
  file: string;
  /** `:<event_key>:<group index>:<handler index>`. */
  suffix: string;
  hash: string;
}

/** omni's handlers in a hooks.json object, with their trust keys and current hashes. */
export function omniHooksWithKeys(file: string, json: Obj): OmniCodexHook[] {
  const out: OmniCodexHook[] = [];
  if (!isObj(json.hooks)) return out;
  for (const [event, groups] of Object.entries(json.hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((g, gi) => {
      if (!isObj(g) || !Array.isArray(g.hooks)) return;
      g.hooks.forEach((h, hi) => {
        if (!isOmniHandler(h) || !isObj(h) || typeof h.command !== 'string') return;
        const matcher = typeof g.matcher === 'string' ? g.matcher : undefined;
        const timeout = typeof h.timeout === 'number' ? h.timeout : undefined;
        out.push({
          event,
          matcher,
          command: h.command,
          key: `${file}:${eventKey(event)}:${gi}:${hi}`,
          file,
          suffix: `:${eventKey(event)}:${gi}:${hi}`,
          // Codex clamps SessionEnd to 3 s before hashing.
          hash: trustHash(event, matcher, { command: h.command, timeout: event === 'SessionEnd' ? Math.min(timeout ?? 600, 3) : timeout }),
        });
      });
    });
  }
  return out;
}

export interface HookState {
  trustedHash?: string;
  enabled?: boolean;
}

/**
 * `[hooks.state."<key>"]` tables of a config.toml, the way Codex's own writer lays them out
 * (a quoted key, `trusted_hash = "…"`, optional `enabled = false`). Not a TOML parser: enough
 * for doctor, which only reports.
 */
export function readHookStates(toml: string): Map<string, HookState> {
  const states = new Map<string, HookState>();
  let current: HookState | null = null;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const m = /^\[\s*hooks\s*\.\s*state\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\]$/.exec(line);
      if (m) {
        const key = m[1] !== undefined ? JSON.parse(`"${m[1]}"`) : m[2];
        current = states.get(key) ?? {};
        states.set(key, current);
      } else current = null;
      continue;
    }
    if (!current) continue;
    const kv = /^(trusted_hash|enabled)\s*=\s*(.+?)\s*(?:#.*)?$/.exec(line);
    if (!kv) continue;
    if (kv[1] === 'trusted_hash') {
      const v = /^"([^"]*)"$|^'([^']*)'$/.exec(kv[2]);
      if (v) current.trustedHash = v[1] ?? v[2];
    } else current.enabled = kv[2] !== 'false';
  }
  return states;
}

export type TrustStatus = 'trusted' | 'untrusted' | 'modified' | 'disabled';

export function trustOf(hook: OmniCodexHook, states: Map<string, HookState>): TrustStatus {
  const s = states.get(hook.key);
  if (s?.enabled === false) return 'disabled';
  if (!s?.trustedHash) return 'untrusted';
  return s.trustedHash === hook.hash ? 'trusted' : 'modified';
}

/** `[features] hooks = false` (or `features.hooks = false`) switches every hook off. */
export function hooksDisabled(toml: string): boolean {
  if (/^\s*features\s*\.\s*hooks\s*=\s*false\b/m.test(toml)) return true;
  let inFeatures = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) inFeatures = /^\[\s*features\s*\]$/.test(line);
    else if (inFeatures && /^hooks\s*=\s*false\b/.test(line)) return true;
  }
  return false;
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

const TRUST_NOTE =
  "Codex runs a new or changed hook only after you trust it: start `codex`, open /hooks and trust omni's hooks. " +
  'Moving or upgrading omni changes the hook commands, which need trusting again. Unattended runs: `codex exec --dangerously-bypass-hook-trust`.';

export const codexInstaller: HostInstaller = {
  id: 'codex',
  name: 'Codex CLI',

  detect(env) {
    // Installed means the CLI is: ~/.codex alone outlives an uninstalled one.
    return detectedAt(findCodexBin(env), (bin) => cliVersion(bin, env).version);
  },

  install(opts: InstallOptions): InstallResult {
    const file = hooksPath(opts.scope, opts.cwd, opts.env);
    const r = installHookFile(file, hookSpecs(CODEX_HOOKS, opts.preHook), opts.bin, opts.nodePath);
    const notes = r.notes;
    if (opts.scope === 'project') notes.push('Codex reads <project>/.codex/ only in a project you marked trusted');
    const json = readSettings(file).json;
    const states = readHookStates(readText(userConfigPath(opts.env)) ?? '');
    const untrusted = omniHooksWithKeys(file, json).filter((h) => trustOf(h, states) !== 'trusted');
    if (untrusted.length > 0) notes.push(`${untrusted.length} of omni's Codex hooks are not trusted yet. ${TRUST_NOTE}`);
    notes.push(
      opts.preHook
        ? 'rewrite: omni rewrites plain noisy commands into `omni exec --bash` only when Codex runs them without approvals or sandbox (--dangerously-bypass-approvals-and-sandbox) and no rule could prompt or forbid; everything else is distilled after it ran'
        : 'no command rewrite: every command runs as approved, in Codex\'s own shell; omni replaces a successful output afterwards (`omni init --codex --rewrite` opts in)',
    );
    return { ...r, files: [file], notes };
  },

  uninstall(opts: InstallOptions): InstallResult {
    const file = hooksPath(opts.scope, opts.cwd, opts.env);
    return uninstallHookFile(file);
  },

  status(opts) {
    let allTrusted = false;
    return hostStatus(codexInstaller, opts.env, {
      read(s) {
        const { problems } = s;
        problems.push(...cliProblems({ name: 'Codex CLI', command: '`codex`', bin: s.where ?? null, version: s.version, measured: MEASURED_VERSION, pkg: '@openai/codex', envVar: 'OMNI_CODEX_BIN', test: 'test/real-host/codex.test.ts' }));
        const configText = readText(userConfigPath(opts.env));
        const states = readHookStates(configText ?? '');
        if (configText !== null && hooksDisabled(configText)) {
          problems.push({ status: 'fail', what: `hooks are switched off in ${userConfigPath(opts.env)} ([features] hooks = false)`, fix: 'remove that setting; no hook runs while it is there' });
        }
        const found = foundHooks(opts.cwd, opts.env, s);
        s.wired = found.some((h) => h.event === 'PostToolUse');
        for (const h of found) {
          for (const miss of missingInCommand(h.command, opts.env)) {
            problems.push({ status: 'fail', what: `the ${h.event} hook runs ${miss}, which is not there: Codex gets exit 127 and skips it`, fix: 'run `omni init --codex` again' });
          }
          if (opts.bin && !h.command.includes(opts.bin)) {
            problems.push({ status: 'warn', what: `the ${h.event} hook calls another omni (${h.command})`, fix: 'run `omni init --codex` again (and trust the changed hooks)' });
          }
        }
        const notTrusted = found.map((h) => ({ h, t: trustAt(h, states) })).filter((x) => x.t !== 'trusted');
        allTrusted = found.length > 0 && notTrusted.length === 0;
        if (notTrusted.length > 0) {
          const list = notTrusted.map((x) => `${x.h.event} (${x.t})`).join(', ');
          problems.push({ status: 'fail', what: `Codex skips omni's hooks it does not trust: ${list}`, fix: TRUST_NOTE });
        }
        if (!s.wired && found.length === 0) {
          problems.push({ status: 'warn', what: 'omni is not wired into Codex', fix: 'run `omni init --codex`' });
        }
      },
      failed: { what: 'could not read the Codex setup', fix: 'run `omni doctor` again; report it if it persists' },
      settle: (s) => ({
        tier: 'full',
        note: s.wired && allTrusted
          ? "Codex replaces a successful command's output with omni's distilled text (a PostToolUse block reason); failures reach the model untouched"
          : "once wired and trusted, Codex replaces a successful command's output with omni's distilled text; failures reach the model untouched",
      }),
    });
  },
};

/** omni's handlers in the user's and the project's hooks.json; a file that cannot be read is a problem. */
function foundHooks(cwd: string, env: NodeJS.ProcessEnv, s: StatusDraft): (OmniCodexHook & { real?: string })[] {
  const found: (OmniCodexHook & { real?: string })[] = [];
  for (const file of [hooksPath('user', cwd, env), hooksPath('project', cwd, env)]) {
    if (!existsSync(file)) continue;
    const r = readSettingsOrNull(file);
    if (r.json === null) {
      s.problems.push({ status: 'fail', what: r.error ?? `${file} cannot be read`, fix: `fix ${file}; Codex cannot use it either` });
      continue;
    }
    const mine = omniHooksWithKeys(file, r.json);
    if (mine.length === 0) continue;
    s.files.push(file);
    // A symlinked CODEX_HOME or project: the key may carry the resolved path instead.
    const real = realpathOr(file);
    found.push(...mine.map((h) => (real !== file ? { ...h, real } : h)));
  }
  return found;
}

/** A hook's trust, under its own key or, when that says nothing, under its resolved path's. */
function trustAt(h: OmniCodexHook & { real?: string }, states: Map<string, HookState>): TrustStatus {
  const t = trustOf(h, states);
  if (t === 'trusted' || !h.real) return t;
  const alt = trustOf({ ...h, key: h.real + h.suffix }, states);
  return alt === 'untrusted' ? t : alt;
}
