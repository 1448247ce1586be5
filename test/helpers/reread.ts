/**
 * Reads a Read reply back the way the model must: the host numbers `content` from `startLine`;
 * omni's lines say which lines are as the reader read them before (at which numbers then) and
 * which it is shown now. From the reader's earlier view and the reply, this rebuilds the lines
 * read now, or says why it cannot; a checker that knows nothing of how omni plans a re-read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../lib/store/open.js';
import { getBlob } from '../../lib/store/archive.js';
import { CLAUDE_SAMPLES } from './samples.js';

/** A hook env over a fresh store in a temporary HOME, removed after the test. */
export function storeHome(t: { teardown(fn: () => void): void }, prefix: string): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { OMNI_HOME: join(dir, 'omni'), HOME: dir, PATH: process.env.PATH } as NodeJS.ProcessEnv;
}

/** What a handle retrieves from the env's store (null: nothing). */
export function blobOf(env: NodeJS.ProcessEnv): (h: string) => string | null {
  return (h) => {
    const s = openStore({ home: env.OMNI_HOME! });
    try {
      return getBlob(s, h)?.toString('utf8') ?? null;
    } finally {
      s.close();
    }
  };
}

/** A Claude Code PostToolUse Read payload for `content` read from `startLine` of a file of `totalLines` lines. */
export function readPayload(session: string, path: string, content: string, startLine: number, totalLines: number, agent?: string): Record<string, any> {
  const p = JSON.parse(readFileSync(join(CLAUDE_SAMPLES, 'PostToolUse.Read.whole-file.json'), 'utf8'));
  p.session_id = session;
  if (agent) p.agent_id = agent;
  p.tool_input = { file_path: path, ...(startLine > 1 || content.split('\n').length < totalLines ? { offset: startLine, limit: content.split('\n').length } : {}) };
  p.tool_response.file = { filePath: path, content, numLines: content.split('\n').length, startLine, totalLines };
  return p;
}

/** The lines of a file as the host numbers them, and a part of them as the host reads it. */
export function fileRead(fileText: string, startLine = 1, count = Infinity): { content: string; startLine: number; totalLines: number } {
  const lines = fileText.split('\n');
  const part = lines.slice(startLine - 1, startLine - 1 + count);
  return { content: part.join('\n'), startLine, totalLines: lines.length };
}

/** `lines 3-9` or `line 3`: two groups, first and last. */
const R = 'lines? (\\d+)(?:-(\\d+))?';
const HANDLE = ' — omni retrieve ([0-9a-f]{16})\\]$';
const AT = 'at \\d\\d:\\d\\d:\\d\\d';
/** When the reader came to hold the lines: a Read, or its own Edit or Write. */
const SINCE = '(?:you read (?:them|it)|your edit|you wrote (?:them|it))';
const UNCHANGED = new RegExp(`^\\[omni: ${R}: unchanged since ${SINCE} ${AT}(?: \\(then ${R}\\))?${HANDLE}`);
const CHANGED = new RegExp(`^\\[omni: changed since ${SINCE} ${AT}: (.*); (?:whole file|${R} in full)${HANDLE}`);
const HELD = `${R}(?: (?:are|is) your ${R})? as you (?:read|left|wrote) (?:them|it)`;
const TAIL = new RegExp(`^\\[omni: ${HELD}${HANDLE}`);
/** The line ledger's head fold of a Read: the lines it hides are the handle's bytes. */
const HEAD_FOLD = new RegExp(`^\\[omni: ${R}: .*${HANDLE}`);

const span = (a?: string, b?: string): [number, number] => [Number(a), Number(b ?? a)];

export interface Rebuilt {
  /** The lines read now, by number, as the reply and the earlier view say they are. */
  lines: Map<number, string>;
  handles: string[];
  problems: string[];
}

/**
 * Rebuilds the lines of a read from `view` (what the reader held, by number) and the reply's
 * numbered content. `blob` gives a handle's bytes (for the line ledger's head fold).
 */
export function rebuild(view: Map<number, string>, reply: { content: string; startLine: number }, blob: (h: string) => string | null): Rebuilt {
  const out = new Map<number, string>();
  const handles: string[] = [];
  const problems: string[] = [];
  const copy = (now: [number, number], was: [number, number], why: string) => {
    if (now[1] - now[0] !== was[1] - was[0]) problems.push(`${why}: lines ${now} and your lines ${was} differ in length`);
    for (let i = 0; i <= now[1] - now[0]; i++) {
      const v = view.get(was[0] + i);
      if (v === undefined) problems.push(`${why}: your line ${was[0] + i} was never shown`);
      out.set(now[0] + i, v ?? '');
    }
  };
  const rows = reply.content.split('\n');
  let window: [number, number] | null = null;
  for (let i = 0; i < rows.length; i++) {
    const n = reply.startLine + i;
    const text = rows[i];
    let m: RegExpExecArray | null;
    if (!text.startsWith('[omni:')) {
      out.set(n, text);
      if (window && (n < window[0] || n > window[1])) problems.push(`line ${n} is shown outside the window ${window}`);
      continue;
    }
    if ((m = UNCHANGED.exec(text))) {
      handles.push(m[5]);
      const now = span(m[1], m[2]);
      copy(now, m[3] ? span(m[3], m[4]) : now, 'unchanged');
      if (n !== now[1]) problems.push(`the unchanged marker stands at ${n}, not at the last line it names (${now[1]})`);
    } else if ((m = CHANGED.exec(text))) {
      handles.push(m[4]);
      for (const part of m[1].split(', ')) {
        let p: RegExpExecArray | null;
        if ((p = new RegExp(`^${HELD}$`).exec(part))) {
          const now = span(p[1], p[2]);
          copy(now, p[3] ? span(p[3], p[4]) : now, 'head');
          if (now[1] !== n) problems.push(`the header stands at ${n}, not at the last line of the head (${now[1]})`);
        } else if ((p = new RegExp(`^${R} below(?: replaces? your ${R}| (?:are|is) new)?$`).exec(part))) {
          window = span(p[1], p[2]);
          if (window[0] !== n + 1) problems.push(`the window says it starts at ${window[0]}, the host numbers it from ${n + 1}`);
        } else if (!new RegExp(`^your ${R} (?:are|is) gone$`).test(part)) problems.push(`unknown part ${JSON.stringify(part)}`);
      }
    } else if ((m = TAIL.exec(text))) {
      handles.push(m[5]);
      const now = span(m[1], m[2]);
      copy(now, m[3] ? span(m[3], m[4]) : now, 'tail');
      if (n !== now[0]) problems.push(`the tail marker stands at ${n}, not at the first line it names (${now[0]})`);
    } else if ((m = HEAD_FOLD.exec(text))) {
      handles.push(m[3]);
      const now = span(m[1], m[2]);
      const b = blob(m[3]);
      if (b === null) problems.push(`handle ${m[3]} retrieves nothing`);
      const ls = (b ?? '').replace(/\n$/, '').split('\n');
      if (ls.length !== now[1] - now[0] + 1) problems.push(`head fold of lines ${now}: ${ls.length} lines retrieved`);
      ls.forEach((l, k) => out.set(now[0] + k, l));
    } else problems.push(`an omni line nobody can read: ${text}`);
  }
  return { lines: out, handles, problems };
}

/** Lines `startLine…` of a content, by number (the host's empty line after a final newline left out). */
export function numberedLines(content: string, startLine: number): Map<number, string> {
  const ls = content.split('\n');
  if (content.endsWith('\n')) ls.pop();
  return new Map(ls.map((l, i) => [startLine + i, l]));
}
