/**
 * omni's hooks in Gemini CLI's settings.json (`~/.gemini/settings.json` or
 * `<project>/.gemini/settings.json`), and what doctor says about them. Gemini's timeouts are
 * milliseconds. File handling (idempotence, foreign entries, atomic write + backup) is
 * ../kit/ (config-file.ts, hook-entries.ts). What the CLI does with each reply: docs/gemini-findings.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HostInstaller, InstallOptions, InstallResult } from '../adapter.js';
import { isObj, readSettingsOrNull, type Obj } from '../kit/config-file.js';
import { cliProblems, commandWords, detectedAt, findProgram } from '../kit/detect.js';
import { hookSpecs, installHookFile, omniHandlersIn, uninstallHookFile, type OmniHookSpec } from '../kit/hook-entries.js';
import { hostStatus } from '../kit/status.js';

/**
 * Timeouts in milliseconds. Tool matchers are regexes tested unanchored (an MCP tool
 * `mcp_<server>_run_shell_command` would match a bare name), hence the anchors. SessionEnd is
 * not awaited by the CLI; PreCompress fires before every turn.
 */
export const GEMINI_HOOKS: readonly OmniHookSpec[] = [
  { event: 'BeforeTool', matcher: '^run_shell_command$', flag: '--pre-hook', timeout: 15_000 },
  { event: 'AfterTool', matcher: '^run_shell_command$', flag: '--post-hook', timeout: 60_000 },
  { event: 'SessionStart', flag: '--session-start', timeout: 15_000 },
  { event: 'SessionEnd', flag: '--session-end', timeout: 5_000 },
  { event: 'PreCompress', flag: '--pre-compact', timeout: 15_000 },
];

/** The version omni's Gemini adapter was measured against. */
export const MEASURED_VERSION = '0.61.0';

export function geminiDir(env: NodeJS.ProcessEnv): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

export function settingsPath(scope: 'user' | 'project', cwd: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(geminiDir(env), 'settings.json') : join(cwd, '.gemini', 'settings.json');
}

function systemSettingsPath(env: NodeJS.ProcessEnv): string {
  return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || join(process.platform === 'darwin' ? '/Library/Application Support/GeminiCli' : '/etc/gemini-cli', 'settings.json');
}

/** The CLI: OMNI_GEMINI_BIN, else `gemini` on PATH. */
export function findGeminiBin(env: NodeJS.ProcessEnv): string | null {
  return findProgram(['gemini'], env, env.OMNI_GEMINI_BIN);
}

/** The version from the npm package the binary belongs to (cheap), else `gemini --version`. */
export function geminiVersion(bin: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    let dir = dirname(realpathSync(bin));
    for (let i = 0; i < 4; i++) {
      const pkg = join(dir, 'package.json');
      if (existsSync(pkg)) {
        const j = JSON.parse(readFileSync(pkg, 'utf8'));
        if (j?.name === '@google/gemini-cli' && typeof j.version === 'string') return j.version;
      }
      dir = dirname(dir);
    }
  } catch {
    /* fall through */
  }
  // The CLI starts slowly (seconds); doctor accepts that once.
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000, env: { ...env, GEMINI_CLI_NO_RELAUNCH: 'true' } });
  const m = /(\d+\.\d+\.\d+\S*)/.exec(r.stdout ?? '');
  return m ? m[1] : undefined;
}

function commandBin(command: string): string | null {
  // `env -u NODE_EXTRA_CA_CERTS '<node>' '<abs omni.cjs>' --flag` or `'<abs bin>' --flag`.
  const words = commandWords(command);
  const flagAt = words.findIndex((w) => w.startsWith('--') && w !== '--');
  const bin = flagAt > 0 ? words[flagAt - 1] : null;
  return bin && bin.startsWith('/') ? bin : null;
}

export const geminiInstaller: HostInstaller = {
  id: 'gemini',
  name: 'Gemini CLI',

  detect(env) {
    // Installed means the CLI is: ~/.gemini alone outlives an uninstalled one.
    return detectedAt(findGeminiBin(env), (bin) => geminiVersion(bin, env));
  },

  install(opts: InstallOptions): InstallResult {
    const file = settingsPath(opts.scope, opts.cwd, opts.env);
    const r = installHookFile(file, hookSpecs(GEMINI_HOOKS, opts.preHook), opts.bin, opts.nodePath);
    const notes = r.notes;
    notes.push(
      opts.preHook
        ? 'rewrite: omni rewrites plain noisy commands into `omni exec --bash` only under --yolo with no policy rule or tools setting; everything else runs as the CLI runs it'
        : 'no command rewrite: every command runs as approved, in the CLI\'s own shell. Gemini CLI 0.61.0 shows a replaced output only as the tool\'s error, so omni replaces it only with OMNI_REPLACE_AS_ERROR=1 (or rewrite commands: `omni init --gemini --rewrite`)',
    );
    if (opts.scope === 'project') notes.push('Gemini CLI reads project settings only in a trusted folder (/permissions, or GEMINI_CLI_TRUST_WORKSPACE=true in CI)');
    return { ...r, files: [file], notes };
  },

  uninstall(opts: InstallOptions): InstallResult {
    const file = settingsPath(opts.scope, opts.cwd, opts.env);
    return uninstallHookFile(file);
  },

  status(opts) {
    let rewrites = false;
    return hostStatus(geminiInstaller, opts.env, {
      read(s) {
        const { problems, files } = s;
        problems.push(...cliProblems({ name: 'Gemini CLI', command: '`gemini`', bin: s.where ?? null, version: s.version, measured: MEASURED_VERSION, pkg: '@google/gemini-cli', envVar: 'OMNI_GEMINI_BIN', test: 'test/real-host/gemini.test.ts' }));
        const user = settingsPath('user', opts.cwd, opts.env);
        const project = settingsPath('project', opts.cwd, opts.env);
        const system = systemSettingsPath(opts.env);
        const read: { file: string; json: Obj | null }[] = [];
        for (const file of [user, project, system]) {
          if (!existsSync(file)) continue;
          const r = readSettingsOrNull(file);
          if (r.json === null) problems.push({ status: 'fail', what: r.error ?? `${file} cannot be read`, fix: `fix ${file}; the CLI cannot use it either` });
          read.push({ file, json: r.json });
        }
        const wanted = new Set(GEMINI_HOOKS.map((h) => h.event));
        for (const { file, json } of read) {
          const mine = omniHandlersIn(json);
          if (mine.length === 0) continue;
          s.wired = true;
          files.push(file);
          const events = new Set(mine.map((h) => h.event));
          if (events.has('BeforeTool')) rewrites = true;
          if (!events.has('AfterTool')) problems.push({ status: 'warn', what: `${file} has omni hooks but no AfterTool hook`, fix: 'run omni init again' });
          for (const h of mine) {
            if (!wanted.has(h.event)) problems.push({ status: 'warn', what: `${file}: omni hook on an event omni no longer uses (${h.event})`, fix: 'run omni init again' });
            const bin = commandBin(h.command);
            if (bin && !existsSync(bin)) problems.push({ status: 'fail', what: `${file}: the ${h.event} hook runs ${bin}, which does not exist`, fix: 'run omni init again' });
            if (opts.bin && bin && bin !== opts.bin && existsSync(opts.bin)) problems.push({ status: 'warn', what: `${file}: the ${h.event} hook runs ${bin}, not this omni (${opts.bin})`, fix: 'run omni init again' });
          }
          if (file === project) problems.push({ status: 'warn', what: `omni's hooks are in the project settings (${file})`, fix: 'they run only where the folder is trusted; use user scope (omni init) to cover every project' });
        }
        for (const { file, json } of read) {
          const hc = json && isObj(json.hooksConfig) ? json.hooksConfig : null;
          if (hc && hc.enabled === false) problems.push({ status: 'fail', what: `hooks are disabled (hooksConfig.enabled: false in ${file})`, fix: `set hooksConfig.enabled to true in ${file}` });
          const disabled = hc && Array.isArray(hc.disabled) ? hc.disabled.filter((x): x is string => typeof x === 'string') : [];
          const off = disabled.filter((x) => /omni/.test(x));
          if (off.length > 0) problems.push({ status: 'fail', what: `omni's hooks are listed in hooksConfig.disabled in ${file}`, fix: `remove them from hooksConfig.disabled in ${file}` });
        }
        if (!s.wired) files.push(user);
      },
      failed: { what: 'Gemini CLI check failed', fix: 'run omni doctor again; report it if it persists' },
      settle(s) {
        const enabled = s.wired && !s.problems.some((p) => p.status === 'fail');
        const asError = opts.env.OMNI_REPLACE_AS_ERROR === '1';
        const post = asError
          ? "successful output is distilled in AfterTool, shown to the model as the tool's error text (OMNI_REPLACE_AS_ERROR=1)"
          : "successful output is left alone: the CLI would show omni's text as an error (opt in with OMNI_REPLACE_AS_ERROR=1)";
        return {
          tier: enabled && (rewrites || asError) ? 'full' : 'memory',
          note: !enabled
            ? 'session memory and omni_retrieve only, until the hooks are registered and enabled'
            : rewrites
              ? `plain noisy commands are rewritten into omni exec (distilled, failures verbatim) under --yolo with no policy rules (omni init --rewrite); other ${post}`
              : `commands run as approved, in the CLI's shell (no rewrite: omni init --gemini --rewrite opts in); ${post}; session memory at start`,
        };
      },
    });
  },
};
