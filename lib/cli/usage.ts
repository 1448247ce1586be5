/**
 * The one table of subcommand usages. `omni --help` prints every row's synopsis and summary;
 * `omni <name> --help` prints that row with its option notes (main.ts answers --help for every
 * subcommand from here, so no subcommand keeps a second copy). README's Subcommands table
 * names the same flags (test/cli/help.test.ts holds the two together).
 *
 * Loaded on the hot path (main.ts): plain strings only, no imports.
 */

export interface SubcommandUsage {
  /** The argv[0] it answers to; 'hooks' for the hook entry points. */
  name: string;
  /** The usage lines, flags and all. */
  synopsis: string[];
  /** One line: what it does. */
  summary: string;
  /** Option notes for `omni <name> --help`. */
  options?: [string, string][];
}

export const SUBCOMMAND_USAGE: readonly SubcommandUsage[] = [
  {
    name: 'exec',
    synopsis: ['omni exec <program> [args…]', "omni exec [--bash] '<command line>'"],
    summary: 'run a program (or one quoted command line via sh -c), distilled; exits with its code',
    options: [
      ['--bash', "run the one command line under bash (no profile or rc files) instead of sh: the form omni's rewrite uses"],
      ['--', 'ends omni\'s own arguments: `omni exec -- --weird-program`'],
    ],
  },
  {
    name: 'pipe',
    synopsis: ['some-cmd 2>&1 | omni pipe [--command "<cmd>"]'],
    summary: 'distil a stream from stdin; always exits 0',
    options: [['--command, -c <cmd>', 'the command that produced the text (picks its distiller)']],
  },
  {
    name: 'retrieve',
    synopsis: ['omni retrieve [--reveal] <handle>'],
    summary: 'print the bytes a marker stands for, secret values masked; exit 2 for an unknown handle',
    options: [['<handle>', 'the 16 hex characters after "omni retrieve" in a marker'], ['--reveal', 'the exact bytes, secrets unmasked: only for a person at a terminal (refused under an agent)']],
  },
  {
    name: 'stats',
    synopsis: ['omni stats [--since 7d] [--json] [--bars] [--html FILE]'],
    summary: 'bytes in and out, savings per command family and per door; bars per day and family on a terminal',
    options: [
      ['--since <duration>', '30m, 24h, 7d, 2w or all'],
      ['--json', 'machine-readable'],
      ['--bars', 'draw the bars off a terminal too (a terminal gets them by default)'],
      ['--html <file>', "one self-contained page: the charts and the top distillations with their texts ('-': stdout)"],
    ],
  },
  {
    name: 'discover',
    synopsis: ['omni discover [--since 7d] [--project DIR] [--json]'],
    summary: "replay your hosts' session logs through omni: what it would have delivered, per family, and the commands no distiller owns",
    options: [
      ['--since <duration>', '30m, 24h, 7d, 2w or all (results older than that are left out)'],
      ['--project DIR', "only that project's sessions"],
      ['--json', 'machine-readable'],
    ],
  },
  {
    name: 'diff',
    synopsis: ['omni diff [--reveal]'],
    summary: 'the last distillation, raw against delivered (secret values masked on both sides)',
    options: [['--reveal', 'the raw side unmasked: only for a person at a terminal (refused under an agent)']],
  },
  {
    name: 'init',
    synopsis: ['omni init [--claude] [--codex] [--gemini] [--pi] [--cursor] [--all] [--project] [--uninstall] [--rewrite | --no-pre-hook] [--mcp-tools]'],
    summary: 'wire omni into the hosts you name (no host flag: asks on a terminal, else Claude Code); output is distilled after the tool, commands run as approved',
    options: [
      ['--<host>', 'exactly the hosts named: --claude, --codex, --gemini, --pi, --cursor'],
      ['--all', 'every host omni knows, installed or not'],
      ['--project', "the project's config files (./.claude, ./.codex, ./.gemini, ./.pi, ./.cursor) instead of the user's"],
      ['--uninstall', "remove omni's entries only (every other hook, key and server is kept)"],
      ['--rewrite', 'also rewrite plain noisy commands into `omni exec --bash` before they run, only where the host would run them unasked (Claude Code, Codex, Gemini CLI)'],
      ['--no-pre-hook', 'no rewrite: distil after the tool only (the default; kept for scripts that pass it)'],
      ['--mcp-tools', "Claude Code: omni's MCP server also offers the model omni_run, omni_retrieve, omni_stats, omni_remember, omni_recall, omni_goal (without it: none; each offered tool rides on every model request)"],
      ['Claude Code', '>= 2.1.121, user scope: tool events through mcp_tool handlers on omni\'s MCP server (~/.claude.json), no process per call; OMNI_CLAUDE_TRANSPORT=command for command hooks'],
    ],
  },
  {
    name: 'doctor',
    synopsis: ['omni doctor [--json]'],
    summary: 'which hosts are installed and wired, what each gets, what is wrong and the fix; then the store',
    options: [['--json', 'machine-readable'], ['exit', '0 when wired somewhere and nothing wired is broken, else 1']],
  },
  {
    name: 'remember',
    synopsis: ['omni remember "<fact>" | --list | --forget <id>   [--cwd <project dir>]'],
    summary: 'project facts injected at session start',
  },
  {
    name: 'goal',
    synopsis: ['omni goal ["<text>" | --clear]   [--cwd <project dir>]'],
    summary: 'a pinned goal injected at session start (no argument: show it)',
  },
  {
    name: 'session',
    synopsis: ['omni session [--csv]'],
    summary: 'the current or last session; --csv exports every session',
  },
  {
    name: 'mcp',
    synopsis: ['omni mcp [--cwd <project dir>] [--hook-tool [--mcp-tools]]'],
    summary: 'MCP server on stdio; bare, it offers the model omni_run, omni_retrieve, omni_stats, omni_remember, omni_recall, omni_goal',
    options: [
      ['--hook-tool', "serve omni_hook, the door Claude Code's mcp_tool hook handlers call, and offer the model nothing (`omni init --claude` registers it)"],
      ['--mcp-tools', 'with --hook-tool: offer the model the tools too (`omni init --claude --mcp-tools`)'],
    ],
  },
  {
    name: 'rules',
    synopsis: ["omni rules test [FILE] | explain '<command line>' | trust [FILE]   [--cwd <project dir>]"],
    summary: 'rules of your own: run their examples, say who owns a command and why, trust a project file',
    options: [
      ['test [FILE]', 'every example through the real pipeline; a diff and exit 1 on a mismatch (FILE: just that file, trusted or not)'],
      ['explain <cmd>', 'which distiller and which rules would own the command, and why'],
      ['trust [FILE]', "trust a project file's exact contents (default: the project's .omni/rules.json)"],
      ['--cwd <dir>', 'the project directory (default: the current one)'],
    ],
  },
  {
    name: 'hooks',
    synopsis: ['omni --post-hook | --post-hook-failure | --pre-hook | --session-start | --session-end | --pre-compact | --hook'],
    summary: 'host hook entry points (read one JSON payload on stdin, always exit 0)',
  },
];

export function usageOf(name: string): SubcommandUsage | undefined {
  return SUBCOMMAND_USAGE.find((u) => u.name === name);
}

/** `omni <name> --help`: usage lines, what it does, its options. */
export function subcommandHelp(name: string): string {
  const u = usageOf(name);
  if (!u) return '';
  const lines = u.synopsis.map((s, i) => `${i === 0 ? 'usage: ' : '       '}${s}`);
  lines.push(`  ${u.summary}`);
  const w = Math.max(0, ...(u.options ?? []).map(([o]) => o.length)) + 2;
  for (const [o, d] of u.options ?? []) lines.push(`  ${o.padEnd(w)}${d}`);
  return lines.join('\n') + '\n';
}

/** `omni --help`: every row. */
export function topLevelHelp(): string {
  const out = ['omni — distils shell output for AI coding agents; every removed byte stays retrievable.', ''];
  for (const u of SUBCOMMAND_USAGE) {
    for (const s of u.synopsis) out.push(`  ${s}`);
    out.push(`      ${u.summary}`);
  }
  out.push('  omni --version', '', 'omni <command> --help for its options.');
  return out.join('\n') + '\n';
}
