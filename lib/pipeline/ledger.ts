import { BATCH_QUEUE } from '../kit/stage.js';
/**
 * The ledger stage: output this reader was already shown comes back as one marker.
 *
 * Input and output chunks are `Batch`es (`{ items, end }`). A run of consecutive `Line`s (never a
 * `failure` or `signal` line: a repeated TypeError or a re-run's verdict is the news; never a
 * line of a patch, see below) whose trimmed text this reader was delivered before becomes
 * `Marker { note: 'N lines already shown', hidden }`; render archives the hidden bytes and
 * appends `— omni retrieve <handle>`. Lines only another session of the same project was
 * shown fold under a higher bar with the note `N lines not shown here (seen in another
 * session)`. Lines compare by their trimmed visible text (`plain ?? text`, so colour codes
 * do not matter). Blank lines are neutral: they join an open run but never count toward its length.
 *
 * A fold never changes what the output means, so the ledger folds only lines that stand alone:
 * a run is never made of, nor carried across, the lines that give an output its structure. In a
 * patch (`git diff`, `git show`, `git log -p`) that is every file header, hunk header and hunk
 * line (./patch-lines.ts): the same `+` line in the working tree's diff and in a commit's patch
 * says two different things, and a header folded into its neighbours would put one file's hunk
 * under another's name.
 *
 * A host's Read (`ctx.tool === 'Read'`) is a file's text: only its head may fold (a fold
 * elsewhere would shift the host's line numbers), and its lines fold whatever classify made of
 * them: a source line `raise ValueError(…)` states no failure of anything, it is the file.
 *
 * The stage holds items only while it cannot decide yet: until `LEDGER_MIN_OUTPUT_BYTES` of
 * input arrived (tiny outputs are never folded) and while a candidate run is open.
 * Decisions depend on the lines and the store state only, never on chunking or timing.
 *
 * It collects the hashes of the lines it lets through; the door records them with
 * `recordDelivered` after the output was written (`delivered()`), plus the retrieval
 * handles it honoured (`consumed()`).
 */
import type { Transform, TransformCallback } from 'node:stream';
import { transform } from '../kit/streams.js';
import type { Batch, Item, Line, Marker, PipelineContext } from '../kit/types.js';
import { lineHash, packHashes, ShownSet, SHOWN_SET_CAP, type HashLookup } from '../store/linehash.js';
import { handleOf } from '../store/archive.js';
import { lineByteLength, markerBytes, runBytes } from '../kit/marker.js';
import { PatchLines } from './patch-lines.js';

/** Outputs smaller than this are never folded: the marker is not worth the reader's doubt. */
export const LEDGER_MIN_OUTPUT_BYTES = 512;
/**
 * A fold that would replace the whole output needs this much output: every smaller one
 * would just be retrieved (the OMNI precedent: whole-output folds under 1 KiB were pulled
 * back within seconds).
 */
export const LEDGER_WHOLE_FOLD_MIN_BYTES = 1024;
/** "already shown": at least this many non-blank lines in the run. */
export const LEDGER_MIN_RUN_LINES = 6;
/** "already shown": the run's bytes must be at least this multiple of the marker's bytes. */
export const LEDGER_MIN_SAVING_FACTOR = 4;
/** "not shown here" (another session saw them): the higher bar, lines. */
export const LEDGER_PROJECT_MIN_RUN_LINES = 20;
/** "not shown here": the higher bar, bytes as a multiple of the marker. */
export const LEDGER_PROJECT_MIN_SAVING_FACTOR = 10;
/**
 * "not shown here" folds are off for a Read: the reader asked for a file it does not hold,
 * so hiding it behind a marker only costs a retrieve round trip.
 */
export const LEDGER_PROJECT_FOLD_SKIPS_READ = true;
/** An open run longer than this is decided at once so memory stays bounded while streaming. */
export const LEDGER_RUN_HOLD_CAP = 4 * 1024 * 1024;
/** Most line hashes recorded for one delivery: a reader's set holds no more (SHOWN_SET_CAP). */
export const LEDGER_DELIVERED_CAP = SHOWN_SET_CAP;

export const noteAlreadyShown = (n: number): string => `${n} lines already shown`;
export const noteNotShownHere = (n: number): string => `${n} lines not shown here (seen in another session)`;

/**
 * The hashes of the lines of `text` as the stage compares lines (trimmed, blank lines left out).
 * `text` is what reached the model: a host's preview, head or tail.
 */
export function hashesOfLines(text: string): ShownSet {
  const lines = text.split('\n');
  const set = new ShownSet(Math.min(lines.length, SHOWN_SET_CAP));
  const h = new Uint32Array(2);
  for (const l of lines) {
    const t = l.trim();
    if (t.length === 0) continue;
    lineHash(t, h);
    set.add(h[0], h[1]);
  }
  return set;
}

export interface LedgerShown {
  session: HashLookup;
  project: HashLookup;
  /** Handles recently pulled with `omni retrieve` (delivered verbatim once). */
  retrieved?: ReadonlySet<string>;
}

export interface LedgerStage extends Transform {
  /** Packed 8-byte hashes of the lines delivered (not folded), new to this reader. */
  delivered(): Buffer;
  /** Retrieval handles whose run was delivered verbatim this time. */
  consumed(): string[];
}

/** The exact bytes of a run of lines, as render archives them (re-exported for callers). */
export { runBytes };

function itemBytes(it: Item): number {
  if (it.kind === 'line') return lineByteLength(it);
  let n = 0;
  for (const l of it.hidden) n += lineByteLength(l);
  return n;
}

type State = 'session' | 'project';

/**
 * A fold's marker stands for one contiguous run of the input: a line joins the open run only
 * when it is the input line right after the run's last one (a rewritten form leaves lines out,
 * and the generic fold squeezes blank lines, so two neighbours in the output need not be
 * neighbours in the input).
 */
function follows(r: { lines: Line[] }, l: Line): boolean {
  const last = r.lines[r.lines.length - 1];
  return last === undefined || l.index === last.index + 1;
}

interface Run {
  state: State;
  lines: Line[];
  count: number;
  bytes: number;
  atHead: boolean;
}

/** What the stage reads from the run's shared state (lib/kit/stage.ts RunState). */
export interface LedgerRunView {
  /** Set once the run is delivered byte for byte (structured data, binary): forward untouched. */
  readonly passthrough: unknown;
}

/**
 * Creates the ledger stage. `shown === null` (no store) makes it a pass-through that
 * records nothing. With `run`, a run in passthrough (JSON, YAML, CSV, binary) is forwarded
 * untouched and nothing of it is recorded.
 */
export function createLedgerStage(ctx: PipelineContext, shown: LedgerShown | null, run?: LedgerRunView): LedgerStage {
  const session = shown?.session;
  const retrieved = shown?.retrieved;
  const headOnly = ctx.tool === 'Read';
  // A file's text is not a tool's verdict: a Read's failure- or signal-looking lines fold too.
  const tiersCount = !headOnly;
  const patch = headOnly ? null : new PatchLines();
  const project = headOnly && LEDGER_PROJECT_FOLD_SKIPS_READ ? undefined : shown?.project;
  const h = new Uint32Array(2);
  const seen = new ShownSet(LEDGER_DELIVERED_CAP);
  const pairs: number[] = [];
  const consumedHandles = new Set<string>();

  let inBytes = 0;
  let open = false; // gate: enough input seen to know the output is not tiny
  let held: Item[] = [];
  let emittedAny = false;
  let cur: Run | null = null;
  let out: Item[] = [];
  let lastEnd = 0;
  let bypass = false;

  function deliver(line: Line): void {
    out.push(line);
    emittedAny = true;
    // A line shown in another form (condensed, renumbered, masked) was not shown as it is:
    // recording its raw text would let a later run fold it as "already shown".
    // Failure and signal lines are recorded too: they reached the reader, and a Read of the
    // file they came from (a `cat` first, the Read after) may fold them.
    if (!shown || line.out !== undefined) return;
    const t = (line.plain ?? line.text).trim();
    if (t.length === 0) return;
    lineHash(t, h);
    if (session!.has(h[0], h[1])) return; // already on record for this reader
    if (seen.add(h[0], h[1])) pairs.push(h[0], h[1]);
  }

  function closeRun(atEnd: boolean): void {
    const r = cur;
    if (!r) return;
    cur = null;
    const n = r.lines.length;
    const note = r.state === 'session' ? noteAlreadyShown(n) : noteNotShownHere(n);
    const markerCost = markerBytes(note);
    const minLines = r.state === 'session' ? LEDGER_MIN_RUN_LINES : LEDGER_PROJECT_MIN_RUN_LINES;
    const factor = r.state === 'session' ? LEDGER_MIN_SAVING_FACTOR : LEDGER_PROJECT_MIN_SAVING_FACTOR;
    let fold =
      r.count >= minLines &&
      r.bytes >= factor * markerCost &&
      (!headOnly || r.atHead) &&
      !(atEnd && r.atHead && inBytes < LEDGER_WHOLE_FOLD_MIN_BYTES);
    if (fold && retrieved && retrieved.size > 0) {
      const handle = handleOf(runBytes(r.lines));
      if (retrieved.has(handle)) {
        consumedHandles.add(handle);
        fold = false;
      }
    }
    if (fold) {
      const m: Marker = { kind: 'marker', note, hidden: r.lines };
      out.push(m);
      emittedAny = true;
    } else {
      for (const l of r.lines) deliver(l);
    }
  }

  function stateOf(line: Line): State | 'blank' | null {
    // Failure lines are never folded (the same TypeError on a re-run is the signal); nor are
    // signal lines (verdicts, summaries): on the corpus replay, folding them hid re-runs'
    // "Tests 500 passed" lines. Both end a run.
    if (tiersCount && (line.tier === 'failure' || line.tier === 'signal')) return null;
    // Nor is a line this run shows in another form (or its exact bytes, not UTF-8): the reader
    // gets that form, not a fold.
    if (line.out !== undefined || line.bytes !== undefined) return null;
    // Nor a patch's headers and hunk lines (they were placed before this, in `step`).
    const t = (line.plain ?? line.text).trim();
    if (t.length === 0) return 'blank';
    lineHash(t, h);
    if (session!.has(h[0], h[1])) return 'session';
    if (project && project.has(h[0], h[1])) return 'project';
    return null;
  }

  function step(it: Item): void {
    if (it.kind !== 'line') {
      closeRun(false);
      out.push(it);
      emittedAny = true;
      return;
    }
    if (patch && patch.see(it.plain ?? it.text) !== null) {
      closeRun(false);
      deliver(it);
      return;
    }
    const st = stateOf(it);
    if (cur && !follows(cur, it)) closeRun(false);
    if (st === 'blank') {
      if (cur) {
        cur.lines.push(it);
        cur.bytes += itemBytes(it);
      } else deliver(it);
      return;
    }
    if (st === null) {
      closeRun(false);
      deliver(it);
      return;
    }
    if (cur && cur.state !== st) closeRun(false);
    if (!cur) cur = { state: st, lines: [], count: 0, bytes: 0, atHead: !emittedAny };
    cur.lines.push(it);
    cur.count++;
    cur.bytes += itemBytes(it);
    if (cur.bytes >= LEDGER_RUN_HOLD_CAP) closeRun(false);
  }

  const stage = transform({
    objectMode: true,
    highWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc: BufferEncoding, cb: TransformCallback) {
      lastEnd = batch.end;
      if (!shown || bypass || run?.passthrough) {
        if (!bypass && shown) {
          // Passthrough decided mid-run: whatever was held goes out as it came; nothing of a
          // byte-for-byte run is recorded (render copies the raw bytes anyway).
          bypass = true;
          const rest = [...out, ...held, ...(cur ? cur.lines : [])];
          out = [];
          held = [];
          cur = null;
          pairs.length = 0;
          cb(null, rest.length > 0 ? { items: [...rest, ...batch.items], end: batch.end } : batch);
          return;
        }
        cb(null, batch);
        return;
      }
      for (const it of batch.items) {
        inBytes += itemBytes(it);
        if (open) step(it);
        else {
          held.push(it);
          if (inBytes >= LEDGER_MIN_OUTPUT_BYTES) {
            open = true;
            const hs = held;
            held = [];
            for (const x of hs) step(x);
          }
        }
      }
      // Always forward the batch's end, even with no items: render tracks raw offsets by it.
      const o = out;
      out = [];
      cb(null, { items: o, end: batch.end });
    },
    flush(cb: TransformCallback) {
      if (shown && !bypass && run?.passthrough) {
        // Passthrough decided at the very end: forward what was held, record nothing.
        const rest = [...out, ...held, ...(cur ? cur.lines : [])];
        bypass = true;
        pairs.length = 0;
        cur = null;
        if (rest.length > 0) this.push({ items: rest, end: lastEnd });
        out = [];
        held = [];
      }
      if (shown && !bypass) {
        if (!open) {
          // Tiny output: delivered as it came.
          for (const it of held) {
            if (it.kind === 'line') deliver(it);
            else out.push(it);
          }
          held = [];
        } else closeRun(true);
        if (out.length > 0) this.push({ items: out, end: lastEnd });
        out = [];
      }
      cb();
    },
  }) as LedgerStage;
  stage.delivered = () => packHashes(Uint32Array.from(pairs), pairs.length / 2);
  stage.consumed = () => [...consumedHandles];
  return stage;
}
