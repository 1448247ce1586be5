import type { Duplex, Transform } from 'node:stream';
import { duplex as makeDuplex } from '../kit/streams.js';
import type { Batch, PipelineContext } from '../kit/types.js';
import { RunState } from '../kit/stage.js';
import { Coverage, Spool, SPOOL_CAP_BYTES } from './spool.js';
import { frame } from './frame.js';
import { guard } from './guard.js';
import { classify } from './classify.js';
import { distill, Owner } from './distill.js';
import { collapse } from './collapse.js';
import { redact } from './redact.js';
import { passthroughRequested } from '../command/passthrough.js';
import { render, DEFAULT_HOLD_MS, DEFAULT_HOLD_IDLE_MS, DEFAULT_HOLD_BYTES, type RenderReport } from './render.js';

export interface Pipeline extends Duplex {
  /** The raw input, while the spool still holds all of it (for the run's trace). */
  rawInput(): Buffer | null;
  /** Filled in as the run goes; complete after 'end'. */
  report: RenderReport & { distiller: string; family: string; passthrough: string | null };
}

/**
 * The one distillation graph behind every door (exec, pipe, hook):
 *
 *   decode+frame -> guard -> classify -> distill -> collapse -> redact -> [ledger] -> render
 *
 * Write raw bytes in, read distilled (or, when the gate says so, the exact raw) bytes out.
 * The raw bytes are teed to a spool that keeps every byte the output has not yet covered,
 * so the verbatim fallback and the archive can always copy them.
 *
 * Once the run is known to be passthrough (structured, binary, invalid UTF-8, no
 * distiller), render hands over: the stages are ended, and from the offset render reached
 * the raw chunks go straight from the write side to the output, with no framing and no
 * copy through the spool. An internal error anywhere fails open the same way: from the raw
 * offset the delivered output covers, the rest of the input is copied through.
 */
export function createPipeline(ctx: PipelineContext): Pipeline {
  const run = new RunState();
  // Whatever may still be replaced by the raw bytes must stay in the spool: the whole hold
  // window (all of a hook's payload).
  const spool = new Spool(Math.max(SPOOL_CAP_BYTES, ctx.holdBytes ?? DEFAULT_HOLD_BYTES));
  const coverage = new Coverage();
  const report = { rawBytes: 0, outBytes: 0, changed: false, verbatim: null, streamed: false, rawHandle: null, rawCovered: 0, distiller: 'none', family: 'none', passthrough: null } as Pipeline['report'];
  if (passthroughRequested(ctx.command)) run.passthrough = 'passthrough';

  // 'pipeline': bytes go through the stages. 'draining': render handed over, its last bytes
  // are still on their way out. 'direct': raw chunks go straight to the output.
  let state: 'pipeline' | 'draining' | 'direct' = 'pipeline';
  let delivered = 0; // bytes that left through the tail
  let covered = 0; // the raw offset those bytes cover
  let finalCalled = false;
  // A write waiting for the head stage to drain, or for the hand-over / the reader.
  let pendingWrite: ((err?: Error | null) => void) | null = null;
  const release = () => { const f = pendingWrite; pendingWrite = null; f?.(); };

  // Who owns the output: classify reads the owner's own lines, distill runs its stage.
  const owner = new Owner(ctx, run);
  const stages: Transform[] = [frame(run), guard(run), classify(run, owner), distill(owner, run), collapse(run), redact(run, { maskAll: ctx.maskAll, read: ctx.tool === 'Read' })];
  if (ctx.ledger) stages.push(ctx.ledger(run));
  const tail = render(ctx, run, spool, report, {
    coverage,
    handOver: () => {
      if (state !== 'pipeline') return;
      state = 'draining';
      // Render writes nothing more: end the stages so the tail ends once its bytes are out.
      if (!stages[0].writableEnded) stages[0].end();
      release();
    },
  });
  stages.push(tail);
  // `pipe(dest)` ending dest itself compares dest with process.stdout and process.stderr, and
  // touching those builds both streams (net, tty: ~2 ms of a hook call that prints neither).
  // Ending each stage on its source's 'end' is the same as pipe's own.
  for (let i = 0; i < stages.length - 1; i++) {
    const next = stages[i + 1];
    stages[i].pipe(next, { end: false });
    stages[i].once('end', () => next.end());
  }
  const head = stages[0];

  // The hold window runs from the first raw byte, not from the first line to reach render:
  // look-ahead stages (guard) may be holding lines of a slow producer.
  const holdMs = ctx.holdMs ?? DEFAULT_HOLD_MS;
  const idleMs = Math.min(ctx.holdIdleMs ?? DEFAULT_HOLD_IDLE_MS, holdMs);
  let timer: NodeJS.Timeout | null = null;
  let idle: NodeJS.Timeout | null = null;
  const startTimer = () => {
    if (!Number.isFinite(holdMs) || run.streaming) return;
    if (!timer) {
      timer = setTimeout(() => run.startStreaming(), holdMs);
      timer.unref();
    }
    if (idle) idle.refresh();
    else {
      idle = setTimeout(() => run.startStreaming(), idleMs);
      idle.unref();
    }
  };
  const stopTimers = () => {
    if (timer) clearTimeout(timer);
    if (idle) clearTimeout(idle);
  };

  /** Raw bytes straight to the output; false when the reader wants a pause. */
  const pushRaw = (b: Buffer): boolean => {
    report.outBytes += b.length;
    report.rawCovered = spool.total;
    report.rawBytes = Math.max(report.rawBytes, spool.total);
    spool.release(spool.total);
    return b.length ? duplex.push(b) : true;
  };

  /** From the raw offset the delivered output covers, copy the rest of the input through. */
  const goDirect = () => {
    state = 'direct';
    stopTimers();
    for (const s of stages) { s.removeAllListeners('data'); s.destroy(); }
    // Output still queued in the stages was never delivered: the spool kept its raw bytes.
    report.outBytes = delivered;
    pushRaw(spool.slice(covered, spool.total));
    release();
    if (finalCalled) duplex.push(null);
  };

  const duplex = makeDuplex({
    write(chunk: Buffer, _enc, cb) {
      spool.push(chunk);
      if (state === 'direct') {
        if (!pushRaw(chunk)) pendingWrite = cb;
        else cb();
        return;
      }
      // Handed over: the chunk waits in the spool until the tail's last bytes are out.
      if (state === 'draining') { pendingWrite = cb; return; }
      startTimer();
      if (!head.write(chunk)) {
        pendingWrite = cb;
        head.once('drain', () => { if (state === 'pipeline') release(); });
      } else cb();
    },
    final(cb) {
      finalCalled = true;
      if (state === 'direct') duplex.push(null);
      else if (state === 'pipeline') head.end();
      cb();
    },
    read() {
      if (state === 'direct') release();
      else tail.resume();
    },
  }) as Pipeline;
  duplex.report = report;
  duplex.rawInput = () => (spool.truncated ? null : spool.all());

  tail.on('data', (b: Buffer) => {
    delivered += b.length;
    covered = coverage.delivered(delivered);
    spool.release(covered);
    if (!duplex.push(b)) tail.pause();
  });
  tail.on('end', () => {
    stopTimers();
    report.distiller = run.distiller;
    report.family = run.family;
    report.passthrough = run.passthrough;
    if (state === 'draining') return goDirect();
    if (state === 'direct') return;
    duplex.push(null);
  });
  const failOpen = (err: Error) => {
    // After a hand-over the stages' work is done; a late error there changes nothing.
    if (state === 'direct') return;
    if (state === 'pipeline') {
      report.verbatim = `internal error: ${err.message}`;
      report.changed = delivered > 0;
    }
    goDirect();
  };
  for (const s of stages) s.on('error', failOpen);
  return duplex;
}

export type { Batch };
