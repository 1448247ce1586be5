/**
 * What a whole session saves, and the proof that nothing was lost: pure functions over what the
 * real CLI sent the model in two runs of one script (without omni, with omni), the bytes each
 * marker's handle retrieves, and the model requests of both runs. No IO here: run-pair.ts
 * gathers the inputs, the bench and the test read the reports.
 *
 * Per call: raw = the tool_result the model got without omni, delivered = with omni. Nothing
 * lost means: a failing call byte-identical to the baseline; a first Read byte-identical; every
 * must-keep present in what the model got; every marker's handle returning a contiguous part of
 * the raw output; nothing larger than without omni. The two runs differ in what no one controls
 * (temporary directories, timings, clocks), so both sides are compared through `stable`.
 */
import type { Keep, Kind, Producer, Session, SessionStep } from './session.js';

export interface Seen {
  text: string;
  isError: boolean;
}

export interface CallEvidence {
  index: number;
  step: SessionStep;
  /** What the model got without omni (null: no tool_result reached it). */
  base: Seen | null;
  /** What the model got with omni. */
  omni: Seen | null;
  /** The whole output when the baseline model was shown only the host's preview of a persisted output. */
  baseFull?: string | null;
  /** Per handle named in the omni text: what `omni retrieve` printed (null: it failed). */
  retrieved: Record<string, string | null>;
  /** What the model got with omni in this session's earlier calls, in order. */
  earlier?: string[];
}

/** A marker saying the reader holds what it hides: a file's patch shown earlier in this context. */
const SHOWN_MARKER = /\[omni: [^\n]*as you were already shown it — omni retrieve ([0-9a-f]{16})\]/g;

/**
 * A must-keep this call does not show, but which it hides behind a marker saying the reader was
 * already shown it, and which an earlier call of the session did show the model: the model holds
 * it, and nothing is lost.
 */
function heldFromEarlier(ev: CallEvidence, k: Keep, stableOmni: (s: string) => string): boolean {
  const text = ev.omni?.text ?? '';
  const hidden = [...text.matchAll(SHOWN_MARKER)].some((m) => {
    const got = ev.retrieved[m[1]];
    return typeof got === 'string' && matches(stableOmni(got), k);
  });
  return hidden && (ev.earlier ?? []).some((e) => matches(stableOmni(e), k));
}

export type ProblemType = 'no-result' | 'failure-changed' | 'first-read-changed' | 'keep-lost' | 'retrieve-failed' | 'retrieve-not-contiguous' | 'larger';

export interface Problem {
  type: ProblemType;
  detail: string;
}

export interface CallReport {
  index: number;
  tool: string;
  kind: Kind;
  producer?: Producer;
  label: string;
  raw: number;
  delivered: number;
  markers: number;
  /** Delivered lines (markers aside) that are not a line of the raw output: changed in place. */
  altered: number;
  /** The call failed without omni (a non-zero exit, an error result): its output is passed whole. */
  failed: boolean;
  /** What omni lost or broke: each one fails the session. */
  problems: Problem[];
  /** The script's expectations the baseline did not meet (a must-keep the tool never printed, a call meant to fail that passed): the script is wrong, not omni. */
  scriptErrors: string[];
}

/** Both runs' volatile parts replaced: their directories, ids, clocks and durations. */
export function stabiliser(runDir: string, extra: string[] = []): (s: string) => string {
  const slug = runDir.replace(/[^A-Za-z0-9]/g, '-');
  return (s: string) => {
    let out = s.split(runDir).join('<DIR>').split(slug).join('<SLUG>');
    for (const e of extra) if (e) out = out.split(e).join('<X>');
    return out
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>')
      .replace(/tool-results\/[A-Za-z0-9_-]+\.txt/g, 'tool-results/<FILE>.txt')
      .replace(/toolu_[A-Za-z0-9]+_\d+_\d+/g, '<TOOLU>')
      // object addresses (Python reprs, Go panics)
      .replace(/\b0x[0-9a-f]{6,16}\b/g, '<ADDR>')
      // valgrind's `==PID== ` on each of its lines: the process id of that run
      .replace(/^(==|--|\*\*)\d+(==|--|\*\*)/gm, '$1<PID>$2')
      // a panicking thread's id (Rust)
      .replace(/ \(\d+\) panicked at /g, ' (<TID>) panicked at ')
      // a command's own temporary files under the run's TMPDIR
      .replace(/<DIR>\/tmp\/[^\s/'"]+/g, '<DIR>/tmp/<TMP>')
      // ls -l dates and clock times
      .replace(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d (\d\d:\d\d|\d{4})\b/g, '<DATE>')
      .replace(/\b\d\d:\d\d:\d\d(\.\d+)?\b/g, '<CLOCK>')
      // a duration in parentheses some runs print and others do not (jest shows "(38 ms)" only
      // for a slow test, and "(5.497 s)" only for a slow file)
      .replace(/ ?\(\d+(\.\d+)? ?(ms|s)\)/g, '')
      // durations: "5.497 s", "in 0.12s", "0.003s", "1m2.3s", "in 3s"
      .replace(/\b\d+m\d+(\.\d+)?s\b/g, '<T>')
      .replace(/\b\d+(\.\d+)?\s?(ms|s|sec|secs|seconds|µs|us)\b/g, '<T>')
      // a test runner's random order: minitest's and rspec's `--seed 4242`, jest's `--seed=…`
      .replace(/--seed[ =]\d+/g, '--seed <SEED>')
      .replace(/\bRandomized with seed \d+/g, 'Randomized with seed <SEED>')
      // rates: "4780.1234 runs/s"
      .replace(/\b\d+(\.\d+)? (runs|assertions|tests)\/s\b/g, '<RATE> $2/s')
      // a rule of = or - around a duration (pytest) grows and shrinks with it
      .replace(/={3,}/g, '===')
      .replace(/-{8,}/g, '---');
  };
}

const MARKER = /omni retrieve ([0-9a-f]{16})\]/g;

export function handlesIn(text: string): string[] {
  return [...new Set([...text.matchAll(MARKER)].map((m) => m[1]))];
}

const bytes = (s: string | null | undefined) => Buffer.byteLength(s ?? '', 'utf8');

/** A Read result's file text: its `N\t` line numbers taken off. */
export function unnumbered(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*\d+\t/, ''))
    .join('\n');
}

function matches(text: string, k: Keep): boolean {
  return typeof k === 'string' ? text.includes(k) : k.test(text);
}

export function labelOf(step: SessionStep): string {
  const i = step.input;
  if (step.tool === 'Bash') return String(i.command);
  const f = String(i.file_path ?? '').replace('{{PROJ}}/', '');
  if (step.tool === 'Read') return `Read ${f}${i.offset !== undefined ? ` (offset ${i.offset}, limit ${i.limit})` : ''}`;
  return `${step.tool} ${f}`;
}

/**
 * One call's figures and checks. `stableBase` and `stableOmni` take each run's volatile parts
 * out, so the two can be compared byte for byte.
 */
export function checkCall(ev: CallEvidence, stableBase: (s: string) => string, stableOmni: (s: string) => string): CallReport {
  const { step } = ev;
  const r: CallReport = {
    index: ev.index,
    tool: step.tool,
    kind: step.kind,
    ...(step.producer ? { producer: step.producer } : {}),
    label: labelOf(step),
    raw: bytes(ev.base?.text),
    delivered: bytes(ev.omni?.text),
    markers: 0,
    altered: 0,
    failed: ev.base?.isError === true,
    problems: [],
    scriptErrors: [],
  };
  if (!ev.base || !ev.omni) {
    if (!ev.base) r.scriptErrors.push('the baseline run got no tool_result for this call');
    if (!ev.omni) r.problems.push({ type: 'no-result', detail: 'with omni, no tool_result for this call reached the model' });
    return r;
  }
  const b = stableBase(ev.base.text);
  const o = stableOmni(ev.omni.text);
  const persisted = ev.base.text.startsWith('<persisted-output>');
  // The raw output in full: the persisted file where the host showed a preview; a Read's file text.
  const full = stableBase(persisted && ev.baseFull ? ev.baseFull : ev.base.text);
  const rawText = step.tool === 'Read' ? unnumbered(full) : full;

  if (step.fails !== undefined && ev.base.isError !== step.fails) {
    r.scriptErrors.push(`meant to ${step.fails ? 'fail' : 'succeed'}, but without omni it ${ev.base.isError ? 'failed' : 'succeeded'}: ${JSON.stringify(ev.base.text.slice(0, 300))}`);
  }
  if (ev.base.isError || ev.omni.isError) {
    if (ev.base.isError !== ev.omni.isError || b !== o) r.problems.push({ type: 'failure-changed', detail: `a failing call is not byte-identical to the baseline: ${firstDifference(b, o)}` });
  }
  if (step.kind === 'first-read' && b !== o) r.problems.push({ type: 'first-read-changed', detail: `a first Read is not byte-identical to the baseline: ${firstDifference(b, o)}` });

  for (const k of step.keep ?? []) {
    if (!matches(full, k)) r.scriptErrors.push(`must-keep ${String(k)} is not in the raw output`);
    else if (!matches(o, k) && !heldFromEarlier(ev, k, stableOmni)) r.problems.push({ type: 'keep-lost', detail: `must-keep ${String(k)} is missing from what the model got` });
  }

  const handles = handlesIn(ev.omni.text);
  r.markers = [...ev.omni.text.matchAll(MARKER)].length;
  for (const h of handles) {
    const got = ev.retrieved[h];
    if (got === null || got === undefined) {
      r.problems.push({ type: 'retrieve-failed', detail: `omni retrieve ${h} gave nothing back` });
      continue;
    }
    const g = stableOmni(got);
    if (!rawText.includes(g) && !rawText.includes(g.replace(/\n$/, ''))) {
      r.problems.push({ type: 'retrieve-not-contiguous', detail: `omni retrieve ${h} (${bytes(got)} B) is not a contiguous part of the raw output: ${JSON.stringify(g.slice(0, 160))}` });
    }
  }
  // Compared with the runs' volatile parts out: a rate or a duration is not omni's doing.
  if (!persisted && bytes(o) > bytes(b)) r.problems.push({ type: 'larger', detail: `delivered ${r.delivered} B, larger than the ${r.raw} B without omni` });

  const rawLines = new Set(rawText.split('\n').map((l) => l.trimEnd()));
  const numbered = step.tool === 'Read';
  for (const l of o.split('\n')) {
    if (/omni retrieve [0-9a-f]{16}\]/.test(l) || l.trim() === '') continue;
    const line = (numbered ? l.replace(/^\s*\d+\t/, '') : l).trimEnd();
    if (!rawLines.has(line)) r.altered++;
  }
  return r;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return 'only the error flag differs';
  return `first difference at character ${i}: without omni ${JSON.stringify(a.slice(Math.max(0, i - 40), i + 80))}, with omni ${JSON.stringify(b.slice(Math.max(0, i - 40), i + 80))}`;
}

// ---------------------------------------------------------------------------------------------
// omni's own additions to every model request

export type CostPart = 'tool definitions' | 'tool names' | 'instructions' | 'hook context' | 'other';

export interface Cost {
  total: number;
  parts: Record<CostPart, number>;
  requests: { base: number; omni: number };
  /** Each distinct added piece, its bytes and how many requests carried it (for the reader). */
  pieces: { part: CostPart; bytes: number; count: number; text: string }[];
}

interface Piece {
  text: string;
  part: CostPart;
}

/** What a request sends besides the tool results and the calls themselves: tool definitions, system text, message text, line by line. */
export function requestPieces(body: any, stable: (s: string) => string): Piece[] {
  const out: Piece[] = [];
  for (const t of Array.isArray(body?.tools) ? body.tools : []) {
    const name = String(t?.name ?? '');
    out.push({ text: stable(JSON.stringify(t)), part: name.startsWith('mcp__omni__') ? 'tool definitions' : 'other' });
  }
  const texts: string[] = [];
  const sys = body?.system;
  if (typeof sys === 'string') texts.push(sys);
  else if (Array.isArray(sys)) for (const s of sys) if (typeof s?.text === 'string') texts.push(s.text);
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    if (typeof m?.content === 'string') texts.push(m.content);
    else if (Array.isArray(m?.content)) for (const c of m.content) if (c?.type === 'text' && typeof c.text === 'string') texts.push(c.text);
  }
  for (const t of texts) {
    const hook = /hook additional context|additionalContext/i.test(t);
    const lines = t.split('\n');
    let inOmniInstructions = false;
    for (const line of lines) {
      if (/^## /.test(line)) inOmniInstructions = line.trim() === '## omni';
      else if (/^# /.test(line)) inOmniInstructions = false;
      const part: CostPart = /^mcp__omni__/.test(line.trim()) ? 'tool names' : hook ? 'hook context' : inOmniInstructions || /^# MCP Server Instructions|^The following MCP servers have provided instructions/.test(line) ? 'instructions' : 'other';
      out.push({ text: stable(line), part });
    }
  }
  return out;
}

/** A message request of the session (not a token count or a model list). */
export function modelRequests(requests: { url: string; method?: string; body: any }[]): any[] {
  return requests.filter((r) => /^\/v1\/messages(\?|$)/.test(r.url) && Array.isArray(r.body?.messages)).map((r) => r.body);
}

/**
 * omni's additions, summed over every model request of the session: per request, the pieces the
 * omni run's request has beyond the baseline's request at the same position (a multiset
 * difference, so a repeated line counts as often as it is added), in UTF-8 bytes.
 */
export function omniCost(baseBodies: any[], omniBodies: any[], stableBase: (s: string) => string, stableOmni: (s: string) => string): Cost {
  const parts: Record<CostPart, number> = { 'tool definitions': 0, 'tool names': 0, instructions: 0, 'hook context': 0, other: 0 };
  const seen = new Map<string, { part: CostPart; bytes: number; count: number; text: string }>();
  let total = 0;
  for (let i = 0; i < omniBodies.length; i++) {
    const have = new Map<string, number>();
    for (const p of i < baseBodies.length ? requestPieces(baseBodies[i], stableBase) : []) have.set(p.text, (have.get(p.text) ?? 0) + 1);
    for (const p of requestPieces(omniBodies[i], stableOmni)) {
      const n = have.get(p.text) ?? 0;
      if (n > 0) {
        have.set(p.text, n - 1);
        continue;
      }
      // A line counts with its newline, as it is sent.
      const b = bytes(p.text) + 1;
      parts[p.part] += b;
      total += b;
      const key = `${p.part}\u0000${p.text}`;
      const e = seen.get(key) ?? { part: p.part, bytes: b, count: 0, text: p.text };
      e.count++;
      seen.set(key, e);
    }
  }
  return { total, parts, requests: { base: baseBodies.length, omni: omniBodies.length }, pieces: [...seen.values()].sort((a, b) => b.bytes * b.count - a.bytes * a.count) };
}

// ---------------------------------------------------------------------------------------------
// Totals

export interface Totals {
  calls: number;
  raw: number;
  delivered: number;
  problems: number;
}

export interface SessionReport {
  name: string;
  ecosystem: string;
  set: Session['set'];
  calls: CallReport[];
  cost: Cost;
  totals: Totals;
  scriptErrors: string[];
  /** The runs themselves: exit codes, the CLI's version, hook errors. */
  runNotes: string[];
}

export function totalsOf(calls: CallReport[]): Totals {
  return calls.reduce((t, c) => ({ calls: t.calls + 1, raw: t.raw + c.raw, delivered: t.delivered + c.delivered, problems: t.problems + c.problems.length }), { calls: 0, raw: 0, delivered: 0, problems: 0 });
}

export const savedPct = (raw: number, delivered: number): number => (raw > 0 ? 100 * (1 - delivered / raw) : 0);

/** Saved, counting omni's own additions to the requests against the saving. */
export const netPct = (t: Totals, cost: number): number => (t.raw > 0 ? 100 * (1 - (t.delivered + cost) / t.raw) : 0);

/**
 * The key a call is reported under: its kind, and a chain's producer beside it. A call that
 * failed without omni is reported as failing whatever its script expected (a linter's findings
 * exit non-zero; a test run can fail on something the script did not foresee): its output is
 * passed whole like any failure, and the targets are stated for successful runs.
 */
export function kindKey(c: Pick<CallReport, 'kind' | 'producer' | 'failed'>): string {
  if (c.kind === 'chain-wrapped' && c.producer) return `chain-wrapped (${c.producer}${c.failed && c.producer !== 'other' ? ', failing' : ''})`;
  if (c.failed && c.kind === 'test-pass') return 'test-fail';
  return c.failed && c.kind === 'build-lint' ? 'build-lint (failing)' : c.kind;
}

export function byKind(calls: CallReport[]): Map<string, Totals> {
  const m = new Map<string, CallReport[]>();
  for (const c of calls) {
    const k = kindKey(c);
    m.set(k, [...(m.get(k) ?? []), c]);
  }
  return new Map([...m.entries()].map(([k, v]) => [k, totalsOf(v)]));
}
