/**
 * Finding a host's CLI and reading its version, for installers and doctor.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Problem } from '../adapter.js';

export function which(cmd: string, env: NodeJS.ProcessEnv): string | null {
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

/**
 * A host's program, which is what "installed" means: the override variable's file when it is
 * set (and nothing else then), else the first of `names` on PATH, else one of `also` (absolute
 * paths a host's own installer uses off PATH). A host's config folder is never evidence: omni
 * init creates some of them, and they outlive an uninstalled CLI.
 */
export function findProgram(names: readonly string[], env: NodeJS.ProcessEnv, override?: string, also: readonly string[] = []): string | null {
  if (override) return isExecutable(override) ? override : null;
  for (const n of names) {
    const p = which(n, env);
    if (p) return p;
  }
  return also.find(isExecutable) ?? null;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `<bin> --version` → the first x.y.z in its output, or null (with why). */
export function cliVersion(bin: string, env: NodeJS.ProcessEnv): { version: string | null; error?: string } {
  // A Node CLI's start can take seconds on a loaded machine; OMNI_CLI_VERSION_TIMEOUT_MS gives
  // a slow one longer than the default.
  const timeout = Number(env.OMNI_CLI_VERSION_TIMEOUT_MS ?? process.env.OMNI_CLI_VERSION_TIMEOUT_MS) || 15_000;
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout, env });
  // Some CLIs (Pi) print their version on stderr.
  const m = /(\d+\.\d+\.\d+)/.exec(`${r.stdout ?? ''}`) ?? /(\d+\.\d+\.\d+)/.exec(`${r.stderr ?? ''}`);
  if (m) return { version: m[1] };
  return { version: null, error: (r.error?.message ?? r.stderr ?? '').trim().slice(0, 200) };
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Split a hook command line into words (the forms omni writes: quoted or bare words). */
export function commandWords(cmd: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(cmd)) && m[0].trim() !== '') out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? m[3] ?? ''));
  return out;
}

/**
 * What a registered hook command needs that is not there: absolute paths that do not exist and
 * a bare program not on PATH. The host runs such a hook, gets exit 127 and silently skips it.
 */
export function missingInCommand(command: string, env: NodeJS.ProcessEnv): string[] {
  const words = commandWords(command);
  const bad = words.filter((w) => w.startsWith('/') && !existsSync(w));
  if (words[0] && !words[0].startsWith('/') && !which(words[0], env)) bad.push(`${words[0]} (not on PATH)`);
  return bad;
}

/**
 * Doctor's notes on a host's CLI: not on PATH, or a version omni's replies were not measured on.
 * `name` is the host's own name ("Codex CLI", "Pi"), `command` the program(s) looked for.
 */
export function cliProblems(cli: { name: string; command: string; bin: string | null; version?: string; measured?: string; pkg: string; envVar: string; test?: string }): Problem[] {
  if (!cli.bin) return [{ status: 'warn', what: `${cli.name} (${cli.command}) was not found on PATH`, fix: `install ${cli.pkg}, or set ${cli.envVar} to its path` }];
  if (cli.version && cli.measured && cli.version !== cli.measured) {
    return [{ status: 'warn', what: `${cli.name} ${cli.version}; omni's replies were measured on ${cli.measured}`, fix: `run the real-host test (${cli.test}) against this version` }];
  }
  return [];
}

/** An installer's `detect` answer for a program found (or not) and how its version is read. */
export function detectedAt(bin: string | null, version: (bin: string) => string | null | undefined): { detected: boolean; version?: string; where?: string } {
  return bin ? { detected: true, version: version(bin) ?? undefined, where: bin } : { detected: false };
}
