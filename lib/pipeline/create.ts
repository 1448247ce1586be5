import type { Duplex, Transform } from 'node:stream';
import { duplex as makeDuplex } from '../kit/streams.js';
import type { Archive, Batch } from '../kit/types.js';
import { RunState } from '../kit/stage.js';
import { Coverage, Spool, SPOOL_CAP_BYTES } from './spool.js';
import { BlockCutter, FLUSH_IDLE_MS, FLUSH_MAX_MS } from './blocks.js';
import { frame } from './frame.js';
import { guard } from './guard.js';
import { classify } from './classify.js';
import { distill, Owner } from './distill.js';
import { collapse } from './collapse.js';
import { redact } from './redact.js';
import { render, type RenderReport } from './render.js';
import type { RunDescription } from './describe.js';

/** What a run writes to, passed in by the door beside the run's description. */
export interface RunEdges {
  /** Receipt store for removed bytes. Without it nothing may be removed. */
  archive?: Archive;
  /** The reader's ledger stage (inserted before render), built with the run's state (./ledger-edge.ts). */
  ledger?: (run: RunState) => Transform;
  /** The reader's record of texts shown whole (the ledger's `shownWholeIn`), for rewritten forms. */
  shownWhole?: (key: string) => boolean;
}

/** How the input ended: the door's `end({ exitCode })`. A failing exit goes out verbatim. */
export interface RunEnd {
  exitCode: number | null;
}

export interface Pipeline extends Duplex {
  /** The raw input, while the spool still holds all of it (for the run's trace). */
  rawInput(): Buffer | null;
  /** Filled in as the run goes; complete after 'end'. */
  report: RenderReport & { distiller: string; family: string; passthrough: string | null };
  /** Ends the input with the producer's exit code (and a last chunk, if any). */
  end(exit: RunEnd, last?: string | Buffer): this;
  end(cb?: () => void): this;
  end(chunk: unknown, cb?: () => void): this;
  end(chunk: unknown, encoding?: BufferEncoding, cb?: () => void): this;
}

/**
 * The one distillation graph behind every door (exec, pipe, hook):
 *
 *   decode+frame -> guard -> classify -> distill -> collapse -> redact -> [ledger] -> render
 *
 * Write raw bytes in, read distilled (or, when the gate says so, the exact raw) bytes out.
 * The raw bytes are teed to a spool that keeps every byte the output has not yet covered,
 * so the verbatim fallback and the archive can always copy them. The run's description is the
 * door's (./describe.ts): routed, its rules read, its hold window set before this is built.
 *
 * Once the run is known to be passthrough (structured, binary, invalid UTF-8, no
 * distiller), render hands over: the stages are ended, and from the offset render reached
 * the raw chunks go straight from the write side to the output, with no framing and no
 * copy through the spool. An internal error anywhere fails open the same way: from the raw
 * offset the delivered output covers, the rest of the input is copied through.
 */
export function createPipeline(desc: RunDescription, edges: RunEdges = {}): Pipeline {
  return new PipelineRun(desc, edges).duplex;
}

function isRunEnd(v: unknown): v is RunEnd {
  return typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && 'exitCode' in v;
}

/**
 * 'pipeline': bytes go through the stages. 'draining': render handed over, its last bytes are
 * still on their way out. 'direct': raw chunks go straight to the output.
 */
type Flow = 'pipeline' | 'draining' | 'direct';

/**
 * One run's state behind its Duplex: a node:stream one for a streaming run, a synchronous one
 * for a buffered run (../kit/streams.ts), built from the same functions.
 */
class PipelineRun {
  readonly duplex: Pipeline;
  readonly report: Pipeline['report'] = { rawBytes: 0, outBytes: 0, changed: false, verbatim: null, streamed: false, rawHandle: null, rawCovered: 0, distiller: 'none', family: 'none', passthrough: null };
  private readonly run = new RunState();
  private readonly spool: Spool;
  private readonly coverage = new Coverage();
  private readonly stages: Transform[];
  private readonly head: Transform;
  private readonly tail: Transform;
  private readonly timers: HoldTimers;
  private flow: Flow = 'pipeline';
  private delivered = 0; // bytes that left through the tail
  private covered = 0; // the raw offset those bytes cover
  private finalCalled = false;
  private exitCode: number | null = null;
  /** A write waiting for the head stage to drain, or for the hand-over / the reader. */
  private pendingWrite: ((err?: Error | null) => void) | null = null;
  /** A run that may stream cuts its input into blocks at fixed offsets (./blocks.ts); null: held to the end. */
  private readonly cutter: BlockCutter | null;
  private flushIdle: NodeJS.Timeout | null = null;
  private flushMax: NodeJS.Timeout | null = null;

  constructor(desc: RunDescription, edges: RunEdges) {
    // Whatever may still be replaced by the raw bytes must stay in the spool: the whole hold
    // window (all of a hook's payload).
    this.spool = new Spool(Math.max(SPOOL_CAP_BYTES, desc.hold.bytes));
    if (desc.passthrough) this.run.passthrough = 'passthrough';
    const run = this.run;
    run.shownWhole = edges.shownWhole ?? null;
    // Who owns the output: classify reads the owner's own lines, distill runs its stage.
    const owner = new Owner(desc, run);
    this.stages = [frame(run), guard(run), classify(run, owner), distill(owner, run), collapse(run), redact(run, { maskAll: desc.maskAll, read: desc.tool === 'Read' })];
    if (edges.ledger) this.stages.push(edges.ledger(run));
    this.tail = render(desc, run, this.spool, this.report, { archive: edges.archive, exitCode: () => this.exitCode, coverage: this.coverage, handOver: () => this.handOver() });
    this.stages.push(this.tail);
    // `pipe(dest)` ending dest itself compares dest with process.stdout and process.stderr, and
    // touching those builds both streams (net, tty: ~2 ms of a hook call that prints neither).
    // Ending each stage on its source's 'end' is the same as pipe's own.
    for (let i = 0; i < this.stages.length - 1; i++) {
      const next = this.stages[i + 1];
      this.stages[i].pipe(next, { end: false });
      this.stages[i].once('end', () => next.end());
    }
    this.head = this.stages[0];
    this.cutter = Number.isFinite(desc.hold.ms) ? new BlockCutter() : null;
    this.timers = new HoldTimers(desc.hold, run);
    this.duplex = this.makeDuplex();
    this.tail.on('data', (b: Buffer) => this.fromTail(b));
    this.tail.on('end', () => this.tailEnded());
    for (const s of this.stages) s.on('error', (err: Error) => this.failOpen(err));
  }

  /** The run's Duplex: its write side feeds the stages, its read side is what they deliver. */
  private makeDuplex(): Pipeline {
    const d = makeDuplex({
      write: (chunk: Buffer, _enc, cb) => this.write(chunk, cb),
      final: (cb) => this.final(cb),
      read: () => this.read(),
    }) as Pipeline;
    const plainEnd = d.end.bind(d) as (...a: unknown[]) => Pipeline;
    d.end = ((...args: unknown[]) => {
      const [first, last] = args;
      if (!isRunEnd(first)) return plainEnd(...args);
      // Read by render when the input has ended: the gate passes a failure through by it.
      this.exitCode = first.exitCode;
      if (last !== undefined) d.write(last);
      return plainEnd();
    }) as Pipeline['end'];
    d.report = this.report;
    d.rawInput = () => (this.spool.truncated ? null : this.spool.all());
    return d;
  }

  private push(b: Buffer | null): boolean {
    return this.duplex.push(b);
  }

  private write(chunk: Buffer, cb: (err?: Error | null) => void): void {
    // Direct: the chunk goes straight out below, so nothing past the head is kept of it.
    this.spool.push(chunk, this.flow === 'direct');
    if (this.flow === 'direct') {
      if (!this.pushRaw(chunk)) this.pendingWrite = cb;
      else cb();
      return;
    }
    // Handed over: the chunk waits in the spool until the tail's last bytes are out.
    if (this.flow === 'draining') { this.pendingWrite = cb; return; }
    this.timers.start();
    let ok = true;
    if (this.cutter) {
      for (const piece of this.cutter.push(chunk)) ok = this.head.write(piece);
      this.armFlush();
    } else ok = this.head.write(chunk);
    if (!ok) {
      this.pendingWrite = cb;
      this.head.once('drain', () => { if (this.flow === 'pipeline') this.release(); });
    } else cb();
  }

  /** What waits for its block goes on after a quiet spell, or once it has waited long enough. */
  private armFlush(): void {
    if (!this.cutter?.pending) return this.stopFlush();
    if (this.flushIdle) this.flushIdle.refresh();
    else (this.flushIdle = setTimeout(() => this.flushWaiting(), FLUSH_IDLE_MS)).unref();
    if (!this.flushMax) (this.flushMax = setTimeout(() => this.flushWaiting(), FLUSH_MAX_MS)).unref();
  }

  private stopFlush(): void {
    if (this.flushIdle) clearTimeout(this.flushIdle);
    if (this.flushMax) clearTimeout(this.flushMax);
    this.flushIdle = this.flushMax = null;
  }

  private flushWaiting(): void {
    // Waiting on the stages to drain is our pause, not the producer's: its next chunk is queued
    // behind this one, so what waits is not flushed early (the cut would then hang on our speed).
    if (this.pendingWrite && this.flow === 'pipeline') {
      this.stopFlush();
      (this.flushIdle = setTimeout(() => this.flushWaiting(), FLUSH_IDLE_MS)).unref();
      return;
    }
    this.stopFlush();
    const b = this.cutter?.take();
    // After a hand-over the spool holds these bytes; the raw copy delivers them.
    if (b && this.flow === 'pipeline' && !this.head.writableEnded) this.head.write(b);
  }

  private final(cb: (err?: Error | null) => void): void {
    this.finalCalled = true;
    if (this.flow === 'direct') this.push(null);
    else if (this.flow === 'pipeline') {
      this.stopFlush();
      const b = this.cutter?.take();
      if (b) this.head.write(b);
      this.head.end();
    }
    cb();
  }

  private read(): void {
    if (this.flow === 'direct') this.release();
    else this.tail.resume();
  }

  private release(): void {
    const f = this.pendingWrite;
    this.pendingWrite = null;
    f?.();
  }

  /** Render writes nothing more: end the stages so the tail ends once its bytes are out. */
  private handOver(): void {
    if (this.flow !== 'pipeline') return;
    this.flow = 'draining';
    this.stopFlush();
    this.cutter?.take(); // in the spool: delivered raw after the drain
    if (!this.head.writableEnded) this.head.end();
    this.release();
  }

  private fromTail(b: Buffer): void {
    this.delivered += b.length;
    this.covered = this.coverage.delivered(this.delivered);
    this.spool.release(this.covered);
    if (!this.push(b)) this.tail.pause();
  }

  private tailEnded(): void {
    this.timers.stop();
    this.stopFlush();
    this.report.distiller = this.run.distiller;
    this.report.family = this.run.family;
    this.report.passthrough = this.run.passthrough;
    if (this.flow === 'draining') return this.goDirect();
    if (this.flow === 'direct') return;
    this.push(null);
  }

  /** Raw bytes straight to the output; false when the reader wants a pause. */
  private pushRaw(b: Buffer): boolean {
    const { report, spool } = this;
    report.outBytes += b.length;
    report.rawCovered = spool.total;
    report.rawBytes = Math.max(report.rawBytes, spool.total);
    spool.release(spool.total);
    return b.length ? this.push(b) : true;
  }

  /** From the raw offset the delivered output covers, copy the rest of the input through. */
  private goDirect(): void {
    this.flow = 'direct';
    this.timers.stop();
    this.stopFlush();
    this.cutter?.take(); // in the spool: delivered raw below
    for (const s of this.stages) { s.removeAllListeners('data'); s.destroy(); }
    // Output still queued in the stages was never delivered: the spool kept its raw bytes.
    this.report.outBytes = this.delivered;
    this.pushRaw(this.spool.slice(this.covered, this.spool.total));
    this.release();
    if (this.finalCalled) this.push(null);
  }

  private failOpen(err: Error): void {
    // After a hand-over the stages' work is done; a late error there changes nothing.
    if (this.flow === 'direct') return;
    if (this.flow === 'pipeline') {
      this.report.verbatim = `internal error: ${err.message}`;
      this.report.changed = this.delivered > 0;
    }
    this.goDirect();
  }
}

/**
 * The hold window runs from the first raw byte, not from the first line to reach render:
 * look-ahead stages (guard) may be holding lines of a slow producer. It ends at `ms`, or once
 * no input arrived for `idleMs`; a window of Infinity keeps no timer at all.
 */
class HoldTimers {
  private timer: NodeJS.Timeout | null = null;
  private idle: NodeJS.Timeout | null = null;
  private readonly idleMs: number;

  constructor(private readonly hold: RunDescription['hold'], private readonly run: RunState) {
    this.idleMs = Math.min(hold.idleMs, hold.ms);
  }

  start(): void {
    if (!Number.isFinite(this.hold.ms) || this.run.streaming) return;
    if (!this.timer) {
      this.timer = setTimeout(() => this.run.startStreaming(), this.hold.ms);
      this.timer.unref();
    }
    if (this.idle) this.idle.refresh();
    else {
      this.idle = setTimeout(() => this.run.startStreaming(), this.idleMs);
      this.idle.unref();
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.idle) clearTimeout(this.idle);
  }
}

export type { Batch };
