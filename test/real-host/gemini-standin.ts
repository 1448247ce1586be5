/**
 * A loopback stand-in for the Gemini API (generativelanguage v1beta), as Gemini CLI 0.61.0
 * calls it with `GOOGLE_GEMINI_BASE_URL` (docs/gemini-findings.md §1).
 *
 * Plays a fixed script of function calls and records every request, so a test can read the
 * functionResponse the real CLI sent to the "model" after each step.
 */
import { serveLoopback } from './loopback.js';

export type GeminiStep = { tool: string; args: Record<string, unknown> } | { text: string };

export interface GeminiRequest {
  seq: number;
  method: string;
  url: string;
  userAgent: string | undefined;
  body: any;
  answered: 'tool' | 'text' | 'router' | 'count_tokens' | '404';
}

export interface GeminiStandin {
  url: string;
  requests: GeminiRequest[];
  close(): Promise<void>;
}

/** Step to play = number of model turns in `contents` that hold a functionCall. */
export function stepOf(body: any): number {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  return contents.filter((c: any) => c?.role === 'model' && Array.isArray(c.parts) && c.parts.some((p: any) => p?.functionCall)).length;
}

function response(parts: unknown[]) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: 'stand-in',
  };
}

export async function startGeminiStandin(script: GeminiStep[]): Promise<GeminiStandin> {
  const requests: GeminiRequest[] = [];
  let seq = 0;
  const server = await serveLoopback((req, body, res) => {
    const path = (req.url ?? '').split('?')[0];
    const rec: GeminiRequest = { seq: ++seq, method: req.method ?? '', url: req.url ?? '', userAgent: req.headers['user-agent'], body, answered: '404' };
    requests.push(rec);
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    if (req.method === 'POST' && path.endsWith(':countTokens')) {
      rec.answered = 'count_tokens';
      return json(200, { totalTokens: 100 });
    }
    const stream = path.endsWith(':streamGenerateContent');
    if (req.method !== 'POST' || !(stream || path.endsWith(':generateContent'))) {
      return json(404, { error: { code: 404, message: `stand-in: no route for ${req.method} ${path}`, status: 'NOT_FOUND' } });
    }
    const hasShell = JSON.stringify(body?.tools ?? []).includes('run_shell_command');
    let parts: unknown[];
    if (!hasShell) {
      // The model router's classification request (it validates these two keys).
      rec.answered = 'router';
      parts = [{ text: JSON.stringify({ complexity_reasoning: 'stand-in', complexity_score: 1 }) }];
    } else {
      const s = script[stepOf(body)];
      if (s && 'tool' in s) {
        rec.answered = 'tool';
        parts = [{ functionCall: { name: s.tool, args: s.args } }];
      } else {
        rec.answered = 'text';
        parts = [{ text: s && 'text' in s ? s.text : 'All steps done.' }];
      }
    }
    if (!stream) return json(200, response(parts));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`data: ${JSON.stringify(response(parts))}\r\n\r\n`);
  });
  const port = server.port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: server.close,
  };
}

export interface FunctionResult {
  /** The key the CLI used: `output` (a result) or `error`. */
  key: 'output' | 'error' | string;
  text: string;
}

/** The functionResponses of the last scripted request, in call order (what the model saw). */
export function functionResults(requests: GeminiRequest[]): FunctionResult[] {
  const last = [...requests].reverse().find((r) => r.answered === 'tool' || r.answered === 'text');
  const contents = Array.isArray(last?.body?.contents) ? last!.body.contents : [];
  const out: FunctionResult[] = [];
  for (const c of contents) {
    for (const p of Array.isArray(c?.parts) ? c.parts : []) {
      const r = p?.functionResponse?.response;
      if (!r || typeof r !== 'object') continue;
      const key = 'output' in r ? 'output' : Object.keys(r)[0] ?? '';
      out.push({ key, text: typeof r[key] === 'string' ? r[key] : JSON.stringify(r[key]) });
    }
  }
  return out;
}
