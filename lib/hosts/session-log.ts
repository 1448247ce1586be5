/**
 * A host's own session logs, read back for `omni discover`: each host folder exports one
 * `HostLog` (where its logs lie, and a reader that turns their records into the tool results
 * the host's hooks would have got), and ./logs.ts lists them. Cold path: no hook loads this.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, type HostAdapter, type HostId, type JsonObject, type PostReadInput, type PostShellInput } from './adapter.js';

/** Tool calls whose result has not come yet, kept for pairing; the oldest go first past this. */
export const MAX_PENDING_CALLS = 100_000;
/** Results already replayed (a resumed session's file repeats its history), for deduplication. */
export const MAX_SEEN_RESULTS = 2_000_000;

/** One tool result as the host kept it, ready to replay. */
export interface Call {
  host: HostId;
  tool: 'shell' | 'read';
  command: string;
  /** The host said it failed: delivered verbatim, never distilled. */
  failed: boolean;
  /** The text left as it was (a failure, or a result the hook would not touch); null when replayed. */
  failureText: string | null;
  /** The hook payload rebuilt from the record (the reply writers read it). */
  payload: JsonObject;
  /** The hook door's reading of the payload, when the result is to be replayed. */
  input: PostShellInput | PostReadInput | null;
  /** Where the host's log lies (Claude Code keeps persisted outputs beside it). */
  file: string;
}

/** Reads one log, fed one parsed record at a time. */
export interface LogReader {
  /** Calls found in this record. */
  feed(rec: JsonObject): Call[];
  /** Calls still held when the file ends. */
  end?(): Call[];
  unpaired: number;
}

export interface LogOptions {
  /** Results before this time (ms) are not taken. */
  from: number;
  /** Only this project's results, when set. */
  project: string | null;
}

export interface HostLog {
  id: HostId;
  /** The adapter the replay hands each result to, as the hook would. */
  adapter: HostAdapter;
  /** Where the host keeps its logs. */
  dir(env: NodeJS.ProcessEnv): string;
  /** Its log files there (all of them, or those of `project` where the folder names it). */
  files(env: NodeJS.ProcessEnv, project: string | null): string[];
  /** A reader for one log; `seen` is shared by every log of the replay (a result is taken once). */
  reader(file: string, opts: LogOptions, seen: Set<string>): LogReader;
  /** The whole output a result's payload points at (`outputFile`), as the hook would read it. */
  outputFile?(call: Call, path: string): string;
}

/** The files below `dir` whose name `keep` holds, not entering folders `skipDir` names. */
function walk(dir: string, keep: (name: string) => boolean, skipDir: (name: string) => boolean, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!skipDir(e.name)) walk(p, keep, skipDir, out);
    } else if (e.isFile() && keep(e.name)) out.push(p);
  }
}

/** The files below `dir` whose name `keep` holds. */
export function filesUnder(dir: string, keep: (name: string) => boolean, skipDir: (name: string) => boolean = () => false): string[] {
  const out: string[] = [];
  walk(dir, keep, skipDir, out);
  return out;
}

/** A record's (or a call's) `timestamp` in ms, or null. */
export function timeOf(rec: JsonObject): number | null {
  const t = typeof rec.timestamp === 'string' ? Date.parse(rec.timestamp) : NaN;
  return Number.isNaN(t) ? null : t;
}

/** The text of a tool result's content: a string, or its text blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (isObject(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n');
  return '';
}
