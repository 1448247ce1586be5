/**
 * render: Item batches -> bytes, as a small state machine.
 *
 *   holding --(hold window passed)--> streaming
 *      |  \                              |
 *      |   `--(passthrough)--> raw <-----'   (passthrough mid-run)
 *      |                        |
 *      |                        `--(nothing left to mask)--> handed over
 *      `--(input ended)--> the final gate (./final-gate.ts)
 *
 * - holding: nothing is written; at the end the final gate judges the whole run and picks the
 *   distilled or the raw bytes (a failing exit, a lost failure line, or too little saved means raw).
 * - streaming: past the hold window every batch goes out under the receipt budget
 *   (./receipt-budget.ts): every marker is archived before it is written, and a closing receipt
 *   names the whole raw output when something went out changed in place.
 * - raw: the run is passthrough: render copies the raw bytes from the offset the output covers
 *   (whole lines at a time when OMNI_MASK=all masks passthrough text).
 * - handed over: the caller (createPipeline) copies the raw chunks itself; render writes nothing more.
 */
import type { Transform } from 'node:stream';
import { buildingBuffered, transform } from '../kit/streams.js';
import type { Archive, Batch, Item } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';
import type { Coverage, Spool } from './spool.js';
import type { RunDescription } from './describe.js';
import { bytesMasker } from './redact.js';
import { judgeHeld } from './final-gate.js';
import { StreamBudget } from './receipt-budget.js';
import { maskedRaw, Output, Receipts, type RenderReport } from './render-output.js';

export type { RenderReport } from './render-output.js';
export { maskedRaw } from './render-output.js';
export { GATE_MIN_SAVED_BYTES, GATE_MIN_SAVED_RATIO, gate } from './final-gate.js';
export { RECEIPT_RESERVE_BYTES } from './receipt-budget.js';

/**
 * A streamed run's batches wait for their archive write up to this many raw bytes, or this
 * long: a fast stream's markers are archived in one transaction per 256 KiB rather than one per
 * 64 KiB batch (a transaction costs far more than its rows), and a slow producer's lines
 * still go out within a blink. Nothing waiting has gone out: a marker is written only after
 * the write that archived its lines.
 */
export const ARCHIVE_QUEUE_BYTES = 256 << 10;
export const ARCHIVE_QUEUE_MS = 25;

/** OMNI_MASK=all over passthrough text: a line longer than this goes out masked in pieces. */
const PASS_MASK_LINE_MAX = 1 << 20;

/** What render writes to and reads from, apart from the run's description. */
export interface RenderEdges {
  /** Receipt store for removed bytes. Without it nothing may be removed. */
  archive?: Archive;
  /** The exit code the door ended the input with; read once, when the input has ended. */
  exitCode: () => number | null;
  /** Notes, per buffer written, the raw offset the output then covers. */
  coverage?: Coverage;
  /**
   * The run is passthrough and output covers the raw input up to `covered`: from here the
   * caller copies raw chunks straight to the output, and render writes nothing more.
   */
  handOver?: (covered: number) => void;
}

type State = 'holding' | 'streaming' | 'raw' | 'handed';

export function render(desc: RunDescription, run: RunState, spool: Spool, report: RenderReport, edges: RenderEdges): Transform {
  return new Renderer(desc, run, spool, report, edges).stream;
}

class Renderer {
  readonly stream: Transform;
  private state: State = 'holding';
  private held: Item[] = [];
  private lastEnd = 0;
  private ended = false;
  private readonly output: Output;
  private readonly receipts: Receipts;
  private readonly budget: StreamBudget;
  private readonly raw: RawCopy;
  /** Streamed batches waiting for one archive write (ARCHIVE_QUEUE_BYTES), and the raw offset before them. */
  private queued: Item[][] = [];
  private queuedFrom = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  /** A buffered run (synchronous stages) renders each batch at once: no turn of the event loop ends it. */
  private readonly queues: boolean;

  constructor(private readonly desc: RunDescription, private readonly run: RunState, private readonly spool: Spool, private readonly report: RenderReport, private readonly edges: RenderEdges) {
    this.output = new Output(report, edges.coverage);
    this.receipts = new Receipts(edges.archive);
    this.budget = new StreamBudget(spool, this.output, this.receipts, run);
    this.raw = new RawCopy(desc.maskAll === true, run, spool, this.output);
    this.queues = !buildingBuffered();
    const self = this;
    this.stream = transform({
      writableObjectMode: true,
      writableHighWaterMark: BATCH_QUEUE,
      transform(batch: Batch, _enc, cb) {
        try {
          self.batch(batch);
          cb();
        } catch (err) {
          cb(err as Error);
        }
      },
      flush(cb) {
        try {
          self.end();
          cb();
        } catch (err) {
          cb(err as Error);
        }
      },
    });
    // The hold timer (started by createPipeline at the first raw byte) ends holding.
    run.onStreaming(() => { if (!this.ended) this.startStreaming(); });
  }

  private write(s: string | Buffer): void {
    this.output.write(this.stream, s);
  }

  private batch(batch: Batch): void {
    if (this.state === 'handed') return;
    const before = this.lastEnd;
    this.lastEnd = batch.end;
    this.report.rawBytes = batch.end;
    if (this.state === 'raw') return this.goRaw(batch.end);
    if (this.run.passthrough) {
      if (this.state === 'holding') { this.held = []; this.output.rawEmitted = 0; }
      this.flushQueue();
      return this.goRaw(batch.end);
    }
    if (this.state === 'streaming') return this.queue(batch.items, before);
    for (const it of batch.items) this.held.push(it);
    if (batch.end > this.desc.hold.bytes) this.startStreaming();
  }

  /** A streamed batch waits for the archive write of the batches around it (ARCHIVE_QUEUE_BYTES, ARCHIVE_QUEUE_MS). */
  private queue(items: Item[], before: number): void {
    if (!this.queued.length) this.queuedFrom = before;
    this.queued.push(items);
    if (!this.queues || this.lastEnd - this.queuedFrom >= ARCHIVE_QUEUE_BYTES) return this.flushQueue();
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      try {
        this.flushQueue();
      } catch (err) {
        // Outside the stream's own callbacks: fail the run open the way a throwing stage does.
        this.stream.destroy(err as Error);
      }
    }, ARCHIVE_QUEUE_MS);
  }

  /** The waiting batches' markers archived in one write, then each batch out under the budget, in order. */
  private flushQueue(): void {
    if (this.flushTimer) { clearTimeout(this.flushTimer); this.flushTimer = null; }
    if (!this.queued.length || this.stream.destroyed) return;
    const batches = this.queued;
    this.queued = [];
    const handles = this.receipts.markersOf(batches);
    for (let i = 0; i < batches.length; i++) this.write(this.budget.batch(batches[i], handles[i]));
  }

  private startStreaming(): void {
    if (this.state !== 'holding') return;
    this.state = 'streaming';
    this.report.streamed = true;
    this.run.startStreaming();
    if (this.run.passthrough) return this.toRaw(this.lastEnd);
    const items = this.held;
    this.held = [];
    this.write(this.budget.batch(items));
  }

  /** Copies the raw bytes from what output covers up to `upTo` (`last`: the input ends there). */
  private toRaw(upTo: number, last = false): void {
    if (this.state !== 'handed') this.state = 'raw';
    this.raw.copy((s) => this.write(s), upTo, last);
  }

  /** Passthrough mid-run: output is raw up to `end`; from there the caller may copy directly. */
  private goRaw(end: number): void {
    this.toRaw(end);
    // Masking passthrough text needs every byte to come through here.
    if (this.edges.handOver && !this.raw.masking()) {
      this.state = 'handed';
      this.edges.handOver(this.output.rawEmitted);
    }
  }

  /** The input ended: each state ends its own way. */
  private end(): void {
    this.flushQueue();
    this.ended = true;
    this.report.rawBytes = Math.max(this.report.rawBytes, this.spool.total);
    const exitCode = this.edges.exitCode();
    if (this.state === 'handed') {
      // The caller copies the rest: nothing more from here.
      this.report.verbatim ??= this.run.passthrough ?? 'passthrough';
      return;
    }
    if (this.state === 'raw' || this.run.passthrough) {
      if (this.state === 'holding') this.output.rawEmitted = 0;
      this.toRaw(this.spool.total, true);
      this.report.verbatim ??= this.run.passthrough ?? 'passthrough';
      return;
    }
    if (this.state === 'streaming') {
      const r = this.budget.close((s) => this.write(s), exitCode);
      this.report.changed = r.changed;
      if (r.rawHandle) this.report.rawHandle = r.rawHandle;
      return;
    }
    this.endHeld(exitCode);
  }

  /** Held to the end: the final gate's verdict goes out. */
  private endHeld(exitCode: number | null): void {
    const raw = this.spool.all();
    const v = judgeHeld(this.desc, this.run, this.held, raw, exitCode, this.receipts);
    if (v.rawHandle) this.report.rawHandle = v.rawHandle;
    if (v.kind === 'as-came') {
      this.report.verbatim = v.verbatim;
      return this.sendAsCame(v.failedExit);
    }
    this.report.changed = !v.out.equals(raw);
    this.output.rawEmitted = this.spool.total;
    this.write(v.out);
  }

  /**
   * The raw bytes instead of the distilled form (the final gate said no): a failing exit goes
   * out byte for byte (a failure is never folded or cut) unless OMNI_MASK=all; otherwise the raw bytes with every secret
   * the redact stage found masked, so masking never depends on what the distillation saved.
   */
  private sendAsCame(failedExit: boolean): void {
    this.output.rawEmitted = 0;
    if (failedExit && !this.desc.maskAll) return this.toRaw(this.spool.total, true);
    if (this.state !== 'handed') this.state = 'raw';
    const raw = this.spool.all();
    const masked = maskedRaw(raw, this.held);
    this.output.rawEmitted = this.spool.total;
    this.report.changed = !masked.equals(raw);
    this.write(masked);
  }
}

/**
 * The raw bytes from the offset the output covers. OMNI_MASK=all: a passthrough run of text
 * (structured data, an error, OMNI_PASSTHROUGH) is masked too, whole lines at a time; binary
 * and invalid UTF-8 never are.
 */
class RawCopy {
  private masker: ((data: Buffer) => Buffer) | null = null;

  constructor(private readonly maskAll: boolean, private readonly run: RunState, private readonly spool: Spool, private readonly output: Output) {}

  masking(): boolean {
    const p = this.run.passthrough;
    return this.maskAll && p !== null && p !== 'binary' && p !== 'invalid-utf8';
  }

  copy(write: (s: Buffer) => void, upTo: number, last: boolean): void {
    const { output, spool } = this;
    const from = output.rawEmitted;
    if (!this.masking()) {
      output.rawEmitted = Math.max(output.rawEmitted, upTo);
      write(spool.slice(from, upTo));
      return;
    }
    // Whole lines only, so a secret is never cut between two pieces; a line longer than the
    // spool's hold goes out in pieces rather than holding the stream.
    let to = upTo;
    if (!last) {
      const nl = spool.slice(from, upTo).lastIndexOf(10);
      if (nl < 0 && upTo - from < PASS_MASK_LINE_MAX) return;
      if (nl >= 0) to = from + nl + 1;
    }
    if (to <= from) return;
    this.masker ??= bytesMasker();
    output.rawEmitted = Math.max(output.rawEmitted, to);
    write(this.masker(spool.slice(from, to)));
  }
}
