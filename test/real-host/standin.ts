/**
 * A loopback stand-in for the Anthropic Messages API: the real CLI's requests are recorded, and its replies scripted.
 *
 * Plays a fixed script of tool calls over SSE and records every request, so a test can read
 * the tool_result the real Claude Code CLI sent to the "model" after each step.
 */
import type { ServerResponse } from 'node:http';
import { serveLoopback } from './loopback.js';

export type Step =
  | { tool: string; input: Record<string, unknown> }
  | { text: string };

export interface RecordedRequest {
  seq: number;
  time: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  answered: { step: number | null; kind: 'tool' | 'text' | 'count_tokens' | 'models' | '404' };
}

export interface Standin {
  port: number;
  url: string;
  requests: RecordedRequest[];
  /** The tool-use id the stand-in gives step `i` (embedded step number, `toolu_` prefix). */
  toolUseId(step: number): string;
  close(): Promise<void>;
}

export interface StandinOptions {
  /** Answer for count_tokens (decides Read's token cap). Default: small. */
  countTokens?: (body: any) => number;
  /** Tag mixed into tool-use ids, so ids differ between runs. */
  tag?: string;
}

function sse(res: ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

function message(model: string, id: string, block: Record<string, unknown>, delta: Record<string, unknown>, stop: string) {
  return [
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: block },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } },
    { type: 'message_stop' },
  ];
}

/** Step to play = number of assistant messages that contain a tool_use block. */
export function stepOf(body: any): number {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  let n = 0;
  for (const m of msgs) {
    if (m?.role !== 'assistant' || !Array.isArray(m.content)) continue;
    if (m.content.some((b: any) => b?.type === 'tool_use')) n++;
  }
  return n;
}

export async function startStandin(script: Step[], opts: StandinOptions = {}): Promise<Standin> {
  const requests: RecordedRequest[] = [];
  const tag = opts.tag ?? 'e2e';
  const toolUseId = (step: number) => `toolu_${tag}_${String(step).padStart(2, '0')}_${String(step + 1).padStart(4, '0')}`;
  let seq = 0;
  let msgSeq = 0;

  const server = await serveLoopback((req, body, res) => {
    const path = (req.url ?? '').split('?')[0];
    const rec: RecordedRequest = {
      seq: ++seq,
      time: new Date().toISOString(),
      method: req.method ?? '',
      url: req.url ?? '',
      headers: {
        'anthropic-version': req.headers['anthropic-version'],
        'anthropic-beta': req.headers['anthropic-beta'],
        'x-app': req.headers['x-app'],
        'user-agent': req.headers['user-agent'],
      },
      body,
      answered: { step: null, kind: '404' },
    };
    requests.push(rec);
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      rec.answered.kind = 'count_tokens';
      const n = opts.countTokens ? opts.countTokens(body) : 100;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: n }));
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      rec.answered.kind = 'models';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ type: 'model', id: 'claude-opus-5-5', display_name: 'stand-in', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: null, last_id: null }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      const model = typeof body?.model === 'string' ? body.model : 'claude-opus-5-5';
      const id = `msg_${String(++msgSeq).padStart(4, '0')}`;
      const hasBash = Array.isArray(body?.tools) && body.tools.some((t: any) => t?.name === 'Bash');
      const step = stepOf(body);
      const s = hasBash ? script[step] : undefined;
      if (s && 'tool' in s) {
        rec.answered = { step, kind: 'tool' };
        const events = message(
          model,
          id,
          { type: 'tool_use', id: toolUseId(step), name: s.tool, input: {} },
          { type: 'input_json_delta', partial_json: JSON.stringify(s.input) },
          'tool_use',
        );
        if (body?.stream === false) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: [{ type: 'tool_use', id: toolUseId(step), name: s.tool, input: s.input }], stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 10 } }));
          return;
        }
        sse(res, events);
        return;
      }
      const text = s && 'text' in s ? s.text : 'All steps done.';
      rec.answered = { step: hasBash ? step : null, kind: 'text' };
      if (body?.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 10 } }));
        return;
      }
      sse(res, message(model, id, { type: 'text', text: '' }, { type: 'text_delta', text }, 'end_turn'));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `stand-in: no route for ${req.method} ${path}` } }));
  });
  const port = server.port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    toolUseId,
    close: server.close,
  };
}

/** The text of the first tool_result for `toolUseId` in any recorded request (what the model saw). */
export function toolResultFor(requests: RecordedRequest[], toolUseId: string): { text: string; isError: boolean; requestSeq: number } | null {
  for (const r of requests) {
    const msgs = Array.isArray(r.body?.messages) ? r.body.messages : [];
    for (const m of msgs) {
      if (m?.role !== 'user' || !Array.isArray(m.content)) continue;
      for (const b of m.content) {
        if (b?.type !== 'tool_result' || b.tool_use_id !== toolUseId) continue;
        const text =
          typeof b.content === 'string'
            ? b.content
            : Array.isArray(b.content)
              ? b.content.filter((x: any) => x?.type === 'text').map((x: any) => x.text).join('')
              : '';
        return { text, isError: b.is_error === true, requestSeq: r.seq };
      }
    }
  }
  return null;
}
