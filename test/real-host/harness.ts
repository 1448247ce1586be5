/**
 * Runs the REAL Claude Code CLI headless against the loopback stand-in
 * in a fresh temporary HOME with omni installed by the
 * real `omni init` — or without omni, for the baseline.
 *
 * Clean environment (`env -i` equivalent), `IS_SANDBOX=1` only as root under
 * bypassPermissions, bounded by a timeout. Only what this harness started is ever killed:
 * the CLI's own process group, by the PID we spawned.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostModules } from '../../scripts/host-clis.mjs';
import { hostEnv, runBounded } from './bounded-run.js';
import { startStandin, toolResultFor, type RecordedRequest, type Step } from './standin.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pinned CLI (test/host-clis/package.json: "@anthropic-ai/claude-code": "2.1.332"), installed on first use; OMNI_TEST_CLAUDE overrides. */
export function claudeBin(): string {
  if (process.env.OMNI_TEST_CLAUDE) return process.env.OMNI_TEST_CLAUDE;
  const modules = hostModules();
  const native = join(modules, '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');
  const linked = join(modules, '.bin', 'claude');
  return existsSync(linked) ? linked : native;
}

/** The omni entry under test: the bundle `dist/omni.cjs` (OMNI_TEST_BIN overrides). */
export function omniBin(): string {
  return resolve(process.env.OMNI_TEST_BIN || join(REPO, 'dist', 'omni.cjs'));
}

/**
 * Without `initEnv`, `omni init` installs command hooks: under npm/npx the pinned CLI is on PATH,
 * and init would otherwise wire mcp_tool handlers (claude-mcp-hooks.test.ts proves those); the
 * command hooks keep their own proof (claude.test.ts), as Codex, Gemini and older Claude Code use them.
 */
const COMMAND_HOOKS = { OMNI_CLAUDE_TRANSPORT: 'command' };

export interface RunOptions {
  script: Step[];
  /** Install omni with `omni init` into the temporary HOME (user scope). */
  withOmni: boolean;
  permissionMode?: 'bypassPermissions' | 'default' | 'acceptEdits' | 'dontAsk';
  /** Files to create in the project directory ({{PROJ}} in contents is replaced). */
  files?: Record<string, string>;
  /** Project `.claude/settings.json` content (e.g. permission rules the user committed). */
  projectSettings?: Record<string, unknown>;
  /** User `~/.claude/settings.json` written before `omni init` runs (foreign hooks, rules). */
  userSettings?: Record<string, unknown>;
  /** Settings passed with `--settings <file>` (rules a hook cannot read). */
  cliSettings?: Record<string, unknown>;
  /** Extra env for the CLI (and so for hooks). */
  env?: Record<string, string>;
  /** Extra env for `omni init` only (e.g. OMNI_CLAUDE_BIN, so init sees the CLI's version); {{PROJ}} is replaced. */
  initEnv?: Record<string, string>;
  /** Arguments after `omni init` (default none: what a user types first; `['--claude', '--rewrite']` opts in to the rewrite, `['--claude', '--mcp-tools']` to omni's MCP tools). */
  initArgs?: string[];
  /** Runs after the project's files are written and before `omni init` (e.g. `git init` and its history). */
  prepare?: (dirs: { proj: string; home: string; tmp: string; env: Record<string, string> }) => void;
  timeoutMs?: number;
  tag?: string;
  /** Run a new session in the directory of an earlier run (its HOME, project, store). */
  after?: RunResult;
  /** Keep the run directory (for debugging). */
  keep?: boolean;
  /** The prompt `-p` is given (default: the scripted steps'); e.g. `/compact`. */
  prompt?: string;
  /** More CLI arguments, e.g. `['--continue']` to go on with the last session of an `after` run. */
  args?: string[];
}

export interface ToolResult {
  text: string;
  isError: boolean;
}

export interface RunResult {
  dir: string;
  proj: string;
  home: string;
  exitCode: number | null;
  timedOut: boolean;
  stderr: string;
  stream: any[];
  sessionId: string | null;
  version: string | null;
  requests: RecordedRequest[];
  /** Per step: what the model saw (null: no tool_result for it ever reached the model). */
  results: (ToolResult | null)[];
  toolUseIds: string[];
  transcript: any[];
  initOutput: string;
  permissionDenials: any[];
  hookLog: string;
  durationMs: number;
  cleanup(): void;
}

/** Substitute `{{PROJ}}` in a script (absolute paths in Read inputs). */
function subst(v: unknown, proj: string): any {
  if (typeof v === 'string') return v.split('{{PROJ}}').join(proj);
  if (Array.isArray(v)) return v.map((x) => subst(x, proj));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x, proj)]));
  return v;
}

export function slugOf(path: string): string {
  return path.replace(/[^A-Za-z0-9]/g, '-');
}

export async function runClaude(opts: RunOptions): Promise<RunResult> {
  const t0 = Date.now();
  // A later session on the same machine: same HOME, project and omni store, no new install.
  const dir = opts.after ? opts.after.dir : mkdtempSync(join(tmpdir(), 'omni-real-host-'));
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  const proj = join(dir, 'proj');
  for (const d of [home, tmp, proj]) mkdirSync(d, { recursive: true });
  for (const [name, content] of Object.entries(opts.files ?? {})) {
    const p = join(proj, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content.split('{{PROJ}}').join(proj));
  }
  if (opts.projectSettings) {
    mkdirSync(join(proj, '.claude'), { recursive: true });
    writeFileSync(join(proj, '.claude', 'settings.json'), JSON.stringify(opts.projectSettings, null, 2));
  }

  if (opts.userSettings) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(opts.userSettings, null, 2).split('{{PROJ}}').join(proj));
  }
  const omniHome = join(dir, 'omni-home');
  const baseEnv = hostEnv({ home, tmp, omniHome });
  if (opts.prepare && !opts.after) opts.prepare({ proj, home, tmp, env: { ...baseEnv, ...(opts.env ?? {}) } });

  // Install omni exactly as a user would: the real `omni init`, against this HOME.
  let initOutput = '';
  if (opts.withOmni && !opts.after) {
    const r = spawnSync(process.execPath, [omniBin(), 'init', ...(opts.initArgs ?? [])], { cwd: proj, env: { ...baseEnv, ...subst(opts.initEnv ?? COMMAND_HOOKS, proj) }, encoding: 'utf8', timeout: 30_000 });
    initOutput = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`omni init failed (${r.status}): ${initOutput}`);
  }

  const tag = opts.tag ?? 'e2e';
  const standin = await startStandin(subst(opts.script, proj), { tag });
  const mode = opts.permissionMode ?? 'bypassPermissions';
  const env: Record<string, string> = {
    ...baseEnv,
    ANTHROPIC_BASE_URL: standin.url,
    ANTHROPIC_API_KEY: 'sk-ant-api03-test-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_UPDATES: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    ...(process.getuid?.() === 0 && mode === 'bypassPermissions' ? { IS_SANDBOX: '1' } : {}),
    ...(opts.env ?? {}),
  };
  const args = ['-p', opts.prompt ?? 'Run the scripted steps.', ...(opts.args ?? []), '--output-format', 'stream-json', '--verbose', '--permission-mode', mode, '--debug-file', join(dir, 'debug.log')];

  if (opts.cliSettings) {
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(opts.cliSettings));
    args.push('--settings', join(dir, 'settings.json'));
  }
  const { exitCode, timedOut, stdout, stderr } = await runBounded(claudeBin(), args, { cwd: proj, env, timeoutMs: opts.timeoutMs ?? 90_000 });
  await standin.close();

  const stream = parseJsonl(stdout, (l) => ({ unparsed: l }));
  const init = stream.find((e) => e.type === 'system' && e.subtype === 'init');
  const result = stream.find((e) => e.type === 'result');
  const sessionId: string | null = init?.session_id ?? result?.session_id ?? null;
  let transcript: any[] = [];
  if (sessionId) {
    const tfile = join(home, '.claude', 'projects', slugOf(proj), `${sessionId}.jsonl`);
    if (existsSync(tfile)) {
      transcript = parseJsonl(readFileSync(tfile, 'utf8'), () => ({}));
    }
  }
  const toolUseIds = opts.script.map((_, i) => standin.toolUseId(i));
  const results = opts.script.map((s, i) => ('tool' in s ? toolResultFor(standin.requests, standin.toolUseId(i)) : null));
  let hookLog = '';
  try {
    hookLog = readFileSync(join(omniHome, 'omni.log'), 'utf8');
  } catch {
    /* none */
  }
  writeFileSync(join(dir, 'requests.jsonl'), standin.requests.map((r) => JSON.stringify(r)).join('\n'));
  return {
    dir,
    proj,
    home,
    exitCode,
    timedOut,
    stderr,
    stream,
    sessionId,
    version: init?.claude_code_version ?? null,
    requests: standin.requests,
    results: results.map((r) => (r ? { text: r.text, isError: r.isError } : null)),
    toolUseIds,
    transcript,
    initOutput,
    permissionDenials: result?.permission_denials ?? [],
    hookLog,
    durationMs: Date.now() - t0,
    cleanup: () => {
      if (!opts.keep && !process.env.OMNI_TEST_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Transcript attachment records of a given type (e.g. hook_error_during_execution). */
export function attachments(transcript: any[], type?: string): any[] {
  return transcript.filter((r) => r?.type === 'attachment' && r.attachment && (!type || r.attachment.type === type)).map((r) => r.attachment);
}

/** Replace run-specific paths, UUIDs and persisted file names so runs compare. */
export function normalise(text: string, run: RunResult): string {
  return text
    .split(run.proj).join('<PROJ>')
    .split(slugOf(run.proj)).join('<SLUG>')
    .split(run.home).join('<HOME>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>')
    .replace(/tool-results\/[A-Za-z0-9_-]+\.txt/g, 'tool-results/<FILE>.txt');
}

export function listDir(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return [];
  }
}

/** One JSON value per non-blank line; a line that does not parse becomes `bad(line)`. */
function parseJsonl(text: string, bad: (line: string) => unknown): any[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return bad(l);
      }
    });
}
