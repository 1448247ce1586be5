/**
 * Claude Code's session logs, for `omni discover`: `$CLAUDE_CONFIG_DIR` (default `~/.claude`)
 * `projects/<slug>/**.jsonl`, each Bash/Read `tool_use` paired with its `tool_result` by id (the
 * record's `toolUseResult` is the tool_response a PostToolUse hook gets). A persisted output
 * lies beside the log.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { readdirSync } from 'node:fs';
import { isObject, type JsonObject } from '../adapter.js';
import { readRegularFile, RefusedFile } from '../read-text.js';
import { filesUnder, MAX_PENDING_CALLS, MAX_SEEN_RESULTS, textOf, timeOf, type Call, type HostLog, type LogReader } from '../session-log.js';
import { claude } from './adapter.js';
import { claudeDir } from './settings.js';

/** Claude Code's folder name for a project: every non-alphanumeric character becomes '-'. */
export function claudeSlug(dir: string): string {
  return resolve(dir).replace(/[^A-Za-z0-9]/g, '-');
}

/** Claude Code: `assistant` records hold tool_use blocks, `user` records the tool_result. */
function claudeReader(file: string, opts: { from: number }, seen: Set<string>): LogReader {
  const pending = new Map<string, { name: string; input: JsonObject }>();
  const r: LogReader = {
    unpaired: 0,
    feed(rec) {
      const content = isObject(rec.message) ? rec.message.content : undefined;
      if (!Array.isArray(content)) return [];
      if (rec.type === 'assistant') {
        for (const b of content) {
          if (!isObject(b) || b.type !== 'tool_use' || typeof b.id !== 'string' || !isObject(b.input)) continue;
          if (b.name !== 'Bash' && b.name !== 'Read') continue;
          pending.set(b.id, { name: b.name, input: b.input });
          if (pending.size > MAX_PENDING_CALLS) pending.delete(pending.keys().next().value as string);
        }
        return [];
      }
      if (rec.type !== 'user') return [];
      const calls: Call[] = [];
      for (const b of content) {
        if (!isObject(b) || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
        const use = pending.get(b.tool_use_id);
        if (!use) {
          r.unpaired++;
          continue;
        }
        pending.delete(b.tool_use_id);
        const at = timeOf(rec);
        if (at !== null && at < opts.from) continue;
        if (seen.has(b.tool_use_id)) continue;
        if (seen.size < MAX_SEEN_RESULTS) seen.add(b.tool_use_id);
        const command = use.name === 'Bash' ? (typeof use.input.command === 'string' ? use.input.command : '') : `Read ${String(use.input.file_path ?? '')}`;
        const tool = use.name === 'Bash' ? 'shell' : 'read';
        if (b.is_error === true) {
          calls.push({ host: 'claude', tool, command, failed: true, failureText: textOf(b.content), payload: {}, input: null, file });
          continue;
        }
        // The PostToolUse payload the hook would have got for this call.
        const payload: JsonObject = {
          hook_event_name: 'PostToolUse',
          session_id: typeof rec.sessionId === 'string' ? rec.sessionId : basename(file, '.jsonl'),
          transcript_path: file,
          cwd: typeof rec.cwd === 'string' ? rec.cwd : '',
          tool_name: use.name,
          tool_input: use.input,
          tool_response: rec.toolUseResult as JsonObject,
          tool_use_id: b.tool_use_id,
          ...(typeof rec.agentId === 'string' && rec.isSidechain === true ? { agent_id: rec.agentId } : {}),
        };
        const input = claude.read(payload);
        const ok = input && input.kind === 'post-tool' && (input.tool === 'shell' || input.tool === 'read') ? input : null;
        calls.push({ host: 'claude', tool, command, failed: false, failureText: ok ? null : textOf(b.content), payload, input: ok, file });
      }
      return calls;
    },
  };
  return r;
}

/**
 * Claude Code keeps a persisted output beside the log: `<session>/tool-results/<name>`. Both
 * places come from the log's record, so either is read only as a regular file under the cap,
 * as the hook reads it. Throws when neither can be read (the hook then replies nothing and the
 * host's own preview stands).
 */
function persistedText(call: Call, path: string): string {
  const near = join(dirname(call.file), basename(call.file, '.jsonl'), 'tool-results', basename(path));
  for (const p of [near, path]) {
    try {
      return readRegularFile(p);
    } catch (err) {
      // Refused (a FIFO, a device, too large): the hook would not read it either.
      if (err instanceof RefusedFile) throw err;
      /* missing: try the next place */
    }
  }
  throw new Error(`no persisted output at ${path}`);
}

export const claudeLog: HostLog = {
  id: 'claude',
  adapter: claude,
  dir: claudeDir,
  files(env, project) {
    const projects = join(claudeDir(env), 'projects');
    const slug = project ? claudeSlug(project) : null;
    let slugs: string[] = [];
    try {
      slugs = readdirSync(projects).filter((s) => !slug || s === slug);
    } catch {
      /* no Claude Code history */
    }
    return slugs.flatMap((s) => filesUnder(join(projects, s), (n) => n.endsWith('.jsonl'), (n) => n === 'tool-results'));
  },
  reader: claudeReader,
  outputFile: persistedText,
};
