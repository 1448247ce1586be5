/**
 * Codex CLI's session logs, for `omni discover`: `$CODEX_HOME` (default `~/.codex`)
 * `sessions/**\/rollout-*.jsonl`, whose `item_completed` CommandExecution records carry the
 * command, its output and its exit code.
 */
import { basename, join, resolve } from 'node:path';
import { isObject, type PostShellInput } from '../adapter.js';
import { filesUnder, MAX_PENDING_CALLS, MAX_SEEN_RESULTS, timeOf, type Call, type HostLog, type LogReader } from '../session-log.js';
import { codex } from './adapter.js';
import { codexHome } from './install.js';

function codexCommand(cmd: unknown): string {
  if (typeof cmd === 'string') return cmd;
  if (!Array.isArray(cmd) || !cmd.every((w) => typeof w === 'string')) return '';
  // `["/bin/bash", "-lc", "<line>"]`: the line is what the model asked for.
  if (cmd.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(cmd[0]) && /^-l?c$/.test(cmd[1])) return cmd[2];
  return cmd.join(' ');
}

/**
 * The text Codex hands a PostToolUse hook as `tool_response`: the model's function_call_output
 * without Codex's frame (chunk id, wall time, exit line, token count, `Output:`).
 */
export function codexBody(output: string): string {
  const at = output.indexOf('\nOutput:\n');
  return at >= 0 && output.startsWith('Chunk ID:') ? output.slice(at + '\nOutput:\n'.length) : output;
}

/**
 * Codex: an `item_completed` CommandExecution record (command, exit code, cwd) comes first, then
 * the `function_call_output` the model was sent, with the same call id. The replay distils the
 * latter's body, as the hook does with `tool_response`; the record's `aggregated_output` (up to
 * 64 KiB, more than the model saw) stands in only when the output never came.
 */
function codexReader(file: string, opts: { from: number; project: string | null }, seen: Set<string>): LogReader {
  let sessionId = basename(file, '.jsonl');
  let cwd = '';
  const pending = new Map<string, { command: string; exit: number | null; cwd: string; fallback: string }>();
  const callOf = (id: string, item: { command: string; exit: number | null; cwd: string }, output: string): Call[] => {
    const key = `codex:${sessionId}:${id}`;
    if (seen.has(key)) return [];
    if (seen.size < MAX_SEEN_RESULTS) seen.add(key);
    if (opts.project && resolve(item.cwd || '/') !== resolve(opts.project)) return [];
    // A failure, or an exit the log does not say: the hook leaves it untouched.
    if (item.exit !== 0) return [{ host: 'codex', tool: 'shell', command: item.command, failed: item.exit !== null, failureText: output, payload: {}, input: null, file }];
    const input: PostShellInput = { host: 'codex', event: 'PostToolUse', sessionId, agentId: 'main', cwd: item.cwd || undefined, kind: 'post-tool', tool: 'shell', command: item.command, output, failed: false, exitCode: 0 };
    return [{ host: 'codex', tool: 'shell', command: item.command, failed: false, failureText: null, payload: { hook_event_name: 'PostToolUse', tool_response: output }, input, file }];
  };
  const r: LogReader & { end(): Call[] } = {
    unpaired: 0,
    feed(rec) {
      const p = rec.payload;
      if (!isObject(p)) return [];
      if (rec.type === 'session_meta' && typeof p.id === 'string') sessionId = p.id;
      if (rec.type === 'turn_context' && typeof p.cwd === 'string') cwd = p.cwd;
      const at = timeOf(rec);
      if (rec.type === 'event_msg' && p.type === 'item_completed' && isObject(p.item) && p.item.type === 'CommandExecution') {
        const item = p.item;
        if (typeof item.id !== 'string' || (at !== null && at < opts.from)) return [];
        pending.set(item.id, {
          command: codexCommand(item.command),
          exit: typeof item.exit_code === 'number' ? item.exit_code : null,
          cwd: typeof item.cwd === 'string' ? item.cwd.replace(/^file:\/\//, '') : cwd,
          fallback: typeof item.aggregated_output === 'string' ? item.aggregated_output : '',
        });
        if (pending.size > MAX_PENDING_CALLS) pending.delete(pending.keys().next().value as string);
        return [];
      }
      if (rec.type === 'response_item' && p.type === 'function_call_output' && typeof p.call_id === 'string') {
        const item = pending.get(p.call_id);
        if (!item) return [];
        pending.delete(p.call_id);
        const out = typeof p.output === 'string' ? p.output : isObject(p.output) && typeof p.output.content === 'string' ? p.output.content : null;
        return out === null ? [] : callOf(p.call_id, item, codexBody(out));
      }
      return [];
    },
    end() {
      const calls = [...pending].flatMap(([id, item]) => callOf(id, item, item.fallback));
      pending.clear();
      return calls;
    },
  };
  return r;
}

export const codexLog: HostLog = {
  id: 'codex',
  adapter: codex,
  dir: codexHome,
  files: (env) => filesUnder(join(codexHome(env), 'sessions'), (n) => n.startsWith('rollout-') && n.endsWith('.jsonl')),
  reader: codexReader,
};
