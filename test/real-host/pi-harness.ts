/**
 * Runs the real Pi CLI (@mariozechner/pi-coding-agent, pinned in test/host-clis/) headless in print
 * mode against the loopback stand-in, in a temporary HOME (nothing of the user's ~/.pi is read
 * or written), with a clean environment and a hard timeout. Only the child this spawns is
 * ever killed.
 */
import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hostModules } from '../../scripts/host-clis.mjs';
import { runBounded } from './bounded-run.js';
import { startPiStandin, type PiRequest, type PiStep } from './pi-standin.js';

export const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

/** The pinned CLI's entry (test/host-clis/package.json: "@mariozechner/pi-coding-agent": "0.73.1"), installed on first use. */
export function piBin(): string {
  return join(hostModules(), '@mariozechner/pi-coding-agent/dist/cli.js');
}

export interface PiRun {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  requests: PiRequest[];
  callId(step: number, k?: number): string;
  dir: string;
  omniHome: string;
}

export interface PiRunOptions {
  /** Extension files passed with `-e`; none = a baseline run without omni. */
  extensions: string[];
  files?: Record<string, string>;
  tag?: string;
  timeoutMs?: number;
  /** An existing OMNI_HOME (to seed session memory); default a fresh one in the run's dir. */
  omniHome?: string;
  /** Runs after the directories exist, before Pi starts (seed the store, write fixtures). */
  beforeSpawn?: (p: { proj: string; omniHome: string; home: string }) => void | Promise<void>;
  /** false: Pi discovers extensions itself (settings.json, ~/.pi/agent/extensions); default true (`--no-extensions`). */
  noDiscovery?: boolean;
}

export async function runPi(script: PiStep[], opts: PiRunOptions): Promise<PiRun> {
  const dir = mkdtempSync(join(tmpdir(), 'omni-pi-'));
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  const proj = join(dir, 'proj');
  const omniHome = opts.omniHome ?? join(dir, 'omni');
  for (const d of [home, tmp, proj, join(home, '.pi/agent')]) mkdirSync(d, { recursive: true });
  for (const [name, text] of Object.entries(opts.files ?? {})) writeFileSync(join(proj, name), text);
  await opts.beforeSpawn?.({ proj, omniHome, home });
  const standin = await startPiStandin(script, opts.tag);
  writeFileSync(
    join(home, '.pi/agent/models.json'),
    JSON.stringify({
      providers: {
        standin: {
          baseUrl: standin.url,
          api: 'openai-completions',
          apiKey: 'standin-key',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'standin-1', name: 'stand-in', reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    }),
  );
  const args = [piBin(), '-p', '--offline', '--no-context-files', '--no-skills', '--no-prompt-templates', '--no-themes', ...(opts.noDiscovery === false ? [] : ['--no-extensions']), '--provider', 'standin', '--model', 'standin-1', '--tools', 'bash'];
  for (const e of opts.extensions) args.push('-e', e);
  args.push('Run the scripted commands.');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, TMPDIR: tmp, OMNI_HOME: omniHome, LANG: 'C.UTF-8', PI_OFFLINE: '1', PI_TELEMETRY: '0' };
  const { exitCode: code, signal, timedOut, stdout, stderr } = await runBounded(process.execPath, args, { cwd: proj, env, timeoutMs: opts.timeoutMs ?? 120_000 });
  await standin.close();
  return { code, signal, timedOut, stdout, stderr, requests: standin.requests, callId: standin.callId, dir, omniHome };
}

export const canRunPi = (): boolean => existsSync(piBin());
