/**
 * A Read of a file the reader already holds, answered from what it holds (lib/reread/plan.ts):
 * one marker when the lines are unchanged, one numbered window of the change when they are not.
 * Returns the host's reply; `whole` when the read must reach the reader as it is (it asked again
 * right after being told it holds the lines); or null when the read should go the ordinary way
 * (no view covers it, the answer would not be smaller, the store is not there). The caller then
 * distils it and records the view the reader gets.
 *
 * The read's content is archived before any marker names it (a handle always returns its bytes), and the run, the ledger
 * lines and the view are recorded like any other delivery.
 */
import type { HostAdapter, JsonObject, PostReadInput } from '../hosts/adapter.js';
import { distilText, likeOriginal, recordDistilled } from './distil-text.js';
import { hookRun, type PostToolDeps, type PostToolResult } from './tool-call.js';
import { planReread, renderReread, hostLines } from '../reread/plan.js';
import { loadFileViews } from '../store/file-views.js';
import { putBlob } from '../store/archive.js';
import { runSince } from '../store/stats.js';
import type { Store } from '../store/open.js';
import { lineHash, packHashes, ShownSet } from '../store/linehash.js';
import { RunBook, type FileViewRecord } from './run-record.js';
import { WHOLE } from '../hosts/model-view.js';
import { maskAllRequested } from '../command/passthrough.js';
import { detectStructured } from '../pipeline/guard.js';
import type { Line } from '../kit/types.js';

/** Data files by name: whatever their first lines look like. */
const DATA_FILE = /\.(json|jsonl|ndjson|geojson|ya?ml|csv|tsv|toml|xml|lock)$/i;

/**
 * Is this read data (a data file by its name, or JSON, NDJSON, YAML, CSV, TSV as the guard reads
 * its first lines) or does it carry a NUL? Then it goes the ordinary way, byte for byte: data is
 * never answered by a marker or a window, even when the reader holds it already. (The guard's
 * looser reading is not used here: it takes source code whose lines each hold one comma for CSV.)
 */
function structuredRead(path: string, content: string): boolean {
  if (DATA_FILE.test(path) || content.indexOf('\0') >= 0) return true;
  const lines: Line[] = [];
  let from = 0;
  for (let i = 0; i < 64 && from <= content.length; i++) {
    const nl = content.indexOf('\n', from);
    const text = content.slice(from, nl < 0 ? content.length : nl);
    lines.push({ kind: 'line', text, eol: '\n', tier: 'text', index: i, end: 0 });
    if (nl < 0) break;
    from = nl + 1;
  }
  return detectStructured(lines) !== null;
}

/** The view a reader holds after it got `input`'s content (whatever omni replied). */
export function viewOfRead(input: PostReadInput, kind: 'shown' | 'marker' = 'shown'): FileViewRecord {
  return {
    path: input.path,
    startLine: input.startLine,
    lines: hostLines(input.content).length,
    totalLines: input.totalLines,
    kind,
    content: Buffer.from(input.content, 'utf8'),
  };
}

/** Whether re-reads are answered from views at all: the ledger's switch, and a reader to key them by. */
export function rereadsOn(input: PostReadInput, env: NodeJS.ProcessEnv): boolean {
  return env.OMNI_LEDGER !== '0' && !!input.sessionId;
}

/**
 * The re-read answer when there is one: the host's reply and the content it carries; `whole` when
 * the read must reach the reader as it is (it asked again right after "unchanged"); null when
 * the read goes the ordinary way. An answer is archived, then recorded in `book`.
 */
async function answerReread(
  host: HostAdapter,
  input: PostReadInput,
  payload: JsonObject,
  deps: PostToolDeps,
  book: RunBook,
): Promise<{ reply: string; content: string } | { whole: true } | null> {
  const { env, log } = deps;
  if (!host.replyReadAs || !rereadsOn(input, env) || structuredRead(input.path, input.content)) return null;
  const s = deps.store.get();
  if (!s) return null;
  let views;
  try {
    views = loadFileViews(s, { sessionId: input.sessionId!, agentId: input.agentId, path: input.path });
  } catch (err) {
    // A locked or broken store costs the re-read answer, never the read.
    log(`reread: the views could not be read (${(err as Error).message}); sent the ordinary way`);
    return null;
  }
  if (views.length === 0) return null;
  const read = { startLine: input.startLine, content: input.content, totalLines: input.totalLines };
  // Asked again right after "unchanged" (no other call between) the reader may have lost the lines.
  const newest = views[0];
  const plan = planReread(views, read, { callsSinceNewest: newest.kind === 'marker' && callsSince(s, input.sessionId!, newest.at, log) });
  if (plan.kind === 'none') {
    if (env.OMNI_HOOK_TRACE) log(`reread ${input.path}: ${plan.why}`);
    // Asked again right after "unchanged": the read goes whole, no line of it folded either.
    return plan.again ? { whole: true } : null;
  }
  // With every secret masked in what the model is shown, a window of the file's lines would
  // have to be masked too: send the read the ordinary way instead.
  if (plan.kind === 'changed' && maskAllRequested(env)) return null;
  const raw = Buffer.from(input.content, 'utf8');
  let handle: string;
  try {
    handle = putBlob(s, raw, { kind: 'fold' });
  } catch (err) {
    log(`reread: the archive refused the read (${(err as Error).message}); sent as it is`);
    return null;
  }
  const r = renderReread(plan, read, handle);
  if (Buffer.byteLength(r.content) >= raw.byteLength) return null;
  const reply = host.replyReadAs(payload, input, r.content, r.startLine);
  if (!reply) return null;
  if (env.OMNI_HOOK_TRACE) log(`reread ${input.path}: ${plan.kind}, ${raw.byteLength} B -> ${Buffer.byteLength(r.content)} B`);
  book.record({
    raw,
    delivered: Buffer.from(r.content, 'utf8'),
    bytesIn: raw.byteLength,
    bytesOut: Buffer.byteLength(r.content),
    distiller: 'reread',
    family: 'read',
    applied: true,
    view: WHOLE,
    // Told "unchanged", the reader holds the view it was answered from; shown a window, it holds
    // the lines read now.
    fileView: viewOfRead(input, plan.kind === 'unchanged' ? 'marker' : 'shown'),
    hashes: plan.kind === 'changed' ? hashesOf(hostLines(input.content).slice(plan.window.first - input.startLine, plan.window.last - input.startLine + 1)) : undefined,
    now: deps.now?.(),
  });
  return { reply, content: r.content };
}

/** Whether the session made calls after `at`; a store that cannot tell says no (the read then goes whole). */
function callsSince(s: Store, sessionId: string, at: number, log: (what: string) => void): boolean {
  try {
    return runSince(s, sessionId, at);
  } catch (err) {
    log(`reread: the runs could not be read (${(err as Error).message})`);
    return false;
  }
}

/** The ledger's hashes of lines shown (trimmed, blanks left out, each once). */
function hashesOf(lines: readonly string[]): Buffer {
  const set = new ShownSet(Math.max(1, lines.length));
  const h = new Uint32Array(2);
  const pairs: number[] = [];
  for (const l of lines) {
    const t = l.trim();
    if (t.length === 0) continue;
    lineHash(t, h);
    if (set.add(h[0], h[1])) pairs.push(h[0], h[1]);
  }
  return packHashes(Uint32Array.from(pairs), pairs.length / 2);
}

/**
 * A host's Read, the whole way a door takes it (handlePostTool's Read, ./post-tool.ts): answered
 * from what the reader was shown when it can be, else distilled (the read distiller keeps every
 * line; the ledger may fold a head the reader was shown), the view it leaves recorded either way.
 */
export async function replyToRead(host: HostAdapter, input: PostReadInput, payload: JsonObject, deps: PostToolDeps): Promise<PostToolResult> {
  const replyRead = host.replyRead;
  const content = input.content;
  if (!replyRead) return { reply: '', text: content, delivered: content, view: WHOLE };
  const desc = await hookRun(input, `Read ${input.path}`, 'Read', deps.env);
  const book = new RunBook(desc, deps.store);
  const answered = await answerReread(host, input, payload, deps, book);
  if (answered && 'reply' in answered) return { reply: answered.reply, text: content, delivered: answered.content, view: WHOLE };
  // Sent whole after "unchanged": distilled without the ledger, so no line of it folds either.
  const distilEnv = answered ? { ...deps.env, OMNI_LEDGER: '0' } : deps.env;
  const d = await distilText(desc, content, book, distilEnv, deps.log);
  const out = likeOriginal(d.output, content);
  const reply = d.changed ? replyRead(payload, input, out) : '';
  // A Read's content is what the host shows, and a reply is a head fold of it: every line the
  // stage let through reached the model either way, and the reader holds the content read (the
  // folded head it held already), whether the host applied the reply or not.
  recordDistilled(book, d, { applied: reply !== '', view: WHOLE, fileView: rereadsOn(input, deps.env) ? viewOfRead(input) : undefined, now: deps.now?.() });
  return { reply, text: content, delivered: reply !== '' ? out : content, view: WHOLE };
}
