/**
 * `omni init [--project] [--uninstall]`: register omni's hooks in Claude Code's settings.
 *
 * User scope by default (`~/.claude/settings.json`, or `$CLAUDE_CONFIG_DIR/settings.json`);
 * `--project` writes `./.claude/settings.json`. Hooks call omni by absolute path: `npx` costs
 * ~650 ms per call and hooks run in the session's cwd, so relative paths break.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  installHooks,
  omniHookSpecs,
  projectSettingsPath,
  SettingsError,
  uninstallHooks,
  userSettingsPath,
  hookCommand,
} from '../hosts/claude-settings.js';

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
  if (p.endsWith('.ts') || /[\\/]bin[\\/]omni\.cjs$/.test(p)) {
    const bundled = join(dirname(p), '..', 'dist', 'omni.cjs');
    if (existsSync(bundled)) return resolve(bundled);
    return p.endsWith('.ts') ? null : p;
  }
  return p;
}

export async function run(argv: string[], io: IO): Promise<number> {
  const flags = new Set(argv);
  if (flags.has('--help') || flags.has('-h')) {
    io.stdout.write(
      'usage: omni init [--project] [--uninstall] [--no-pre-hook]\n' +
        '  registers omni as Claude Code hooks in ~/.claude/settings.json\n' +
        '  --project    use ./.claude/settings.json instead\n' +
        '  --uninstall  remove omni\'s hooks only (every other hook and key is kept)\n' +
        '  --no-pre-hook  do not rewrite commands into `omni exec` (distil in PostToolUse only)\n',
    );
    return 0;
  }
  for (const a of argv) {
    if (!['--project', '--uninstall', '--claude', '--no-pre-hook'].includes(a)) {
      io.stderr.write(`omni init: unknown option ${a}\n`);
      return 2;
    }
  }
  const env = process.env;
  const file = flags.has('--project') ? projectSettingsPath(process.cwd()) : userSettingsPath(env);
  try {
    if (flags.has('--uninstall')) {
      const r = uninstallHooks(file);
      io.stdout.write(r.changed ? `omni: removed omni's hooks from ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}\n` : `omni: no omni hooks in ${file}; nothing to do\n`);
      return 0;
    }
    const bin = resolveOmniEntry(env);
    if (!bin || !existsSync(bin)) {
      io.stderr.write(`omni init: cannot find omni's entry file (${bin ?? 'unknown'}); build it with \`node scripts/build.mjs\` or set OMNI_BIN\n`);
      return 1;
    }
    const opts = { preHook: !flags.has('--no-pre-hook') };
    const r = installHooks(file, bin, undefined, opts);
    const events = omniHookSpecs(opts).map((h) => h.event).join(', ');
    if (r.changed) {
      io.stdout.write(
        `omni: hooks registered in ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}\n` +
          `  events: ${events}\n  command: ${hookCommand(bin, '--<event>')}\n` +
          `  check with: omni doctor\n`,
      );
    } else {
      io.stdout.write(`omni: hooks in ${r.file} already up to date\n`);
    }
    return 0;
  } catch (err) {
    io.stderr.write(`omni init: ${err instanceof SettingsError ? err.message : (err as Error).stack}\n`);
    return 1;
  }
}
