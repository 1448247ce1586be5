/**
 * `omni doctor [--json] [--project]`: is omni wired into Claude Code, and does it answer?
 *
 * Checks: Claude Code version (updatedToolOutput needs >= 2.1.121); omni's hooks registered
 * (user, project and local settings), each pointing at files that exist; no duplicate
 * registrations under different paths (both would run, one rewrite would win at random);
 * `disableAllHooks`; the store opens; and a probe payload fed through the registered
 * PostToolUse command gives a reply the host accepts (checked with the zod schema).
 * Exit 0 when all required checks pass, 1 otherwise.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { OMNI_HOOKS, omniHandlersIn, projectSettingsPath, userSettingsPath } from '../hosts/claude-settings.js';

interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

export const MIN_CLAUDE_VERSION = '2.1.121';

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

function which(cmd: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

function checkClaudeVersion(env: NodeJS.ProcessEnv): Check {
  const bin = env.OMNI_CLAUDE_BIN || which('claude', env);
  if (!bin) return { name: 'claude-version', status: 'fail', detail: 'Claude Code (`claude`) not found on PATH; install it or set OMNI_CLAUDE_BIN' };
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000, env: { ...env, DISABLE_AUTOUPDATER: '1' } });
  const m = /(\d+\.\d+\.\d+)/.exec(`${r.stdout ?? ''}`);
  if (!m) return { name: 'claude-version', status: 'fail', detail: `\`${bin} --version\` gave no version (${(r.error?.message ?? r.stderr ?? '').trim().slice(0, 200)})` };
  const v = m[1];
  if (compareVersions(v, MIN_CLAUDE_VERSION) < 0) {
    return { name: 'claude-version', status: 'fail', detail: `Claude Code ${v} ignores updatedToolOutput; ${MIN_CLAUDE_VERSION} or later is needed (\`claude update\`)` };
  }
  return { name: 'claude-version', status: 'ok', detail: `Claude Code ${v} (${bin})` };
}

/** Split a hook command line into words (the forms omni writes: quoted or bare words). */
export function commandWords(cmd: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(cmd)) && m[0].trim() !== '') out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? m[3] ?? ''));
  return out;
}

interface Registration {
  file: string;
  event: string;
  matcher: string | undefined;
  command: string;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
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
  for (const r of regs) {
    const words = commandWords(r.command);
    const files = words.filter((w) => w.startsWith('/'));
    for (const f of files) if (!existsSync(f)) bad.push(`${r.event}: ${f} (in ${r.file})`);
    if (words[0] && !words[0].startsWith('/') && !which(words[0], env)) bad.push(`${r.event}: ${words[0]} not on PATH (in ${r.file})`);
  }
  if (bad.length) {
    checks.push({ name: 'hooks-executable', status: 'fail', detail: `hook commands point at missing files (the host runs them, gets exit 127 and silently skips omni): ${[...new Set(bad)].join('; ')}. Run \`omni init\` again` });
  } else {
    checks.push({ name: 'hooks-executable', status: 'ok', detail: 'every hook command points at existing files' });
  }
  return { checks, regs };
}

async function checkStore(env: NodeJS.ProcessEnv): Promise<Check> {
  try {
    const { openStore, omniHome } = await import('../store/open.js');
    const s = openStore() as unknown as { close?: () => void; db?: { close?: () => void } };
    try {
      if (typeof s.close === 'function') s.close();
      else s.db?.close?.();
    } catch {
      /* closing is best effort */
    }
    return { name: 'store', status: 'ok', detail: `store opens (${join(omniHome(env), 'omni.db')})` };
  } catch (err) {
    const reason = (err as { reason?: string }).reason;
    return { name: 'store', status: 'fail', detail: `store does not open${reason ? ` (${reason})` : ''}: ${(err as Error).message}. Hooks still distil, without the ledger` };
  }
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

export async function run(argv: string[], io: IO): Promise<number> {
  const json = argv.includes('--json');
  for (const a of argv) {
    if (a !== '--json') {
      io.stderr.write(`omni doctor: unknown option ${a}\n`);
      return 2;
    }
  }
  const env = process.env;
  const cwd = process.cwd();
  const checks: Check[] = [];
  checks.push(checkClaudeVersion(env));
  const hooks = checkHooks(env, env.CLAUDE_PROJECT_DIR || cwd);
  checks.push(...hooks.checks);
  checks.push(await checkStore(env));
  if (hooks.regs.some((r) => r.event === 'PostToolUse')) checks.push(await checkProbe(hooks.regs, env, cwd));
  const ok = checks.every((c) => c.status !== 'fail');
  if (json) {
    io.stdout.write(JSON.stringify({ ok, checks }, null, 2) + '\n');
  } else {
    for (const c of checks) io.stdout.write(`${c.status === 'ok' ? 'ok  ' : c.status === 'warn' ? 'warn' : 'FAIL'}  ${c.name}: ${c.detail}\n`);
    io.stdout.write(ok ? 'omni doctor: all good\n' : 'omni doctor: problems found (see FAIL lines)\n');
  }
  return ok ? 0 : 1;
}
