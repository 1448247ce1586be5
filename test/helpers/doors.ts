/**
 * Door drivers for the rule properties (test/properties/): the same bytes through every door
 * omni has, each with a real SQLite store in a temp OMNI_HOME.
 *
 * - pipe:         the buffered pipeline (distillBuffer, door 'pipe'), in process.
 * - pipe-stream:  the real pipe door (runPipe) in process, fed in chunks with pauses.
 * - pipe-process: the real `omni pipe` process (the bundle).
 * - exec:         the real exec door (runExec) in process: a real child replays the bytes in
 *                 chunks with pauses (test/fixtures/replay/replay.sh, under the program names of
 *                 the corpus commands, first on PATH, so the command routes as the real one).
 * - exec-process: the real `omni exec` process.
 * - hook:         runHook with Claude Code PostToolUse payloads (Bash fresh and persisted, Read).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { distillBuffer } from '../../lib/pipeline/run.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { runPipe } from '../../lib/doors/pipe.js';
import { runExec } from '../../lib/doors/exec.js';
import { runHook } from '../../lib/doors/hook.js';
import { openStore, type Store } from '../../lib/store/open.js';
import { getBlob } from '../../lib/store/archive.js';
import { OMNI, ROOT, tempHome } from './omni.js';
import { CLAUDE_SAMPLES } from './samples.js';
import type { Retrieve } from './markers.js';

export const REPLAY = join(ROOT, 'test', 'fixtures', 'replay', 'replay.sh');

/** Hold windows for the streaming doors: never crossed, and crossed by any pause over ~60 ms. */
export const HOLD_NEVER = { OMNI_HOLD_MS: '600000', OMNI_HOLD_IDLE_MS: '600000', OMNI_HOLD_BYTES: String(64 << 20) };
export const HOLD_SHORT = { OMNI_HOLD_MS: '60', OMNI_HOLD_IDLE_MS: '60' };
/** A pause that crosses HOLD_SHORT (seconds, for the replay script; ms for pipe-stream). */
export const CROSSING_PAUSE_S = 0.15;

/** The in-process doors read some settings from process.env: this test process drops the caller's too. */
function hermetic(): void {
  for (const k of Object.keys(process.env)) if (k.startsWith('OMNI_') && !k.startsWith('OMNI_PROPERTY_') && k !== 'OMNI_HOME') delete process.env[k];
}
hermetic();

/**
 * The environment every door gets: this process's, without any OMNI_* setting the caller's
 * shell may carry (a session id would hold streaming doors to the end, OMNI_PASSTHROUGH=1 would
 * pass everything through): only what a test sets reaches omni.
 */
export function baseEnv(): NodeJS.ProcessEnv {
  hermetic();
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OMNI_')) env[k] = v;
  return env;
}

// ---------------------------------------------------------------------------------------------
// Stores: one open connection per home for retrieval; closeStores() closes them and removes
// every temp dir these helpers made (homes, shims, the exec cwd, persisted outputs).

const stores = new Map<string, Store>();
const made: string[] = [];

/** A temp dir removed by closeStores(). */
export function scratch(prefix = 'omni-prop-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** A fresh OMNI_HOME (a real SQLite store is created in it on first use). */
export function propHome(): string {
  const h = tempHome();
  made.push(h);
  return h;
}

export function retrieverFor(home: string): Retrieve {
  return (handle) => {
    let s = stores.get(home);
    if (!s) {
      if (!existsSync(join(home, 'omni.db'))) return null;
      s = openStore({ home });
      stores.set(home, s);
    }
    return getBlob(s, handle);
  };
}

export function closeStores(): void {
  for (const s of stores.values()) { try { s.close(); } catch { /* best effort */ } }
  stores.clear();
  if (execCwd && process.cwd() === execCwd) process.chdir(ROOT);
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  execCwd = null;
  shimDir = null;
}

/** A copy of a store's files (the database and its WAL), for "same store state" runs. */
export function copyHome(from: string): string {
  const to = propHome();
  for (const f of readdirSync(from)) if (f.startsWith('omni.db')) copyFileSync(join(from, f), join(to, f));
  return to;
}

/** `omni retrieve <handle>` as a user runs it. */
export function retrieveProcess(home: string, handle: string): { status: number | null; stdout: Buffer } {
  const r = spawnSync(process.execPath, [OMNI, 'retrieve', handle], { env: { ...baseEnv(), OMNI_HOME: home }, maxBuffer: 1 << 30 });
  return { status: r.status, stdout: r.stdout };
}

// ---------------------------------------------------------------------------------------------
// pipe

export async function pipeBuffered(input: Buffer, opts: { command?: string; home: string; cwd?: string }): Promise<Buffer> {
  const store = new LazyStore(opts.home);
  try {
    const r = await distillBuffer(describeRun({ door: 'pipe', command: opts.command, cwd: opts.cwd }), input, { archive: store.archive() });
    return r.output;
  } finally {
    store.close();
  }
}

class Collector extends Writable {
  chunks: Buffer[] = [];
  _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) { this.chunks.push(Buffer.from(chunk)); cb(); }
  get bytes(): Buffer { return Buffer.concat(this.chunks); }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The real pipe door in process: stdin is fed chunk by chunk, waiting `pauseMs` before a chunk. Overlapping runs must share one home. */
export async function pipeStream(chunks: Array<{ bytes: Buffer; pauseMs: number }>, opts: { command?: string; home: string; env?: NodeJS.ProcessEnv; sessionId?: string }): Promise<Buffer> {
  const stdin = Readable.from((async function* () {
    for (const c of chunks) {
      if (c.pauseMs > 0) await sleep(c.pauseMs);
      if (c.bytes.length) yield c.bytes;
    }
  })());
  const out = new Collector();
  // The door opens its store from OMNI_HOME when it first archives: left set, like execInProcess.
  process.env.OMNI_HOME = opts.home;
  await runPipe({ command: opts.command, stdin, stdout: out, env: { ...baseEnv(), ...opts.env, OMNI_HOME: opts.home }, sessionId: opts.sessionId });
  return out.bytes;
}

export function pipeProcess(input: Buffer, opts: { command?: string; home: string }): Buffer {
  const args = [OMNI, 'pipe', ...(opts.command ? ['--command', opts.command] : [])];
  const r = spawnSync(process.execPath, args, { input, env: { ...baseEnv(), OMNI_HOME: opts.home }, maxBuffer: 1 << 30, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`omni pipe exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------
// exec: a real child replays the bytes.

/** Shell builtins and tools the replay itself needs cannot stand in for a program. */
const NOT_SHIMMABLE = new Set(['cd', 'printf', 'echo', 'exit', 'test', 'export', 'source', '.', 'sh', 'rm']);

/**
 * The share of corpus cases the replay must reach. A PATH shim cannot stand in for a program run
 * by its path (`make && ./build/run_tests -v`), a redirect or a pipe; those cases go through the
 * hook and pipe doors' properties instead.
 */
export const REPLAYABLE_FLOOR = 0.85;

/** The programs a command line runs, when every one of them can be replaced by the replay (null otherwise). */
export function programsOf(command: string): string[] | null {
  if (/[|;<>`$()]/.test(command)) return null;
  const progs: string[] = [];
  for (const part of command.split('&&')) {
    const words = part.trim().split(/\s+/);
    let i = 0;
    while (i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i])) i++;
    const p = words[i];
    if (!p || !/^[a-z][\w.+-]*$/.test(p) || NOT_SHIMMABLE.has(p)) return null;
    progs.push(p);
  }
  return progs;
}

let shimDir: string | null = null;
/** A PATH directory holding the replay under every corpus program name. */
export function shims(commands: string[]): string {
  if (!shimDir) shimDir = scratch('omni-shims-');
  for (const c of commands) {
    for (const p of programsOf(c) ?? []) {
      const f = join(shimDir, p);
      if (!existsSync(f)) symlinkSync(REPLAY, f);
    }
  }
  return shimDir;
}

export interface Replay {
  command: string;
  /** Chunks in order; `pause` seconds before a chunk (0: none). */
  chunks: Array<{ bytes: Buffer; pause: number }>;
  exitCode: number;
}

function replayDir(r: Replay): string {
  const dir = mkdtempSync(join(tmpdir(), 'omni-replay-'));
  r.chunks.forEach((c, i) => {
    writeFileSync(join(dir, String(i)), c.bytes);
    if (c.pause > 0) writeFileSync(join(dir, `${i}.pause`), c.pause.toFixed(3));
  });
  writeFileSync(join(dir, 'exit'), String(r.exitCode));
  return dir;
}

function execEnv(r: Replay, dir: string, home: string, hold: Record<string, string>): NodeJS.ProcessEnv {
  const path = `${shims([r.command])}:${process.env.PATH}`;
  return { ...baseEnv(), ...hold, PATH: path, OMNI_REPLAY_DIR: dir, OMNI_HOME: home };
}

export interface ExecResult { output: Buffer; exitCode: number; raw: Buffer }

let execCwd: string | null = null;
/** The cwd every in-process exec run uses (the ledger's project scope for exec). */
export function execDir(): string {
  if (!execCwd) execCwd = scratch('omni-exec-cwd-');
  return execCwd;
}
/**
 * The real exec door, in process, around a real child that replays `r`. The door reads its
 * store from OMNI_HOME and its cwd from the process, so this sets both and leaves them set:
 * runs may overlap (see `pool`) as long as they share one home.
 */
export async function execInProcess(r: Replay, opts: { home: string; hold: Record<string, string>; sessionId?: string }): Promise<ExecResult> {
  const dir = replayDir(r);
  const cwd = execDir();
  const out = new Collector();
  process.env.OMNI_HOME = opts.home;
  if (process.cwd() !== cwd) process.chdir(cwd);
  try {
    const code = await runExec({ argv: [r.command], env: execEnv(r, dir, opts.home, opts.hold), stdout: out, sessionId: opts.sessionId });
    return { output: out.bytes, exitCode: code, raw: Buffer.concat(r.chunks.map((c) => c.bytes)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `fn` over `items`, at most `n` at once, results in order. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => { while (next < items.length) { const i = next++; out[i] = await fn(items[i], i); } };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** The real `omni exec` process around the same replay. */
export function execProcess(r: Replay, opts: { home: string; hold: Record<string, string> }): ExecResult {
  const dir = replayDir(r);
  const cwd = mkdtempSync(join(tmpdir(), 'omni-exec-cwd-'));
  try {
    const p = spawnSync(process.execPath, [OMNI, 'exec', r.command], { cwd, env: execEnv(r, dir, opts.home, opts.hold), maxBuffer: 1 << 30, timeout: 60_000 });
    return { output: p.stdout, exitCode: p.status ?? -1, raw: Buffer.concat(r.chunks.map((c) => c.bytes)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// hook: Claude Code PostToolUse payloads (shapes from test/fixtures/claude-code/).

const template = (f: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, f), 'utf8'));
const BASH = template('PostToolUse.Bash.seq-1-300.json');
const PERSISTED = template('PostToolUse.Bash.seq-1-100000.persisted.json');
const READ = template('PostToolUse.Read.offset50-limit20.json');

/** Claude Code persists a Bash output over this many characters and sends a prefix this long. */
export const HOST_PERSIST_CHARS = 30_000;
/** What the model sees of a persisted output the hook did not replace: the first ~2 KB. */
export const HOST_PREVIEW_BYTES = 2_000;

/** The text a hook gets for raw command output: decoded, without its final newline (the host strips it). */
export function hookText(raw: Buffer): string {
  const s = raw.toString('utf8');
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

/** The whole lines within the host's preview: what the model surely saw of a persisted output. */
export function hostPreview(text: string): string {
  const b = Buffer.from(text);
  if (b.length <= HOST_PREVIEW_BYTES) return text;
  const cut = b.subarray(0, HOST_PREVIEW_BYTES);
  const nl = cut.lastIndexOf(10);
  return nl < 0 ? '' : cut.subarray(0, nl).toString('utf8');
}

export interface HookDelivery {
  /** What the pipeline got (the hook's input text). */
  input: Buffer;
  /** omni's reply text, or null when it did not reply. */
  replied: Buffer | null;
  /** What omni hands on: the reply, or (no reply) the input unchanged. */
  output: Buffer;
  /** What the model saw, after the host's own cut. */
  seen: string;
  /** Read only: the reply's startLine. */
  startLine?: number;
}

export interface Reader { sessionId: string; cwd: string; agentId?: string }

let toolUse = 0;
const useId = () => `toolu_prop_${String(++toolUse).padStart(6, '0')}`;

/** A PostToolUse Bash call. Over HOST_PERSIST_CHARS the host persists the output and sends a prefix. */
export async function hookBash(text: string, opts: { command: string; home: string; reader: Reader; persistedDir?: string }): Promise<HookDelivery> {
  const persisted = text.length > HOST_PERSIST_CHARS;
  const base = persisted ? PERSISTED : BASH;
  const p = structuredClone(base);
  p.session_id = opts.reader.sessionId;
  p.cwd = opts.reader.cwd;
  if (opts.reader.agentId) p.agent_id = opts.reader.agentId;
  p.tool_use_id = useId();
  p.tool_input = { command: opts.command, description: 'run it' };
  if (persisted) {
    const dir = opts.persistedDir ?? scratch('omni-tool-results-');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${p.tool_use_id}.txt`);
    writeFileSync(file, text + '\n');
    p.tool_response = { ...p.tool_response, stdout: text.slice(0, HOST_PERSIST_CHARS), stderr: '', persistedOutputPath: file, persistedOutputSize: Buffer.byteLength(text) + 1 };
  } else {
    p.tool_response = { ...p.tool_response, stdout: text, stderr: '' };
  }
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), { ...baseEnv(), OMNI_HOME: opts.home });
  const input = Buffer.from(text);
  if (!reply) return { input, replied: null, output: input, seen: persisted ? hostPreview(text) : text };
  const stdout: string = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout;
  // A reply over the host's limit is persisted by the host in turn: the model sees its preview.
  return { input, replied: Buffer.from(stdout), output: Buffer.from(stdout), seen: stdout.length > HOST_PERSIST_CHARS ? hostPreview(stdout) : stdout };
}

/** A PostToolUse Read of `content` (lines startLine…). */
export async function hookRead(content: string, opts: { path: string; home: string; reader: Reader; startLine?: number }): Promise<HookDelivery> {
  const p = structuredClone(READ);
  const startLine = opts.startLine ?? 1;
  const n = content === '' ? 0 : content.split('\n').length;
  p.session_id = opts.reader.sessionId;
  p.cwd = opts.reader.cwd;
  p.tool_use_id = useId();
  p.tool_input = { file_path: opts.path };
  p.tool_response = { type: 'text', file: { filePath: opts.path, content, numLines: n, startLine, totalLines: startLine - 1 + n } };
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), { ...baseEnv(), OMNI_HOME: opts.home });
  const input = Buffer.from(content);
  if (!reply) return { input, replied: null, output: input, seen: content, startLine };
  const f = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.file;
  return { input, replied: Buffer.from(f.content), output: Buffer.from(f.content), seen: f.content, startLine: f.startLine };
}

/** A fresh reader (session and project) so nothing of one run folds another's lines. */
let readers = 0;
export function freshReader(): Reader {
  readers++;
  return { sessionId: `00000000-0000-4000-8000-${String(readers).padStart(12, '0')}`, cwd: `/home/dev/prop-${readers}` };
}
