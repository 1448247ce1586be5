/**
 * Runs the REAL Gemini CLI headless against the loopback stand-in (gemini-standin.ts), in a
 * fresh temporary HOME, with omni installed by the real `omni init --gemini`, or without omni
 * for the baseline. Set-up measured in docs/gemini-findings.md §1.
 *
 * Clean environment, bounded by a timeout. Only what this harness started is ever killed: the
 * CLI's own process group, by the PID we spawned.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostBin } from '../../scripts/host-clis.mjs';
import { hostEnv, readOmniLog, runBounded } from './bounded-run.js';
import { functionResults, startGeminiStandin, type FunctionResult, type GeminiRequest, type GeminiStep } from './gemini-standin.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pinned CLI (test/host-clis/package.json: "@google/gemini-cli": "0.61.0"), installed on first use; OMNI_TEST_GEMINI overrides. */
export function geminiBin(): string {
  return process.env.OMNI_TEST_GEMINI || hostBin('gemini');
}

export function omniBin(): string {
  return resolve(process.env.OMNI_TEST_BIN || join(REPO, 'dist', 'omni.cjs'));
}

/** Settings every run needs: API-key auth (for the stand-in) and no side traffic. */
const BASE_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ide: { enabled: false },
};

export interface GeminiRunOptions {
  script: GeminiStep[];
  withOmni: boolean;
  /** `omni init --gemini --rewrite`: the BeforeTool rewrite too (default: post-only, as `omni init` installs). */
  rewrite?: boolean;
  /** `--yolo` (default) or the CLI's default approval mode. */
  yolo?: boolean;
  files?: Record<string, string>;
  /** A user policy file (`~/.gemini/policies/test.toml`). */
  userPolicy?: string;
  /** A later session in the directory of an earlier run (its HOME, project and omni store). */
  after?: GeminiRunResult;
  /** omni subcommands run in the project before the CLI starts (e.g. `remember "<fact>"`). */
  prep?: string[][];
  timeoutMs?: number;
  keep?: boolean;
  /** Extra environment for the CLI (and so for its hooks). */
  env?: Record<string, string>;
}

export interface GeminiRunResult {
  dir: string;
  home: string;
  proj: string;
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  initOutput: string;
  requests: GeminiRequest[];
  /** Per tool step, in order: what the model got back. */
  results: FunctionResult[];
  omniLog: string;
  cleanup(): void;
}

export async function runGemini(opts: GeminiRunOptions): Promise<GeminiRunResult> {
  const dir = opts.after ? opts.after.dir : mkdtempSync(join(tmpdir(), 'omni-gemini-host-'));
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  const proj = join(dir, 'proj');
  for (const d of [home, tmp, proj, join(home, '.gemini')]) mkdirSync(d, { recursive: true });
  for (const [name, content] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(proj, name)), { recursive: true });
    writeFileSync(join(proj, name), content);
  }
  const omniHome = join(dir, 'omni-home');
  const baseEnv = hostEnv({ home, tmp, omniHome });
  let initOutput = '';
  if (!opts.after) {
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(BASE_SETTINGS, null, 2) + '\n');
    if (opts.userPolicy) {
      mkdirSync(join(home, '.gemini', 'policies'), { recursive: true });
      writeFileSync(join(home, '.gemini', 'policies', 'test.toml'), opts.userPolicy);
    }
    if (opts.withOmni) {
      // As a user would: the real `omni init`, against this HOME.
      const r = spawnSync(process.execPath, [omniBin(), 'init', '--gemini', ...(opts.rewrite ? ['--rewrite'] : [])], { cwd: proj, env: baseEnv, encoding: 'utf8', timeout: 60_000 });
      initOutput = `${r.stdout}${r.stderr}`;
      if (r.status !== 0) throw new Error(`omni init --gemini failed (${r.status}): ${initOutput}`);
    }
  }

  for (const args of opts.prep ?? []) {
    const r = spawnSync(process.execPath, [omniBin(), ...args], { cwd: proj, env: baseEnv, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`omni ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
  }
  const standin = await startGeminiStandin(opts.script);
  const env: Record<string, string> = {
    ...baseEnv,
    GEMINI_API_KEY: 'stand-in-dummy-key',
    GOOGLE_GEMINI_BASE_URL: standin.url,
    // Hooks (and project settings) run only in a trusted folder.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    ...opts.env,
  };
  const args = ['-p', 'Run the scripted steps.', '-o', 'json', ...(opts.yolo === false ? [] : ['--yolo'])];
  const { exitCode, timedOut, stdout, stderr } = await runBounded(geminiBin(), args, { cwd: proj, env, timeoutMs: opts.timeoutMs ?? 120_000 });
  await standin.close();
  writeFileSync(join(dir, `requests-${Date.now()}.jsonl`), standin.requests.map((r) => JSON.stringify(r)).join('\n'));
  const omniLog = readOmniLog(omniHome);
  return {
    dir,
    home,
    proj,
    exitCode,
    timedOut,
    stdout,
    stderr,
    initOutput,
    requests: standin.requests,
    results: functionResults(standin.requests),
    omniLog,
    cleanup: () => {
      if (!opts.keep && !process.env.OMNI_TEST_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Run-specific numbers out: the process group id, the session id, the run's paths. */
export function normaliseGemini(text: string, run: GeminiRunResult): string {
  return text
    .split(run.dir).join('<DIR>')
    .replace(/Process Group PGID: \d+/g, 'Process Group PGID: <N>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>');
}

export const canRunGemini = () => existsSync(geminiBin()) && existsSync(omniBin());
