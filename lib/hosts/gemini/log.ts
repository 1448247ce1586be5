/**
 * Gemini CLI's session logs, for `omni discover`: `$GEMINI_CLI_HOME` (default `~`)
 * `.gemini/tmp/<project>/chats/session-*.jsonl`, whose messages carry each tool call with its
 * result.
 */
import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { isObject, type JsonObject } from '../adapter.js';
import { filesUnder, MAX_SEEN_RESULTS, timeOf, type Call, type HostLog, type LogReader } from '../session-log.js';
import { gemini } from './adapter.js';
import { geminiDir } from './install.js';

/** Gemini CLI names a project by the SHA-256 of its path. */
export function geminiProjectHash(dir: string): string {
  return createHash('sha256').update(resolve(dir)).digest('hex');
}

/**
 * Gemini CLI: a chat log's first record names the session and the project (by hash); a
 * `gemini` message record carries its tool calls, each with its args and its result (the
 * record is written again as it grows, so a call is taken once, when it has its result).
 */
function geminiReader(file: string, opts: { from: number; project: string | null }, seen: Set<string>): LogReader {
  let sessionId = basename(file, '.jsonl');
  let projectHash: string | null = null;
  const wanted = opts.project ? geminiProjectHash(opts.project) : null;
  return {
    unpaired: 0,
    feed(rec) {
      if (typeof rec.sessionId === 'string' && typeof rec.projectHash === 'string') {
        sessionId = rec.sessionId;
        projectHash = rec.projectHash;
        return [];
      }
      if (!Array.isArray(rec.toolCalls)) return [];
      if (wanted && projectHash !== wanted) return [];
      const calls: Call[] = [];
      for (const tc of rec.toolCalls) {
        if (!isObject(tc) || tc.name !== 'run_shell_command' || typeof tc.id !== 'string' || !isObject(tc.args) || !Array.isArray(tc.result)) continue;
        const fr = tc.result.map((r) => (isObject(r) && isObject(r.functionResponse) ? r.functionResponse : null)).find((r) => r !== null);
        const response = fr && isObject(fr.response) ? fr.response : null;
        if (!response) continue;
        const key = `gemini:${sessionId}:${tc.id}`;
        if (seen.has(key)) continue;
        const at = timeOf(tc) ?? timeOf(rec);
        if (at !== null && at < opts.from) continue;
        if (seen.size < MAX_SEEN_RESULTS) seen.add(key);
        const llmContent = typeof response.output === 'string' ? response.output : '';
        const error = tc.status === 'error' || (response.error !== undefined && response.error !== null);
        // The AfterTool payload the hook would have got for this call.
        const payload: JsonObject = {
          hook_event_name: 'AfterTool',
          session_id: sessionId,
          transcript_path: file,
          timestamp: typeof tc.timestamp === 'string' ? tc.timestamp : new Date(at ?? 0).toISOString(),
          tool_name: 'run_shell_command',
          tool_input: tc.args,
          tool_response: { llmContent, returnDisplay: typeof tc.resultDisplay === 'string' ? tc.resultDisplay : '', ...(error ? { error: response.error ?? 'error' } : {}) },
        };
        const input = gemini.read(payload);
        const shell = input && input.kind === 'post-tool' && input.tool === 'shell' ? input : null;
        const command = typeof tc.args.command === 'string' ? tc.args.command : '';
        // A failure, or a status the framing does not say: the hook leaves it untouched.
        if (!shell || shell.failed !== false) calls.push({ host: 'gemini', tool: 'shell', command, failed: shell?.failed === true, failureText: shell ? shell.output : llmContent, payload, input: null, file });
        else calls.push({ host: 'gemini', tool: 'shell', command, failed: false, failureText: null, payload, input: shell, file });
      }
      return calls;
    },
  };
}

export const geminiLog: HostLog = {
  id: 'gemini',
  adapter: gemini,
  dir: geminiDir,
  files: (env) => filesUnder(join(geminiDir(env), 'tmp'), (n) => n.startsWith('session-') && n.endsWith('.jsonl')).filter((c) => basename(dirname(c)) === 'chats'),
  reader: geminiReader,
};
