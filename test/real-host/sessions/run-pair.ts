/**
 * Runs one scripted session twice through the real Claude Code CLI against the loopback model
 * stand-in: without omni, and with omni installed by `omni init --claude` into the run's
 * temporary HOME, as a user would (whatever that installs: hooks, MCP server, pre-hook or not).
 * Then it gathers what measure.ts needs: what the model got per call in each run, the bytes
 * each marker's handle retrieves from the omni run's own store, the baseline's persisted
 * outputs, and every model request of both runs.
 *
 * The machine's toolchains are found where they live (a Python or Rust whose shims read the
 * real HOME is reached by its real directory), and the runs' commands see a fixed git identity
 * and clock, so a commit made in the session has the same hash in both runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { attachments, claudeBin, omniBin, runClaude, type RunResult } from '../harness.js';
import type { Step } from '../standin.js';
import { checkCall, handlesIn, modelRequests, omniCost, stabiliser, totalsOf, type CallEvidence, type SessionReport } from './measure.js';
import type { Session } from './session.js';

/** Where a program really is, or null. */
function which(prog: string, path: string): string | null {
  for (const d of path.split(delimiter)) {
    const p = join(d, prog);
    if (d && existsSync(p)) return p;
  }
  return null;
}

function tryRun(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).trim();
  } catch {
    return null;
  }
}

/**
 * PATH for the runs: a directory with `claude` (the pinned CLI, found as a user has it on PATH),
 * then the real directories of toolchains reached through shims, then the machine's PATH less
 * any node_modules/.bin (omni's own dev tools are not the user's).
 */
export function sessionPath(binDir: string): string {
  const base = (process.env.PATH ?? '/usr/bin:/bin').split(delimiter).filter((d) => d && !/node_modules[\\/]\.bin$/.test(d));
  const real: string[] = [];
  const py = tryRun('python3', ['-c', 'import sys; print(sys.executable)']);
  if (py) real.push(dirname(py));
  const cargo = tryRun('rustup', ['which', 'cargo']);
  if (cargo) real.push(dirname(cargo));
  return [binDir, ...real, ...base].filter((d, i, a) => a.indexOf(d) === i).join(delimiter);
}

/** The fixed identity and clock every git commit of a session gets (before and during it). */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Dana Reyes',
  GIT_AUTHOR_EMAIL: 'dana@example.org',
  GIT_COMMITTER_NAME: 'Dana Reyes',
  GIT_COMMITTER_EMAIL: 'dana@example.org',
  GIT_AUTHOR_DATE: '2026-11-20T10:00:00+00:00',
  GIT_COMMITTER_DATE: '2026-11-20T10:00:00+00:00',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function missingPrograms(session: Session, path: string): string[] {
  return session.needs.filter((p) => !which(p, path));
}

function commitHistory(session: Session, proj: string, env: Record<string, string>): void {
  const git = (args: string[], date?: string) => {
    const e = { ...env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) };
    const r = spawnSync('git', args, { cwd: proj, env: e, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', GIT_ENV.GIT_AUTHOR_NAME]);
  git(['config', 'user.email', GIT_ENV.GIT_AUTHOR_EMAIL]);
  git(['config', 'commit.gpgsign', 'false']);
  session.history.forEach((c, i) => {
    git(['add', '--', ...c.paths]);
    // One commit a day, the last the day before the session's clock.
    const day = String(1 + i).padStart(2, '0');
    git(['commit', '-q', '--allow-empty', '-m', c.message], `2026-11-${day}T09:${String(10 + i).padStart(2, '0')}:00+00:00`);
  });
}

export interface PairOptions {
  timeoutMs?: number;
  keep?: boolean;
  /** Progress lines (the bench prints them). */
  log?: (line: string) => void;
}

export interface PairResult {
  report: SessionReport;
  base: RunResult;
  omni: RunResult;
}

/** The session's steps as the stand-in plays them, ending in a text turn. */
export function standinScript(session: Session): Step[] {
  return [...session.steps.map((s) => ({ tool: s.tool, input: s.input })), { text: 'Done: the tests pass, lint and build are clean, and the fix is committed.' }];
}

export async function runSessionPair(session: Session, opts: PairOptions = {}): Promise<PairResult> {
  const binDir = mkdtempSync(join(tmpdir(), 'omni-sessions-bin-'));
  symlinkSync(claudeBin(), join(binDir, 'claude'));
  const PATH = sessionPath(binDir);
  const missing = missingPrograms(session, PATH);
  if (missing.length) throw new Error(`session ${session.name} needs ${missing.join(', ')} on PATH`);
  const env = { PATH, ...GIT_ENV, ...(session.env ?? {}) };
  const files = session.files();
  const script = standinScript(session);
  const common = {
    script,
    files,
    env,
    keep: true,
    timeoutMs: opts.timeoutMs ?? 15 * 60_000,
    prepare: ({ proj, env: e }: { proj: string; env: Record<string, string> }) => commitHistory(session, proj, e),
  };
  const t0 = Date.now();
  opts.log?.(`${session.name}: ${session.steps.length} calls, both runs started`);
  const [base, omni] = await Promise.all([
    runClaude({ ...common, withOmni: false, tag: 'base' }),
    // `omni init --claude` as a user types it; init finds the CLI on PATH, as it would for them.
    runClaude({ ...common, withOmni: true, tag: 'omni', initArgs: ['--claude'], initEnv: { PATH } }),
  ]);
  opts.log?.(`${session.name}: runs done in ${Math.round((Date.now() - t0) / 1000)} s (base ${Math.round(base.durationMs / 1000)} s, omni ${Math.round(omni.durationMs / 1000)} s)`);
  try {
    const report = measurePair(session, base, omni);
    return { report, base, omni };
  } finally {
    rmSync(binDir, { recursive: true, force: true });
    if (!opts.keep && !process.env.OMNI_TEST_KEEP) {
      base.cleanup();
      omni.cleanup();
    }
  }
}

/** `omni retrieve <handle>` against the omni run's own store (its HOME and OMNI_HOME). */
export function retrieveFrom(run: RunResult, handle: string): string | null {
  const r = spawnSync(process.execPath, [omniBin(), 'retrieve', handle], {
    env: { PATH: process.env.PATH ?? '', HOME: run.home, OMNI_HOME: join(run.dir, 'omni-home') },
    encoding: 'buffer',
    timeout: 30_000,
  });
  return r.status === 0 ? r.stdout.toString('utf8') : null;
}

function persistedFile(text: string): string | null {
  const m = /Full output saved to: (\S+)/.exec(text);
  if (!m) return null;
  try {
    return readFileSync(m[1], 'utf8');
  } catch {
    return null;
  }
}

export function measurePair(session: Session, base: RunResult, omni: RunResult): SessionReport {
  const stableBase = stabiliser(realDir(base.dir));
  const stableOmni = stabiliser(realDir(omni.dir));
  const calls = session.steps.map((step, index) => {
    const b = base.results[index] ?? null;
    const o = omni.results[index] ?? null;
    const retrieved: Record<string, string | null> = {};
    for (const h of handlesIn(o?.text ?? '')) retrieved[h] = retrieveFrom(omni, h);
    const earlier = omni.results.slice(0, index).flatMap((e) => (e ? [e.text] : []));
    const ev: CallEvidence = { index, step, base: b, omni: o, baseFull: b?.text.startsWith('<persisted-output>') ? persistedFile(b.text) : undefined, retrieved, earlier };
    return checkCall(ev, stableBase, stableOmni);
  });
  const cost = omniCost(modelRequests(base.requests), modelRequests(omni.requests), stableBase, stableOmni);
  const runNotes: string[] = [];
  for (const [name, run] of [['without omni', base], ['with omni', omni]] as const) {
    if (run.exitCode !== 0 || run.timedOut) runNotes.push(`${name}: the CLI exited ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}: ${run.stderr.slice(0, 300)}`);
    if (run.version !== '2.1.332') runNotes.push(`${name}: CLI version ${run.version}`);
    const bad = ['hook_error_during_execution', 'hook_non_blocking_error', 'hook_blocking_error', 'hook_cancelled'].flatMap((k) => attachments(run.transcript, k));
    for (const a of bad) runNotes.push(`${name}: ${a.type} ${a.hookEvent ?? ''}: ${String(a.content ?? a.stderr ?? '').slice(0, 200)}`);
  }
  if (!/transport|hooks registered/.test(omni.initOutput)) runNotes.push(`omni init --claude said: ${omni.initOutput.slice(0, 300)}`);
  const scriptErrors = calls.flatMap((c) => c.scriptErrors.map((e) => `call ${c.index} (${c.label}): ${e}`));
  return { name: session.name, ecosystem: session.ecosystem, set: session.set, calls, cost, totals: totalsOf(calls), scriptErrors, runNotes };
}

function realDir(d: string): string {
  try {
    return realpathSync(d);
  } catch {
    return d;
  }
}
