/**
 * `omni init [--claude] [--codex] [--gemini] [--pi] [--cursor] [--all] [--project] [--uninstall] [--rewrite | --no-pre-hook] [--mcp-tools]`:
 * wire omni into the hosts on this machine.
 *
 * With host flags: exactly those hosts. Without: on a terminal, omni lists the hosts it found
 * and asks for each; otherwise (scripts, CI) it wires Claude Code only, as it always did, and
 * names the other hosts it found. User scope by default; `--project` writes the project's own
 * config files. Hooks call omni by absolute path: `npx` costs ~650 ms per call and hooks run in
 * the session's cwd, so relative paths break.
 *
 * By default no host gets the pre-tool rewrite into `omni exec`: the command the user approved
 * is the command the host runs, in its own shell, and omni distils the output afterwards.
 * `--rewrite` adds it for the hosts that have one (Claude Code, Codex, Gemini CLI), within the
 * limits lib/doors/prehook-policy.ts sets. `--no-pre-hook` is the default, still accepted.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HostInstaller, InstallOptions } from '../hosts/adapter.js';
import { INSTALLERS } from '../hosts/installers.js';
import { SettingsError } from '../hosts/kit/config-file.js';
import { subcommandHelp } from './usage.js';

interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * The file hooks should run: `$OMNI_BIN`, else the running entry (`process.argv[1]`, symlinks
 * resolved). Run from source (`bin/omni.ts`), it is the bundle `dist/omni.cjs` next to it.
 */
export function resolveOmniEntry(env: NodeJS.ProcessEnv = process.env, argv1: string | undefined = process.argv[1]): string | null {
  if (env.OMNI_BIN) return resolve(env.OMNI_BIN);
  if (!argv1) return null;
  let p: string;
  try {
    p = realpathSync(argv1);
  } catch {
    p = resolve(argv1);
  }
  // From source (bin/omni.ts) or through npm's bin shim (bin/omni.cjs, which only requires the
  // bundle): point hooks straight at the bundle, one file less to load per tool call.
  // The lazily loaded subcommand bundles (dist/omni-init.cjs) point at their main bundle too.
  if (p.endsWith('.ts') || /[\\/]bin[\\/]omni\.cjs$/.test(p)) {
    const bundled = join(dirname(p), '..', 'dist', 'omni.cjs');
    if (existsSync(bundled)) return resolve(bundled);
    return p.endsWith('.ts') ? null : p;
  }
  return p;
}

const USAGE = subcommandHelp('init');

async function ask(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

async function chooseHosts(flags: Set<string>, env: NodeJS.ProcessEnv, io: IO): Promise<HostInstaller[]> {
  if (flags.has('--all')) return [...INSTALLERS];
  const named = INSTALLERS.filter((i) => flags.has(`--${i.id}`));
  if (named.length) return named;
  const found = INSTALLERS.filter((i) => i.detect(env).detected);
  if (process.stdin.isTTY && process.stdout.isTTY && found.length) {
    const chosen: HostInstaller[] = [];
    for (const i of found) if (await ask(`wire omni into ${i.name}? [y/N] `)) chosen.push(i);
    return chosen;
  }
  const others = found.filter((i) => i.id !== 'claude');
  if (others.length) io.stdout.write(`omni: also found ${others.map((i) => `${i.name} (omni init --${i.id})`).join(', ')}\n`);
  return INSTALLERS.filter((i) => i.id === 'claude');
}

export async function run(argv: string[], io: IO): Promise<number> {
  const flags = new Set(argv);
  if (flags.has('--help') || flags.has('-h')) {
    io.stdout.write(USAGE);
    return 0;
  }
  const known = ['--project', '--uninstall', '--rewrite', '--no-pre-hook', '--mcp-tools', '--all', ...INSTALLERS.map((i) => `--${i.id}`)];
  for (const a of argv) {
    if (!known.includes(a)) {
      io.stderr.write(`omni init: unknown option ${a}\n${USAGE}`);
      return 2;
    }
  }
  if (flags.has('--rewrite') && flags.has('--no-pre-hook')) {
    io.stderr.write(`omni init: --rewrite and --no-pre-hook contradict each other (--no-pre-hook is the default)\n${USAGE}`);
    return 2;
  }
  const env = process.env;
  const bin = resolveOmniEntry(env);
  if (!flags.has('--uninstall') && (!bin || !existsSync(bin))) {
    io.stderr.write(`omni init: cannot find omni's entry file (${bin ?? 'unknown'}); build it with \`node scripts/build.mjs\` or set OMNI_BIN\n`);
    return 1;
  }
  const hosts = await chooseHosts(flags, env, io);
  if (!hosts.length) {
    io.stdout.write('omni: no host chosen; nothing to do\n');
    return 0;
  }
  const opts: InstallOptions = { scope: flags.has('--project') ? 'project' : 'user', cwd: process.cwd(), bin: bin ?? '', preHook: flags.has('--rewrite'), mcpTools: flags.has('--mcp-tools'), env };
  let status = 0;
  for (const h of hosts) {
    try {
      const r = flags.has('--uninstall') ? h.uninstall(opts) : h.install(opts);
      io.stdout.write(`omni: ${h.name}: ${r.notes.join('\n  ')}\n`);
    } catch (err) {
      io.stderr.write(`omni init: ${h.name}: ${err instanceof SettingsError ? err.message : (err as Error).stack}\n`);
      status = 1;
    }
  }
  if (!flags.has('--uninstall')) io.stdout.write('  check with: omni doctor\n');
  return status;
}
