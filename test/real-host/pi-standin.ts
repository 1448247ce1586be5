/**
 * A loopback stand-in for the OpenAI Chat Completions API, for the real Pi CLI (Pi's custom
 * providers speak `openai-completions`, docs/models.md).
 *
 * Plays a fixed script: step N (= the number of assistant messages with tool calls in the
 * request) answers with a `bash` tool call or a final text. Every request is recorded, so a
 * test reads the tool message Pi sent to the "model" after each step.
 */
import { serveLoopback } from './loopback.js';

/** One assistant turn: a bash call, several bash calls in one message (Pi runs them in parallel), or the final text. */
export type PiStep = { bash: string } | { parallel: string[] } | { text: string };

export interface PiRequest {
  seq: number;
  url: string;
  body: any;
  answered: { step: number | null; kind: 'tool' | 'text' | '404' };
}

export interface PiStandin {
  url: string;
  requests: PiRequest[];
  /** The tool-call id the stand-in gives step `i` (call `k` of a parallel step). */
  callId(step: number, k?: number): string;
  close(): Promise<void>;
}

/** Step to play = number of assistant messages that carry tool calls. */
export function stepOf(body: any): number {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  return msgs.filter((m: any) => m?.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0).length;
}

function chunk(id: string, model: string, choice: Record<string, unknown> | null, usage?: Record<string, number>) {
  return { id, object: 'chat.completion.chunk', created: 1_767_225_600, model, choices: choice ? [{ index: 0, ...choice }] : [], ...(usage ? { usage } : {}) };
}

export async function startPiStandin(script: PiStep[], tag = 'pi'): Promise<PiStandin> {
  const requests: PiRequest[] = [];
  const callId = (step: number, k = 0) => `call_${tag}_${String(step).padStart(2, '0')}${k ? `_${k}` : ''}`;
  let seq = 0;
  const server = await serveLoopback((req, body, res) => {
    const rec: PiRequest = { seq: ++seq, url: req.url ?? '', body, answered: { step: null, kind: '404' } };
    requests.push(rec);
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stand-in: no route for ${req.method} ${path}` } }));
      return;
    }
    const model = typeof body?.model === 'string' ? body.model : 'standin';
    const id = `chatcmpl-${tag}-${rec.seq}`;
    const step = stepOf(body);
    const s = script[step];
    const events: unknown[] = [];
    if (s && ('bash' in s || 'parallel' in s)) {
      rec.answered = { step, kind: 'tool' };
      const commands = 'bash' in s ? [s.bash] : s.parallel;
      const calls = commands.map((command, k) => ({ index: k, id: callId(step, k), type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }));
      events.push(chunk(id, model, { delta: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: null }));
      events.push(chunk(id, model, { delta: {}, finish_reason: 'tool_calls' }));
    } else {
      rec.answered = { step, kind: 'text' };
      const text = s && 'text' in s ? s.text : 'All steps done.';
      events.push(chunk(id, model, { delta: { role: 'assistant', content: text }, finish_reason: null }));
      events.push(chunk(id, model, { delta: {}, finish_reason: 'stop' }));
    }
    events.push(chunk(id, model, null, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  const port = server.port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    callId,
    close: server.close,
  };
}

/** The content of the first `tool` message for `callId` in any recorded request (what the model saw). */
export function toolMessageFor(requests: PiRequest[], callId: string): { text: string; requestSeq: number } | null {
  for (const r of requests) {
    const msgs = Array.isArray(r.body?.messages) ? r.body.messages : [];
    for (const m of msgs) {
      if (m?.role !== 'tool' || m.tool_call_id !== callId) continue;
      const text = typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('') : '';
      return { text, requestSeq: r.seq };
    }
  }
  return null;
}

/** The system prompt of the first chat request (system or developer role). */
export function systemPromptOf(requests: PiRequest[]): string | null {
  for (const r of requests) {
    const msgs = Array.isArray(r.body?.messages) ? r.body.messages : [];
    const m = msgs.find((x: any) => x?.role === 'system' || x?.role === 'developer');
    if (m) return typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  }
  return null;
}
