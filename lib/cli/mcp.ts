/**
 * `omni mcp [--cwd <project dir>] [--hook-tool [--mcp-tools]]`: omni as an MCP server on stdio.
 * Bare, it offers the model omni_run and the other tools (for hosts that cannot replace a shell
 * command's output themselves: Cursor, or a user who adds it by hand). With --hook-tool it
 * serves Claude Code's mcp_tool hook handlers and offers the model nothing, unless --mcp-tools
 * adds the tools (`omni init --claude --mcp-tools`). stdout carries MCP framing only; anything
 * else goes to stderr or the omni log.
 */
import path from 'node:path';
import type { Io } from './io.js';
import { MCP_TOOLS_FLAG, offersModelTools } from '../hosts/mcp-offer.js';

const USAGE =
  'usage: omni mcp [--cwd <project dir>] [--hook-tool [--mcp-tools]]   (an MCP server on stdin/stdout)\n' +
  '       bare: offers the model omni_run, omni_retrieve, omni_stats, omni_remember, omni_recall, omni_goal\n' +
  '       --hook-tool: serves omni_hook, the door Claude Code\'s mcp_tool hook handlers call, and offers the model nothing\n' +
  '       --mcp-tools: with --hook-tool, offers the model those tools too (`omni init --claude --mcp-tools`)\n';

export async function run(argv: string[], io: Io): Promise<number> {
  let projectDir = process.cwd();
  let hookTool = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cwd' && argv[i + 1] !== undefined) projectDir = argv[++i];
    else if (a.startsWith('--cwd=')) projectDir = a.slice('--cwd='.length);
    else if (a === '--hook-tool') hookTool = true;
    else if (a === MCP_TOOLS_FLAG) continue;
    else if (a === '--help' || a === '-h') {
      io.stderr.write(USAGE);
      return 0;
    } else {
      io.stderr.write(`omni mcp: unknown argument '${a}'\n${USAGE}`);
      return 2;
    }
  }
  // MALLOC_ARENA_MAX is for this process only (lib/hosts/claude/mcp-transport.ts: omniServerEntry).
  if (process.env.OMNI_SET_MALLOC_ARENA_MAX === '1') {
    delete process.env.MALLOC_ARENA_MAX;
    delete process.env.OMNI_SET_MALLOC_ARENA_MAX;
  }
  // A stray console.log from any module would corrupt the framing.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const { logDiagnostic } = await import('../store/diagnostics.js');
  // One tool's unexpected failure must not end the session for the others.
  process.on('uncaughtException', (err) => logDiagnostic('mcp', err));
  process.on('unhandledRejection', (err) => logDiagnostic('mcp', err));
  const { serveStdio } = await import('../mcp/server.js');
  await serveStdio({ projectDir: path.resolve(projectDir), env: process.env, hookTool, modelTools: offersModelTools(argv) });
  return 0;
}
