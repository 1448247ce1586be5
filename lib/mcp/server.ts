/**
 * omni's MCP server on a stdio transport: the model's tools of ./tools.ts when the user chose
 * them (`omni mcp` bare, or `--mcp-tools`), and the internal hook tool of ./hook-tool.ts with
 * `--hook-tool`. The server `omni init --claude` registers by default serves the hook tool alone
 * (denied to the model in permissions.deny) and no instructions: it offers the model nothing.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, type ToolOptions } from './tools.js';
import { killAllRuns } from './exec-child.js';
import { registerHookTool } from './hook-tool.js';
import { OfferCost, type ListedTool } from './offer-cost.js';
import { logDiagnostic } from '../store/diagnostics.js';

export const INSTRUCTIONS =
  'Run noisy commands (test runners, builds, installs, long logs) with omni_run: you get the signal, not the noise, ' +
  'and a failing command comes back verbatim with its exit code. Each marker "[omni: … — omni retrieve <handle>]" ' +
  'stands for removed lines; omni_retrieve with that handle returns them exactly.';

export function createServer(opts: ToolOptions): McpServer {
  // Instructions talk about omni_run: only a server that offers it sends them.
  const instructions = opts.modelTools ? INSTRUCTIONS : undefined;
  const server = new McpServer({ name: 'omni', version: process.env.OMNI_VERSION ?? 'dev' }, instructions ? { instructions } : {});
  if (opts.modelTools) registerTools(server, opts);
  if (opts.hookTool) registerHookTool(server, opts.env, undefined, opts.cost);
  return server;
}

/**
 * Serves on stdin/stdout until the client goes away or a signal arrives. When stdin ends,
 * calls in progress still answer first (a client may write its requests and close); a
 * signal kills any run still going.
 */
export async function serveStdio(opts: ToolOptions & { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream }): Promise<void> {
  const stdin = (opts.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (opts.stdout ?? process.stdout) as NodeJS.WriteStream;
  // What the tools offered to the model cost per request, from the tools/list answer sent.
  const cost = opts.cost ?? (opts.modelTools ? new OfferCost(opts.env, INSTRUCTIONS) : undefined);
  const server = createServer({ ...opts, cost });
  const transport = new StdioServerTransport(stdin, stdout);
  await new Promise<void>((resolve) => {
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      process.off('SIGINT', kill);
      process.off('SIGTERM', kill);
      killAllRuns();
      server.close().catch(() => {}).finally(resolve);
    };
    const kill = () => stop();
    // Requests received but not yet answered: the SDK keeps a callback set before connect().
    const pending = new Set<string | number>();
    // OMNI_HOOK_TRACE: each tools/call's time in this process, from the message read to the
    // answer written (bench/host-overhead.mjs sets it apart from the host's own span).
    const trace = opts.env.OMNI_HOOK_TRACE ? new Map<string | number, number>() : null;
    let draining = false;
    const maybeStop = () => { if (draining && pending.size === 0) stop(); };
    transport.onmessage = (m) => {
      if ('id' in m && 'method' in m) {
        pending.add(m.id);
        if (trace && m.method === 'tools/call') trace.set(m.id, performance.now());
      }
    };
    const send = transport.send.bind(transport);
    transport.send = async (m: JSONRPCMessage) => {
      const tools = 'result' in m ? (m.result as { tools?: unknown }).tools : undefined;
      if (cost && Array.isArray(tools)) cost.listed(tools as ListedTool[]);
      try {
        await send(m);
      } finally {
        if ('id' in m && m.id !== undefined && !('method' in m)) {
          const t0 = trace?.get(m.id);
          if (t0 !== undefined) {
            trace!.delete(m.id);
            logDiagnostic('mcp', `tools/call ${String(m.id)} answered in ${(performance.now() - t0).toFixed(2)} ms`, opts.env);
          }
          pending.delete(m.id);
          maybeStop();
        }
      }
    };
    const drain = () => { draining = true; maybeStop(); };
    transport.onclose = stop;
    stdin.on('end', drain);
    stdin.on('close', drain);
    process.on('SIGINT', kill);
    process.on('SIGTERM', kill);
    server.connect(transport).catch(stop);
  });
}
