/**
 * A loopback stand-in for the OpenAI Responses API (`POST /v1/responses`, SSE), for the real
 * Codex CLI (docs/codex-findings.md §1).
 *
 * Plays a fixed script: step i is a function call (Codex's shell tool is `exec_command` with
 * `{cmd}`) or a final assistant message. The step to play is the number of function calls
 * already in the request's `input`. Every request body is recorded, so a test reads the
 * `function_call_output` Codex sent to the "model" for each call.
 */
import type { ServerResponse } from 'node:http';
import { serveLoopback } from './loopback.js';

export type CodexStep =
  /** A shell command through Codex's `exec_command` tool (extra arguments in `args`). */
  | { cmd: string; args?: Record<string, unknown> }
  /** Any other function call; `"$SESSION"` in args becomes the last unified-exec session id. */
  | { tool: string; args: Record<string, unknown> }
  | { text: string };

export interface CodexRequest {
  seq: number;
  method: string;
  url: string;
  body: any;
  answered: { step: number | null; kind: 'call' | 'text' | '404' };
}

export interface CodexStandin {
  port: number;
  /** base_url for config.toml. */
  baseUrl: string;
  requests: CodexRequest[];
  callId(step: number): string;
  close(): Promise<void>;
}

const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

export function stepOf(body: any): number {
  const input = Array.isArray(body?.input) ? body.input : [];
  return input.filter((i: any) => CALL_TYPES.has(i?.type)).length;
}

/** The session id of the last `Process running with session ID N` the model was shown. */
function lastSession(body: any): number {
  let id = 0;
  for (const i of Array.isArray(body?.input) ? body.input : []) {
    if (i?.type !== 'function_call_output' || typeof i.output !== 'string') continue;
    const m = /Process running with session ID (\d+)/.exec(i.output);
    if (m) id = Number(m[1]);
  }
  return id;
}

function sse(res: ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

export async function startCodexStandin(script: CodexStep[], opts: { tag?: string } = {}): Promise<CodexStandin> {
  const requests: CodexRequest[] = [];
  const tag = opts.tag ?? 'e2e';
  const callId = (step: number) => `call_${tag}_${String(step).padStart(2, '0')}`;
  let seq = 0;
  let n = 0;
  const server = await serveLoopback((req, body, res) => {
    const rec: CodexRequest = { seq: ++seq, method: req.method ?? '', url: req.url ?? '', body, answered: { step: null, kind: '404' } };
    requests.push(rec);
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/responses') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stand-in: no route for ${req.method} ${path}` } }));
      return;
    }
    const step = stepOf(body);
    const s = script[step];
    const rid = `resp_${++n}`;
    let item: Record<string, unknown>;
    if (s && !('text' in s)) {
      const name = 'cmd' in s ? 'exec_command' : s.tool;
      const args = 'cmd' in s ? { cmd: s.cmd, ...(s.args ?? {}) } : s.args;
      const json = JSON.stringify(args).split('"$SESSION"').join(String(lastSession(body)));
      item = { type: 'function_call', id: `fc_${n}`, call_id: callId(step), name, arguments: json, status: 'completed' };
      rec.answered = { step, kind: 'call' };
    } else {
      const text = s && 'text' in s ? s.text : 'All steps done.';
      item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
      rec.answered = { step, kind: 'text' };
    }
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
    sse(res, [
      { type: 'response.created', response: { id: rid } },
      { type: 'response.output_item.added', output_index: 0, item },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { id: rid, usage } },
    ]);
  });
  const port = server.port;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    callId,
    close: server.close,
  };
}

/** What the model was sent for a call: the first `function_call_output` for `callId`. */
export function outputFor(requests: CodexRequest[], callId: string): { text: string; requestSeq: number } | null {
  for (const r of requests) {
    const input = Array.isArray(r.body?.input) ? r.body.input : [];
    for (const i of input) {
      if (i?.type !== 'function_call_output' || i.call_id !== callId) continue;
      const text = typeof i.output === 'string' ? i.output : Array.isArray(i.output) ? i.output.map((x: any) => x?.text ?? '').join('') : JSON.stringify(i.output);
      return { text, requestSeq: r.seq };
    }
  }
  return null;
}

/** Developer messages in the first request (where SessionStart context lands). */
export function developerTexts(requests: CodexRequest[]): string[] {
  const first = requests.find((r) => Array.isArray(r.body?.input));
  if (!first) return [];
  return first.body.input
    .filter((i: any) => i?.type === 'message' && i.role === 'developer')
    .flatMap((i: any) => (Array.isArray(i.content) ? i.content.map((c: any) => String(c?.text ?? '')) : []));
}
