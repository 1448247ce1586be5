/**
 * Runs the REAL Codex CLI (`codex exec`, headless) against the loopback Responses stand-in
 * (./codex-standin.ts), in a fresh temporary HOME and CODEX_HOME, with omni's hooks installed
 * by the real `omni init --codex`, an observer hook, or no hooks (the baseline).
 *
 * Clean environment (`env -i` equivalent), bounded by a timeout. Only what this harness started
 * is ever killed: the CLI's own process group, by the PID we spawned.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventKey, hooksPath, omniHooksWithKeys, trustHash, userConfigPath } from '../../lib/hosts/codex/install.js';
import { readSettings } from '../../lib/hosts/kit/config-file.js';
import { hostBin } from '../../scripts/host-clis.mjs';
import { hostEnv, readOmniLog, runBounded } from './bounded-run.js';
import { outputFor, startCodexStandin, type CodexRequest, type CodexStep } from './codex-standin.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pinned CLI (test/host-clis/package.json: "@openai/codex": "0.171.0"), installed on first use; OMNI_TEST_CODEX overrides. */
export function codexBin(): string {
  return process.env.OMNI_TEST_CODEX || hostBin('codex');
}

export function omniBin(): string {
  return resolve(process.env.OMNI_TEST_BIN || join(REPO, 'dist', 'omni.cjs'));
}

/** Approval/sandbox modes `codex exec` can run headless. */
export type CodexMode = 'bypass' | 'read-only' | 'workspace-write' | 'approve-for-me';

const MODE_ARGS: Record<CodexMode, string[]> = {
  bypass: ['--dangerously-bypass-approvals-and-sandbox'],
  'read-only': ['-s', 'read-only'],
  'workspace-write': ['-s', 'workspace-write'],
  'approve-for-me': ['--approve-for-me'],
};

export interface ObserverHooks {
  /** Command registered for every event below (it gets the payload on stdin). */
  command: string;
  events: { event: string; matcher?: string }[];
}

export interface CodexRunOptions {
  script: CodexStep[];
  /** omni (installed by `omni init --codex`), an observer, or nothing. */
  hooks: 'omni' | 'none' | ObserverHooks;
  /** `config`: trust written into config.toml as /hooks would; `bypass`: --dangerously-bypass-hook-trust; `none`. */
  trust?: 'config' | 'bypass' | 'none';
  mode?: CodexMode;
  /** `omni init --codex --rewrite`: the pre-tool rewrite too (default: post-only, as `omni init` installs). */
  rewrite?: boolean;
  files?: Record<string, string>;
  /** Files to create in CODEX_HOME (e.g. `rules/default.rules`). */
  codexFiles?: Record<string, string>;
  env?: Record<string, string>;
  ephemeral?: boolean;
  timeoutMs?: number;
  tag?: string;
  keep?: boolean;
  /** A later session on the same machine: the earlier run's HOME, CODEX_HOME, project and omni store. */
  after?: CodexRunResult;
}

export interface CodexRunResult {
  dir: string;
  proj: string;
  home: string;
  codexHome: string;
  exitCode: number | null;
  timedOut: boolean;
  stderr: string;
  events: any[];
  requests: CodexRequest[];
  /** Per step: the function_call_output the model was sent (null: none). */
  outputs: (string | null)[];
  callIds: string[];
  installNotes: string[];
  rollout: string | null;
  omniLog: string;
  cleanup(): void;
}

function parseJsonl(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return { unparsed: l };
      }
    });
}

/** The latest session's rollout file (names sort by start time). */
function newestRollout(codexHome: string): string | null {
  const found: string[] = [];
  const walk = (d: string) => {
    let entries: string[] = [];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.startsWith('rollout-') && e.endsWith('.jsonl')) found.push(join(d, e));
      else walk(join(d, e));
    }
  };
  walk(join(codexHome, 'sessions'));
  return found.sort((a, b) => (a.split('/').pop()! < b.split('/').pop()! ? -1 : 1)).at(-1) ?? null;
}

/** Mark every hook in `file` trusted in the user config.toml, the way Codex's /hooks does. */
export function trustAll(file: string, env: NodeJS.ProcessEnv): number {
  const json = readSettings(file).json as any;
  let lines = '';
  let n = 0;
  for (const [event, groups] of Object.entries<any>(json.hooks ?? {})) {
    (groups as any[]).forEach((g, gi) => {
      (g.hooks as any[]).forEach((h, hi) => {
        const timeout = event === 'SessionEnd' ? Math.min(h.timeout ?? 600, 3) : h.timeout;
        lines += `\n[hooks.state."${file}:${eventKey(event)}:${gi}:${hi}"]\ntrusted_hash = "${trustHash(event, g.matcher, { command: h.command, timeout })}"\n`;
        n++;
      });
    });
  }
  appendFileSync(userConfigPath(env), lines);
  return n;
}

export async function runCodex(opts: CodexRunOptions): Promise<CodexRunResult> {
  const dir = opts.after ? opts.after.dir : mkdtempSync(join(tmpdir(), 'omni-codex-'));
  const home = join(dir, 'home');
  const codexHome = join(dir, 'codex-home');
  const proj = join(dir, 'proj');
  const omniHome = join(dir, 'omni-home');
  for (const d of [home, codexHome, proj]) mkdirSync(d, { recursive: true });
  for (const [name, content] of Object.entries(opts.files ?? {})) {
    const p = join(proj, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  for (const [name, content] of Object.entries(opts.codexFiles ?? {})) {
    const p = join(codexHome, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  const standin = await startCodexStandin(opts.script, { tag: opts.tag });
  const baseEnv: Record<string, string> = { ...hostEnv({ home, omniHome }), CODEX_HOME: codexHome, STANDIN_API_KEY: 'sk-standin-dummy' };
  // A custom provider: the stand-in speaks the Responses API on loopback; no retries, so a
  // broken stand-in fails fast instead of backing off.
  const configText = [
      'model = "gpt-5.1-codex"',
      'model_provider = "standin"',
      '',
      '[model_providers.standin]',
      'name = "standin"',
      `base_url = "${standin.baseUrl}"`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n');
  if (opts.after) {
    // Same config (trust entries included); only the stand-in's port is new.
    const old = readFileSync(userConfigPath(baseEnv), 'utf8');
    writeFileSync(userConfigPath(baseEnv), old.replace(/^base_url = ".*"$/m, `base_url = "${standin.baseUrl}"`));
  } else writeFileSync(userConfigPath(baseEnv), configText);

  const installNotes: string[] = [];
  const hooksFile = hooksPath('user', proj, baseEnv);
  if (opts.after) {
    /* installed and trusted by the earlier run */
  } else if (opts.hooks === 'omni') {
    // Install omni exactly as a user would: the real `omni init --codex`, against this HOME.
    const r = spawnSync(process.execPath, [omniBin(), 'init', '--codex', ...(opts.rewrite ? ['--rewrite'] : [])], { cwd: proj, env: baseEnv, encoding: 'utf8', timeout: 30_000 });
    installNotes.push(`${r.stdout}${r.stderr}`);
    if (r.status !== 0) throw new Error(`omni init --codex failed (${r.status}): ${r.stdout}${r.stderr}`);
    if (omniHooksWithKeys(hooksFile, readSettings(hooksFile).json).length === 0) throw new Error('omni init --codex wrote no omni hooks');
  } else if (opts.hooks !== 'none') {
    const hooks: Record<string, unknown[]> = {};
    for (const e of opts.hooks.events) {
      (hooks[e.event] ??= []).push({ ...(e.matcher ? { matcher: e.matcher } : {}), hooks: [{ type: 'command', command: opts.hooks.command, timeout: e.event === 'SessionEnd' ? 3 : 30 }] });
    }
    writeFileSync(hooksFile, JSON.stringify({ hooks }, null, 2));
  }
  const trust = opts.trust ?? 'config';
  if (opts.hooks !== 'none' && trust === 'config' && !opts.after) trustAll(hooksFile, baseEnv);

  const env = { ...baseEnv, ...(opts.env ?? {}) };
  const args = ['exec', '--skip-git-repo-check', '--json', ...MODE_ARGS[opts.mode ?? 'bypass']];
  if (opts.hooks !== 'none' && trust === 'bypass') args.push('--dangerously-bypass-hook-trust');
  if (opts.ephemeral) args.push('--ephemeral');
  args.push('Run the scripted steps.');
  const { exitCode, timedOut, stdout, stderr } = await runBounded(codexBin(), args, { cwd: proj, env, timeoutMs: opts.timeoutMs ?? 90_000 });
  await standin.close();

  const callIds = opts.script.map((_, i) => standin.callId(i));
  const outputs = opts.script.map((s, i) => ('text' in s ? null : outputFor(standin.requests, standin.callId(i))?.text ?? null));
  writeFileSync(join(dir, 'requests.jsonl'), standin.requests.map((r) => JSON.stringify(r)).join('\n'));
  const omniLog = readOmniLog(omniHome);
  return {
    dir,
    proj,
    home,
    codexHome,
    exitCode,
    timedOut,
    stderr,
    events: parseJsonl(stdout),
    requests: standin.requests,
    outputs,
    callIds,
    installNotes,
    rollout: newestRollout(codexHome),
    omniLog,
    cleanup: () => {
      if (!opts.keep && !process.env.OMNI_TEST_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Codex's framing around an exec_command result: `Chunk ID`, `Wall time`, `Process exited with code N`, `Original token count`, `Output:`. */
export function splitFrame(text: string): { exit: number | null; body: string; framed: boolean } {
  const m = /^(?:Chunk ID: \S+\n)?(?:Wall time: [^\n]*\n)?Process exited with code (-?\d+)\n(?:Original token count: \d+\n)?Output:\n/.exec(text);
  if (!m) return { exit: null, body: text, framed: false };
  return { exit: Number(m[1]), body: text.slice(m[0].length), framed: true };
}

