import type { Batch, Line, PassReason } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';

/** Bytes of look-ahead the guard reads before deciding. Never the whole stream. */
export const GUARD_LOOKAHEAD_BYTES = 4096;
/** Lines it needs at most to call tabular data. */
const SAMPLE_LINES = 24;
/** Lines a rule's run needs at least before it can be called structured (`strictStructured`). */
const STRICT_MIN_LINES = 2;

/**
 * guard: holds the first few KB, decides whether the payload is structured data
 * (JSON, NDJSON, YAML, CSV, TSV), and if so switches the run to passthrough from the
 * first byte. When unsure it says structured: a passed-through log costs tokens, a
 * mangled JSON document costs correctness. When a rule of one's own owns the run (family
 * `rules`) it is surer still (`strictStructured`): a built-in distiller knows its tool's
 * lines, a rule's pattern may be `.*`.
 */
export function guard(run: RunState) {
  let held: Batch[] = [];
  let heldBytes = 0;
  let decided = false;
  let pushRef: ((b: Batch) => void) | null = null;

  const decide = (push: (b: Batch) => void) => {
    decided = true;
    const lines: Line[] = [];
    for (const b of held) for (const it of b.items) if (it.kind === 'line') lines.push(it);
    const verdict = detectStructured(lines) ?? (run.family === 'rules' ? strictStructured(lines) : null);
    if (verdict) run.passthrough = verdict;
    for (const b of held) push(b);
    held = [];
  };

  let heldLines = 0;
  /**
   * A rule's run is judged on two lines at least (`strictStructured`): a stream that pauses after
   * its first line keeps that line held until a second comes (or the input ends), rather than
   * be judged on one line and have a rule's `.*` hide the rest of a table.
   */
  const waits = () => run.family === 'rules' && heldLines < STRICT_MIN_LINES;

  run.onStreaming(() => {
    if (!decided && pushRef && !waits()) decide(pushRef);
  });

  return batchStage(
    run,
    (batch, push) => {
      pushRef = push;
      if (decided || run.passthrough) { decided = true; for (const b of held) push(b); held = []; push(batch); return; }
      held.push(batch);
      for (const it of batch.items) {
        if (it.kind !== 'line') continue;
        heldBytes += it.text.length + 1;
        if (it.text.trim().length) heldLines++;
      }
      if (heldBytes >= GUARD_LOOKAHEAD_BYTES || (run.streaming && !waits())) decide(push);
    },
    (push) => {
      if (!decided) decide(push);
    },
  );
}

const YAML_LINE = /^\s*(#.*|-\s.*|-|[A-Za-z0-9_.\-"'/]+:(\s.*)?|\s+\S.*)$/;

/** Pure: what structured format, if any, do these first lines look like? */
export function detectStructured(lines: Line[]): PassReason | null {
  const sample: string[] = [];
  for (const l of lines) {
    if (sample.length >= SAMPLE_LINES) break;
    if (l.text.trim().length) sample.push(l.text);
  }
  if (!sample.length) return null;
  const first = sample[0].trimStart();
  if (first.startsWith('{')) {
    return sample.length > 1 && sample.every((s) => s.trimStart().startsWith('{')) ? 'ndjson' : 'json';
  }
  if (first.startsWith('[')) {
    // `[` opens JSON unless a word follows (`[INFO] …`, `[webpack-cli] …`, `[1/4] Resolving`).
    // A number opens JSON only when a comma, `]` or the line's end follows it: `[  3%]`
    // (cmake), `[1/4]` (yarn) and `[12:00:01]` (timestamps) are progress and logs.
    if (/^\[\s*($|[{["]|-?\d+(\.\d+)?([eE][-+]?\d+)?\s*([,\]]|$)|true|false|null|\])/.test(first)) return 'json';
  }
  if (first === '---' || first.startsWith('%YAML') || first.startsWith('apiVersion:')) return 'yaml';
  if (sample.length >= 3) {
    const yamlish = sample.filter((s) => YAML_LINE.test(s)).length;
    const keyed = sample.filter((s) => /^[A-Za-z0-9_.\-"']+:(\s|$)/.test(s)).length;
    const topKeyBlock = /^[A-Za-z0-9_.\-"']+:\s*$/.test(first);
    if (yamlish === sample.length && (topKeyBlock || keyed >= 3) && !looksLikeLog(sample)) return 'yaml';
    const tsv = tabular(sample, '\t');
    if (tsv) return 'tsv';
    const csv = tabular(sample, ',');
    if (csv) return 'csv';
  }
  return null;
}

const LIST_ITEM = /^\s*-(\s|$)/;
const KEYED = /^\s*[A-Za-z0-9_.\-"']+:(\s|$)/;

/**
 * Pure: the looser reading for output a rule owns. Two lines are enough; a YAML list
 * (`- a`), keyed lines under any indentation and two-column CSV count; every line must agree.
 * It may call a tool's plain output structured: that output then reaches the model whole,
 * which costs tokens, never a line.
 */
export function strictStructured(lines: Line[]): PassReason | null {
  const sample: string[] = [];
  for (const l of lines) {
    if (sample.length >= SAMPLE_LINES) break;
    if (l.text.trim().length) sample.push(l.text.replace(/\r$/, ''));
  }
  if (sample.length < STRICT_MIN_LINES) return null;
  if (sample.every((s) => YAML_LINE.test(s)) && (sample.some((s) => LIST_ITEM.test(s)) || (sample.some((s) => KEYED.test(s)) && !looksLikeLog(sample)))) return 'yaml';
  for (const [sep, kind] of [['\t', 'tsv'], [',', 'csv']] as const) {
    const n = countOutsideQuotes(sample[0], sep);
    if (n >= 1 && sample.every((s) => countOutsideQuotes(s, sep) === n)) return kind;
  }
  return null;
}

function looksLikeLog(sample: string[]): boolean {
  // "Tests: 3 passed" / "Author: x" / "error: …" are prose with a colon, not YAML.
  return sample.some((s) => /^(error|warning|note|Author|Date|commit|Tests?|Suites?|Time|Snapshots|Ran|npm|ERR|WARN|INFO|DEBUG|FAIL|PASS)\b/i.test(s.trimStart()));
}

function tabular(sample: string[], sep: string): boolean {
  const counts = sample.map((s) => countOutsideQuotes(s, sep));
  const n = counts[0];
  if (n < (sep === ',' ? 2 : 1)) return false;
  const same = counts.filter((c) => c === n).length;
  return same / counts.length >= 0.9;
}

function countOutsideQuotes(s: string, sep: string): number {
  let n = 0;
  let q = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') q = !q;
    else if (!q && c === sep) n++;
  }
  return n;
}
