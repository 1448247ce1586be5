/**
 * What omni's MCP server offers the model, named where the installers, doctor and the server
 * all read it (pure; no IO).
 *
 * Every tool a server offers rides on every model request (its definition, or its name where
 * the host defers tool schemas), and `omni_run` is a second shell. So the tools the model sees
 * are the user's choice: the server `omni init --claude` registers for the hook transport
 * (`omni mcp --hook-tool`) offers none unless the user adds `--mcp-tools`. `omni mcp` typed
 * bare (and Cursor's install, whose whole point is `omni_run`) offers them.
 */

/**
 * The name omni's server is registered under in a host's `mcpServers` (Claude Code's
 * ~/.claude.json, Cursor's mcp.json), and the internal tool Claude Code's `mcp_tool` hook
 * handlers call on it (never offered to the model).
 */
export const OMNI_SERVER = 'omni';
export const HOOK_TOOL = 'omni_hook';

/** The flag (`omni init --claude --mcp-tools`, `omni mcp --hook-tool --mcp-tools`) that offers them. */
export const MCP_TOOLS_FLAG = '--mcp-tools';

/** The tools offered to the model, in the order the server registers them. */
export const MODEL_TOOLS = ['omni_run', 'omni_retrieve', 'omni_stats', 'omni_remember', 'omni_recall', 'omni_goal'] as const;

/** Does `omni mcp` with these arguments offer the model tools? Bare: yes; with --hook-tool: only with --mcp-tools. */
export function offersModelTools(args: readonly string[]): boolean {
  return args.includes(MCP_TOOLS_FLAG) || !args.includes('--hook-tool');
}
