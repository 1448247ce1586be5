/**
 * omni's MCP tools. omni_run starts the exec door; the others call the service under both the
 * CLI and MCP (lib/service/) and word its data as tool results. Nothing here distils, and
 * nothing runs a subcommand to read what it printed.
 */
import { statSync } from 'node:fs';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseHandle, retrieve, unknownHandle } from '../service/retrieve.js';
import { shown } from '../service/reveal.js';
import { DEFAULT_SINCE, badSince, statsOf, statsText, statsWindow } from '../service/stats.js';
import { formatBytes } from '../service/stats.js';
import { putBlob } from '../store/archive.js';
import { formatMarker } from '../kit/marker.js';
import { runViaExec, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, type ExecEntry } from './exec-child.js';
import { bytesContent, errorResult, textResult } from './result.js';
import { goal, project, recall, rememberFact, withStore } from './memory-tools.js';
import { resultCapBytes, type CappedResult } from './capped-output.js';
import { runRefusal } from './run-permission.js';
import { warmStore } from './hook-tool.js';
import type { OfferCost } from './offer-cost.js';

export interface ToolOptions {
  /** The project directory: default cwd for omni_run and the memory tools. */
  projectDir: string;
  env: NodeJS.ProcessEnv;
  /** How to start `omni exec` (default: this process's node and entry). */
  entry?: ExecEntry;
  /** Serve Claude Code's mcp_tool hook handlers too (`omni mcp --hook-tool`, ./hook-tool.ts). */
  hookTool?: boolean;
  /** Offer the model omni_run and the other tools here (`omni mcp` bare, or `--mcp-tools`). */
  modelTools?: boolean;
  /** What each model request pays for the offered tools; recorded per request seen (./offer-cost.ts). */
  cost?: OfferCost;
}

const cwdArg = (dir: string) => z.string().optional().describe(`Project directory (default ${dir})`);

/**
 * The output as the result carries it: whole when within the cap; past it the head and the
 * tail, and between them one marker naming the archived cut (or saying it could not be kept).
 */
export function cappedOutput(o: CappedResult, cap: number, archive: (bytes: Buffer) => string | null): Buffer {
  if (!o.cut) return o.head;
  const c = o.cut;
  const why = `${formatBytes(c.bytes)} cut from the middle of ${formatBytes(o.total)} of output: omni_run hands on at most ${formatBytes(cap)}, what the host takes of a tool result`;
  const part = c.kept.length < c.bytes ? `; the first ${formatBytes(c.kept.length)} of the cut archived, the rest not kept` : '';
  const handle = archive(c.kept);
  const line = handle ? formatMarker(why + part, handle) : `[omni: ${why}; not archived (the store could not take it)]`;
  const sep = o.head.length && o.head[o.head.length - 1] !== 0x0a ? '\n' : '';
  return Buffer.concat([o.head, Buffer.from(`${sep}${line}\n`), o.tail]);
}

export async function omniRun(opts: ToolOptions, a: { command: string; cwd?: string; timeout_ms?: number }): Promise<CallToolResult> {
  if (!a.command.trim()) return errorResult('omni_run: the command is empty');
  const cwd = project(opts.projectDir, a.cwd);
  try {
    if (!statSync(cwd).isDirectory()) return errorResult(`omni_run: cwd ${cwd} is not a directory`);
  } catch {
    return errorResult(`omni_run: cwd ${cwd} does not exist`);
  }
  // Before anything runs: a command the host's Bash rules deny or ask about is not run here either.
  const refused = runRefusal(a.command, [opts.projectDir, opts.env.CLAUDE_PROJECT_DIR, cwd], opts.env);
  if (refused) return errorResult(refused);
  const timeoutMs = a.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const capBytes = resultCapBytes(opts.env);
  const r = await runViaExec({ command: a.command, cwd, timeoutMs, env: opts.env, capBytes }, opts.entry);
  const output = cappedOutput(r.output, capBytes, (bytes) => {
    const got = withStore('run', (s) => textResult(putBlob(s, bytes, { kind: 'fold' })));
    return got.isError ? null : (got.content[0] as { text: string }).text;
  });
  const content = bytesContent(output, 'omni://run/output');
  const tail = r.timedOut ? `exit code: ${r.exitCode} (timed out after ${timeoutMs} ms)` : `exit code: ${r.exitCode}`;
  content.push({ type: 'text', text: tail });
  if (r.stderr.trim()) content.push({ type: 'text', text: r.stderr.trimEnd() });
  // A failing command is a successful tool call whose text says `exit code: N`, not an MCP error
  // result: Claude Code 2.1.332 cuts the middle out of an error result over ~10,000 characters
  // (measured: test/mcp/claude-mcp.test.ts), and a failure must reach the model verbatim.
  // isError is kept for omni's own errors (bad input, a directory that does not exist, a refusal).
  // No structuredContent ({status, result}) on purpose: Claude Code 2.1.332 hands the model the
  // structured JSON instead of the text when both are present (measured with
  // test/mcp/claude-mcp.test.ts), so the output would arrive JSON-escaped. The status is the
  // `exit code: N` item.
  return { content, isError: false };
}

/** Always masked: a tool's caller is a model (a person reads secrets with `omni retrieve --reveal`). */
export async function omniRetrieve(a: { handle: string }): Promise<CallToolResult> {
  const handle = a.handle.trim();
  if (!handle || handle.startsWith('-')) return errorResult(`omni_retrieve: '${a.handle}' is not a handle (expected the 16 hex characters after "omni retrieve" in a marker)`);
  const h = parseHandle(handle);
  if (h === null) return errorResult(`omni retrieve: '${handle}' is not a handle (expected 16 hex characters)`);
  return withStore('retrieve', (s) => {
    const data = retrieve(s, h);
    return data ? { content: bytesContent(shown(data, false), `omni://retrieve/${handle}`) } : errorResult(`omni retrieve: ${unknownHandle(h)}`);
  });
}

export async function omniStats(a: { since?: string }): Promise<CallToolResult> {
  const since = a.since ?? DEFAULT_SINCE;
  const w = statsWindow(since);
  if (w === null) return errorResult(badSince(since));
  return withStore('stats', (s) => textResult(statsText(w, statsOf(s, w)).trimEnd()));
}

export function registerTools(server: McpServer, opts: ToolOptions): void {
  const dir = opts.projectDir;
  // Each call is followed by a model request carrying the offered tools: counted before the
  // call runs, so omni_stats already includes its own.
  const counted = <A>(fn: (a: A) => CallToolResult | Promise<CallToolResult>) => (a: A) => {
    opts.cost?.record(warmStore(opts.env).get(), null);
    return fn(a);
  };
  server.registerTool(
    'omni_run',
    {
      description:
        'Run a shell command (sh -c) and get its output distilled: noise folded into markers, failures, warnings and the verdict kept. ' +
        'A failing command (non-zero exit) returns its exact output. Use it for test runners, builds, installs and long logs.',
      inputSchema: {
        command: z.string().describe('The command line'),
        cwd: z.string().optional().describe(`Directory to run in (default ${dir})`),
        timeout_ms: z.number().int().positive().max(MAX_TIMEOUT_MS).optional().describe(`Kill the command after this long (default ${DEFAULT_TIMEOUT_MS})`),
      },
    },
    counted((a: { command: string; cwd?: string; timeout_ms?: number }) => omniRun(opts, a)),
  );
  server.registerTool(
    'omni_retrieve',
    {
      description: 'The original bytes a marker stands for, with secret values masked as delivery masks them: pass the handle from "[omni: … — omni retrieve <handle>]".',
      inputSchema: { handle: z.string().describe('16 hex characters') },
      annotations: { readOnlyHint: true },
    },
    counted(omniRetrieve),
  );
  server.registerTool(
    'omni_stats',
    {
      description: 'Bytes in, delivered and saved by omni, per command family and per door.',
      inputSchema: { since: z.string().optional().describe("Period: 30m, 24h, 7d (default), 2w or 'all'") },
      annotations: { readOnlyHint: true },
    },
    counted(omniStats),
  );
  server.registerTool(
    'omni_remember',
    {
      description: 'Remember a fact about this project for later sessions.',
      inputSchema: { fact: z.string().describe('One short fact'), cwd: cwdArg(dir) },
    },
    counted((a: { fact: string; cwd?: string }) => rememberFact(project(dir, a.cwd), a.fact)),
  );
  server.registerTool(
    'omni_recall',
    {
      description: "This project's remembered facts and pinned goal.",
      inputSchema: { cwd: cwdArg(dir) },
      annotations: { readOnlyHint: true },
    },
    counted((a: { cwd?: string }) => recall(project(dir, a.cwd))),
  );
  server.registerTool(
    'omni_goal',
    {
      description: "Show, pin (text) or clear (clear: true) this project's goal.",
      inputSchema: { text: z.string().optional().describe('The goal to pin'), clear: z.boolean().optional().describe('Unpin the goal'), cwd: cwdArg(dir) },
    },
    counted((a: { text?: string; clear?: boolean; cwd?: string }) => goal(project(dir, a.cwd), a)),
  );
}
