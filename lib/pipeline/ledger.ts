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

/**
 * A text a rewritten form shows whole (one file's patch) is recorded beside the lines, in the
 * same set, under its own hash: the leading NUL keeps it apart from every line's trimmed text.
 */
function wholeHash(key: string, h: Uint32Array): void {
  lineHash(`\u0000${key}`, h);
}

/** The reader's record of texts shown whole, as a rewritten form asks it (RunEdges.shownWhole). */
export function shownWholeIn(session: HashLookup): (key: string) => boolean {
  const h = new Uint32Array(2);
  return (key) => {
    wholeHash(key, h);
    return session.has(h[0], h[1]);
  };
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
  /** Texts the run showed whole (RunState.shownKeys): recorded with the delivered lines. */
  readonly shownKeys?: readonly string[];
}

/**
 * The fold itself, for one reader with a store: which runs of this output the reader was shown
 * before, decided over the items in order, with no stream around it. Items go in with `push`;
 * what may go out is taken with `take`, `finish` at the end; `abandon` hands back everything
 * still held, as it came, and forgets what was to be recorded (a run delivered byte for byte).
 */
class LedgerFold {
  private readonly session: HashLookup;
  private readonly retrieved: ReadonlySet<string> | undefined;
  private readonly headOnly: boolean;
  private readonly patch: PatchLines | null;
  private readonly project: HashLookup | undefined;
  private readonly h = new Uint32Array(2);
  private readonly seen = new ShownSet(LEDGER_DELIVERED_CAP);
  private readonly pairs: number[] = [];
  private readonly consumedHandles = new Set<string>();
  private inBytes = 0;
  /** Gate: enough input seen to know the output is not tiny. */
  private open = false;
  private held: Item[] = [];
  private emittedAny = false;
  private cur: Run | null = null;
  private out: Item[] = [];

  private abandoned = false;

  constructor(ctx: PipelineContext, shown: LedgerShown, private readonly run?: LedgerRunView) {
    this.session = shown.session;
    this.retrieved = shown.retrieved;
    this.headOnly = ctx.tool === 'Read';
    this.patch = this.headOnly ? null : new PatchLines();
    this.project = this.headOnly && LEDGER_PROJECT_FOLD_SKIPS_READ ? undefined : shown.project;
  }

  private deliver(line: Line): void {
    this.out.push(line);
    this.emittedAny = true;
    // A line shown in another form (condensed, renumbered, masked) was not shown as it is:
    // recording its raw text would let a later run fold it as "already shown".
    // Failure and signal lines are recorded too: they reached the reader, and a Read of the
    // file they came from (a `cat` first, the Read after) may fold them.
    if (line.out !== undefined) return;
    const t = (line.plain ?? line.text).trim();
    if (t.length === 0) return;
    lineHash(t, this.h);
    if (this.session.has(this.h[0], this.h[1])) return; // already on record for this reader
    if (this.seen.add(this.h[0], this.h[1])) this.pairs.push(this.h[0], this.h[1]);
  }

  private closeRun(atEnd: boolean): void {
    const r = this.cur;
    if (!r) return;
    this.cur = null;
    const n = r.lines.length;
    const note = r.state === 'session' ? noteAlreadyShown(n) : noteNotShownHere(n);
    const markerCost = markerBytes(note);
    const minLines = r.state === 'session' ? LEDGER_MIN_RUN_LINES : LEDGER_PROJECT_MIN_RUN_LINES;
    const factor = r.state === 'session' ? LEDGER_MIN_SAVING_FACTOR : LEDGER_PROJECT_MIN_SAVING_FACTOR;
    let fold =
      r.count >= minLines &&
      r.bytes >= factor * markerCost &&
      (!this.headOnly || r.atHead) &&
      !(atEnd && r.atHead && this.inBytes < LEDGER_WHOLE_FOLD_MIN_BYTES);
    if (fold && this.retrieved && this.retrieved.size > 0) {
      const handle = handleOf(runBytes(r.lines));
      if (this.retrieved.has(handle)) {
        this.consumedHandles.add(handle);
        fold = false;
      }
    }
    if (fold) {
      const m: Marker = { kind: 'marker', note, hidden: r.lines };
      this.out.push(m);
      this.emittedAny = true;
    } else {
      for (const l of r.lines) this.deliver(l);
    }
  }

  private stateOf(line: Line): State | 'blank' | null {
    // Failure lines are never folded (the same TypeError on a re-run is the signal); nor are
    // signal lines (verdicts, summaries): on the corpus replay, folding them hid re-runs'
    // "Tests 500 passed" lines. Both end a run.
    // A file's text is not a tool's verdict: a Read's failure- or signal-looking lines fold too.
    if (!this.headOnly && (line.tier === 'failure' || line.tier === 'signal')) return null;
    // Nor is a line this run shows in another form (or its exact bytes, not UTF-8): the reader
    // gets that form, not a fold.
    if (line.out !== undefined || line.bytes !== undefined) return null;
    // Nor a patch's headers and hunk lines (they were placed before this, in `step`).
    const t = (line.plain ?? line.text).trim();
    if (t.length === 0) return 'blank';
    lineHash(t, this.h);
    if (this.session.has(this.h[0], this.h[1])) return 'session';
    if (this.project && this.project.has(this.h[0], this.h[1])) return 'project';
    return null;
  }

  private step(it: Item): void {
    if (it.kind !== 'line') {
      this.closeRun(false);
      this.out.push(it);
      this.emittedAny = true;
      return;
    }
    if (this.patch && this.patch.see(it.plain ?? it.text) !== null) {
      this.closeRun(false);
      this.deliver(it);
      return;
    }
    const st = this.stateOf(it);
    if (this.cur && !follows(this.cur, it)) this.closeRun(false);
    if (st === 'blank') {
      if (this.cur) {
        this.cur.lines.push(it);
        this.cur.bytes += itemBytes(it);
      } else this.deliver(it);
      return;
    }
    if (st === null) {
      this.closeRun(false);
      this.deliver(it);
      return;
    }
    if (this.cur && this.cur.state !== st) this.closeRun(false);
    if (!this.cur) this.cur = { state: st, lines: [], count: 0, bytes: 0, atHead: !this.emittedAny };
    this.cur.lines.push(it);
    this.cur.count++;
    this.cur.bytes += itemBytes(it);
    if (this.cur.bytes >= LEDGER_RUN_HOLD_CAP) this.closeRun(false);
  }

  /** One more item of the output, in order. */
  push(it: Item): void {
    this.inBytes += itemBytes(it);
    if (this.open) { this.step(it); return; }
    this.held.push(it);
    if (this.inBytes >= LEDGER_MIN_OUTPUT_BYTES) {
      this.open = true;
      const hs = this.held;
      this.held = [];
      for (const x of hs) this.step(x);
    }
  }

  /** What may go out so far. */
  take(): Item[] {
    const o = this.out;
    this.out = [];
    return o;
  }

  /** The input ended: the open run is decided, a tiny output goes out as it came. */
  finish(): Item[] {
    if (!this.open) {
      // Tiny output: delivered as it came.
      for (const it of this.held) {
        if (it.kind === 'line') this.deliver(it);
        else this.out.push(it);
      }
      this.held = [];
    } else this.closeRun(true);
    return this.take();
  }

  /** Everything held, as it came; nothing of this run is to be recorded. */
  abandon(): Item[] {
    const rest = [...this.out, ...this.held, ...(this.cur ? this.cur.lines : [])];
    this.out = [];
    this.held = [];
    this.cur = null;
    this.pairs.length = 0;
    this.abandoned = true;
    return rest;
  }

  /** Packed hashes of the lines delivered, new to this reader. */
  delivered(): Buffer {
    const pairs = [...this.pairs];
    if (!this.abandoned) {
      for (const key of new Set(this.run?.shownKeys)) {
        wholeHash(key, this.h);
        if (!this.session.has(this.h[0], this.h[1])) pairs.push(this.h[0], this.h[1]);
      }
    }
    return packHashes(Uint32Array.from(pairs), pairs.length / 2);
  }

  /** Retrieval handles whose run was delivered verbatim this time. */
  consumed(): string[] {
    return [...this.consumedHandles];
  }
}

/**
 * Creates the ledger stage. `shown === null` (no store) makes it a pass-through that
 * records nothing. With `run`, a run in passthrough (JSON, YAML, CSV, binary) is forwarded
 * untouched and nothing of it is recorded.
 */
export function createLedgerStage(ctx: PipelineContext, shown: LedgerShown | null, run?: LedgerRunView): LedgerStage {
  const fold = shown ? new LedgerFold(ctx, shown, run) : null;
  let lastEnd = 0;
  let bypass = false;
  const stage = transform({
    objectMode: true,
    highWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc: BufferEncoding, cb: TransformCallback) {
      lastEnd = batch.end;
      if (!fold || bypass) { cb(null, batch); return; }
      if (run?.passthrough) {
        // Passthrough decided mid-run: whatever was held goes out as it came; nothing of a
        // byte-for-byte run is recorded (render copies the raw bytes anyway).
        bypass = true;
        const rest = fold.abandon();
        cb(null, rest.length > 0 ? { items: [...rest, ...batch.items], end: batch.end } : batch);
        return;
      }
      for (const it of batch.items) fold.push(it);
      // Always forward the batch's end, even with no items: render tracks raw offsets by it.
      cb(null, { items: fold.take(), end: batch.end });
    },
    flush(cb: TransformCallback) {
      if (fold && !bypass) {
        // Passthrough decided at the very end: forward what was held, record nothing.
        bypass = !!run?.passthrough;
        const rest = bypass ? fold.abandon() : fold.finish();
        if (rest.length > 0) this.push({ items: rest, end: lastEnd });
      }
      cb();
    },
  }) as LedgerStage;
  stage.delivered = () => (fold ? fold.delivered() : packHashes(new Uint32Array(0), 0));
  stage.consumed = () => (fold ? fold.consumed() : []);
  return stage;
}
