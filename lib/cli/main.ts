/**
 * argv -> a door or a subcommand. Each subcommand module is imported only when used, so
 * the hook's start-up never parses zod or opens SQLite unless it must.
 */
import { subcommandHelp, topLevelHelp } from './usage.js';
import { readAll, readStdin, writeStdout } from './hook-stdio.js';
import HOOK_FLAG_LIST from '../../bin/hook-flags.json' with { type: 'json' };

import type { Io } from './io.js';

export type { Io };

type SubRun = (argv: string[], io: Io) => Promise<number>;

/**
 * The hook entries, listed once in bin/hook-flags.json: bin/omni.cjs reads the same file when the
 * bundle is missing, so every hook entry exits 0 there too (a host treats any other exit as a
 * hook error), and doors/hook.ts's HOOK_NAMES names the same entries (test/cli/hook-flags.test.ts).
 */
const HOOK_FLAGS: ReadonlySet<string> = new Set(HOOK_FLAG_LIST);

const SUBCOMMANDS: Record<string, () => Promise<{ run: SubRun }>> = {
  init: () => import('./init.js'),
  doctor: () => import('./doctor.js'),
  retrieve: () => import('./retrieve.js'),
  stats: () => import('./stats.js'),
  discover: () => import('./discover.js'),
  diff: () => import('./diff.js'),
  remember: () => import('./remember.js'),
  goal: () => import('./goal.js'),
  session: () => import('./session.js'),
  mcp: () => import('./mcp.js'),
  rules: () => import('./rules.js'),
};

/**
 * `omni <name> --help` (or -h) for any subcommand, answered here from the one table. exec's
 * arguments are the command's own (`omni exec ls -h`): only a first --help is omni's.
 */
function wantsHelp(cmd: string, rest: string[]): boolean {
  if (!(cmd in SUBCOMMANDS) && cmd !== 'exec' && cmd !== 'pipe') return false;
  const isHelp = (a: string | undefined) => a === '--help' || a === '-h';
  if (cmd === 'exec') return isHelp(rest[0]);
  const end = rest.indexOf('--');
  return (end < 0 ? rest : rest.slice(0, end)).some(isHelp);
}

/** Is this argv[0] a hook entry (one payload in, at most one reply out, exit 0)? */
export const isHookFlag = (arg: string | undefined): boolean => arg !== undefined && HOOK_FLAGS.has(arg);

/**
 * The process's own streams, built only when touched: a hook never builds them (hook-stdio.ts).
 */
const processIo: Io = {
  get stdout() { return process.stdout; },
  get stderr() { return process.stderr; },
};

/** Returns the exit code. Never throws for a hook flag. */
export async function main(argv: string[], given?: Io): Promise<number> {
  const io = given ?? processIo;
  const cmd = argv[0];
  if (cmd && isHookFlag(cmd)) {
    // A hook always exits 0 and prints one JSON object or nothing: anything else is a broken hook to the host.
    try {
      // The real process's stdio go by file descriptor (hook-stdio.ts); a test's Io as given.
      const real = given === undefined;
      const stdin = real ? await readStdin() : await readAll(process.stdin);
      const { runHook } = await import('../doors/hook.js');
      const out = await runHook(cmd.slice(2), stdin, process.env);
      if (out) await (real ? writeStdout(out) : new Promise<void>((r) => io.stdout.write(out, () => r())));
    } catch (err) {
      try { (await import('../store/diagnostics.js')).logDiagnostic('hook', err); } catch { /* fail open */ }
    }
    return 0;
  }
  if (cmd && wantsHelp(cmd, argv.slice(1))) {
    io.stdout.write(subcommandHelp(cmd));
    return 0;
  }
  if (cmd === 'exec') {
    const args = argv.slice(1);
    // `--bash '<line>'`: the pre-hook's rewrite, run under bash as the host would (doors/shell.ts).
    const bash = args[0] === '--bash';
    if (bash) args.shift();
    if (args[0] === '--') args.shift();
    if (!args.length) { io.stderr.write('omni exec: missing command\n'); return 2; }
    if (bash && args.length !== 1) { io.stderr.write("omni exec: --bash takes one command line: omni exec --bash '<command line>'\n"); return 2; }
    const { runExec } = await import('../doors/exec.js');
    return runExec({
      argv: args,
      bash,
      stdout: io.stdout,
      ownsProcess: true,
      sessionId: process.env.OMNI_SESSION_ID || undefined,
      agentId: process.env.OMNI_AGENT_ID || undefined,
      host: process.env.OMNI_HOST || undefined,
    });
  }
  if (cmd === 'pipe') {
    let command: string | undefined;
    for (let i = 1; i < argv.length; i++) {
      if (argv[i] === '--command' || argv[i] === '-c') command = argv[++i];
      else if (argv[i].startsWith('--command=')) command = argv[i].slice('--command='.length);
    }
    const { runPipe } = await import('../doors/pipe.js');
    return runPipe({ command, stdout: io.stdout, ownsProcess: true, sessionId: process.env.OMNI_SESSION_ID || undefined, agentId: process.env.OMNI_AGENT_ID || undefined });
  }
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    io.stdout.write(topLevelHelp());
    return cmd ? 0 : 2;
  }
  if (cmd === '--version' || cmd === 'version') {
    io.stdout.write(`omni ${process.env.OMNI_VERSION ?? 'dev'}\n`);
    return 0;
  }
  const load = SUBCOMMANDS[cmd];
  if (!load) {
    io.stderr.write(`omni: unknown command '${cmd}'\n\n${topLevelHelp()}`);
    return 2;
  }
  const mod = await load();
  return mod.run(argv.slice(1), io);
}
