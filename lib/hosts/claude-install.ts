/**
 * Claude Code's installer half: hooks into settings.json (user or project scope), and doctor's
 * checks: the CLI's version (updatedToolOutput needs >= 2.1.121); omni's hooks registered in
 * user, project and local settings, each pointing at files that exist; no duplicate
 * registrations under different paths (both would run, one rewrite would win at random);
 * `disableAllHooks`; and a probe payload fed through the registered PostToolUse command giving
 * a reply the host accepts (checked with the zod schema).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostInstaller, HostStatus, InstallOptions, Problem } from './adapter.js';
import { installHooks, OMNI_HOOKS, omniHandlersIn, projectSettingsPath, uninstallHooks, userSettingsPath, hookCommand, omniHookSpecs } from './claude-settings.js';
import { cliVersion, compareVersions, findProgram, missingInCommand } from './detect.js';

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

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export interface Registration {
  file: string;
  event: string;
  matcher: string | undefined;
  command: string;
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
  // PreToolUse is optional (`omni init --no-pre-hook`).
  const missing = OMNI_HOOKS.filter((s) => s.event !== 'PreToolUse' && !regs.some((r) => r.event === s.event));
  const post = OMNI_HOOKS.find((s) => s.event === 'PostToolUse');
  if (missing.some((m) => m.event === 'PostToolUse')) {
    checks.push({ name: 'hooks-registered', status: 'fail', detail: `PostToolUse is not registered; run \`omni init\`` });
  } else if (missing.length > 0) {
    checks.push({ name: 'hooks-registered', status: 'warn', detail: `not registered: ${missing.map((m) => m.event).join(', ')}; run \`omni init\`` });
  } else {
    checks.push({ name: 'hooks-registered', status: 'ok', detail: `${regs.length} omni hooks in ${[...new Set(regs.map((r) => r.file))].join(', ')}` });
  }
  const postRegs = regs.filter((r) => r.event === 'PostToolUse');
  for (const r of postRegs) {
    if (post && r.matcher !== undefined && !/Bash/.test(r.matcher) && r.matcher !== '*' && r.matcher !== '') {
      checks.push({ name: 'hooks-registered', status: 'fail', detail: `PostToolUse matcher ${JSON.stringify(r.matcher)} in ${r.file} does not include Bash` });
    }
  }
  const distinct = new Set(postRegs.map((r) => r.command));
  if (distinct.size > 1) {
    checks.push({
      name: 'hooks-duplicate',
      status: 'fail',
      detail: `omni's PostToolUse hook is registered ${distinct.size} times with different commands (${[...distinct].join(' | ')}): both run, and only one rewrite survives. Run \`omni init --uninstall\` in the stale scope`,
    });
  }
  // every registered command must point at files that exist
  const bad: string[] = [];
  for (const r of regs) for (const m of missingInCommand(r.command, env)) bad.push(`${r.event}: ${m} (in ${r.file})`);
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
  const post = regs.find((r) => r.event === 'PostToolUse');
  if (!post) return { name: 'probe', status: 'fail', detail: 'no PostToolUse command to probe' };
  const payload = probePayload(cwd);
  const t0 = Date.now();
  const r = spawnSync('/bin/sh', ['-c', post.command], { input: JSON.stringify(payload), encoding: 'utf8', timeout: 30_000, cwd, env });
  const ms = Date.now() - t0;
  if (r.error) return { name: 'probe', status: 'fail', detail: `running \`${post.command}\` failed: ${r.error.message}` };
  if (r.status !== 0) return { name: 'probe', status: 'fail', detail: `\`${post.command}\` exited ${r.status} (${(r.stderr || '').trim().slice(0, 300)})` };
  const out = (r.stdout || '').trim();
  if (out === '') return { name: 'probe', status: 'fail', detail: `\`${post.command}\` gave no reply for a 400-line noisy probe (see ${env.OMNI_HOME || '~/.omni'}/omni.log)` };
  let reply: unknown;
  try {
    reply = JSON.parse(out);
  } catch {
    return { name: 'probe', status: 'fail', detail: `the hook printed something that is not one JSON object: the host would ignore it (${out.slice(0, 120)})` };
  }
  const { PostToolUseBashReply } = await import('../hosts/claude-schemas.js');
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


/** Every check doctor runs for Claude Code, in order. */
export async function claudeChecks(env: NodeJS.ProcessEnv, cwd: string): Promise<Check[]> {
  const checks: Check[] = [checkClaudeVersion(env)];
  const hooks = checkHooks(env, env.CLAUDE_PROJECT_DIR || cwd);
  checks.push(...hooks.checks);
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

function settingsFile(opts: Pick<InstallOptions, 'scope' | 'cwd' | 'env'>): string {
  return opts.scope === 'project' ? projectSettingsPath(opts.cwd) : userSettingsPath(opts.env);
}

export const claudeInstaller: HostInstaller = {
  id: 'claude',
  name: 'Claude Code',
  detect(env) {
    const bin = findClaudeBin(env);
    return bin ? { detected: true, version: cliVersion(bin, { ...env, DISABLE_AUTOUPDATER: '1' }).version ?? undefined, where: bin } : { detected: false };
  },
  install(opts) {
    const r = installHooks(settingsFile(opts), opts.bin, opts.nodePath, { preHook: opts.preHook });
    const events = omniHookSpecs({ preHook: opts.preHook }).map((h) => h.event).join(', ');
    return {
      changed: r.changed,
      files: [r.file],
      notes: r.changed
        ? [`hooks registered in ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}`, `events: ${events}`, `command: ${hookCommand(opts.bin, '--<event>', opts.nodePath)}`]
        : [`hooks in ${r.file} already up to date`],
    };
  },
  uninstall(opts) {
    const r = uninstallHooks(settingsFile(opts));
    return { changed: r.changed, files: [r.file], notes: [r.changed ? `removed omni's hooks from ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}` : `no omni hooks in ${r.file}; nothing to do`] };
  },
  async status(opts) {
    const d = claudeInstaller.detect(opts.env);
    const checks = await claudeChecks(opts.env, opts.cwd);
    const wired = checks.some((c) => c.name === 'hooks-registered' && c.status !== 'fail');
    const problems: Problem[] = checks
      .filter((c) => c.status !== 'ok')
      .map((c) => ({ status: c.status as 'warn' | 'fail', what: `${c.name}: ${c.detail}`, fix: /omni init/.test(c.detail) ? 'omni init --claude' : 'see the detail' }));
    return {
      id: 'claude',
      name: 'Claude Code',
      detected: d.detected,
      version: d.version,
      wired,
      tier: 'full',
      files: [userSettingsPath(opts.env), projectSettingsPath(opts.cwd)],
      problems,
      note: 'PostToolUse replaces Bash and Read output (updatedToolOutput); PreToolUse rewrites noisy commands into omni exec where permissions allow',
      checks,
    } satisfies HostStatus;
  },
};
