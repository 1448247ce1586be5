import { Duplex, type Transform } from 'node:stream';
import type { Batch, PipelineContext } from './types.js';
import { RunState } from './stage.js';
import { Spool, SPOOL_CAP_BYTES } from './spool.js';
import { frame } from './frame.js';
import { guard } from './guard.js';
import { classify } from './classify.js';
import { distill } from './distill.js';
import { collapse } from './collapse.js';
import { redact } from './redact.js';
import { passthroughRequested } from './passthrough.js';
import { render, DEFAULT_HOLD_MS, DEFAULT_HOLD_IDLE_MS, DEFAULT_HOLD_BYTES, type RenderReport } from './render.js';

export interface Pipeline extends Duplex {
  /** The raw input, while the spool still holds all of it (for the run's trace). */
  rawInput(): Buffer | null;
  /** Filled in as the run goes; complete after 'end'. */
  report: RenderReport & { distiller: string; passthrough: string | null };
}

/**
 * The one distillation graph behind every door (exec, pipe, hook):
 *
 *   decode+frame -> guard -> classify -> distill -> collapse -> redact -> [ledger] -> render
 *
 * Write raw bytes in, read distilled (or, when the gate says so, the exact raw) bytes out.
 * The raw bytes are teed to a bounded spool that feeds the verbatim fallback and the
 * archive. An internal error anywhere fails open: the raw bytes not yet covered by output
 * are written as they are, and the rest of the input is copied through.
 */
export function createPipeline(ctx: PipelineContext): Pipeline {
  const run = new RunState();
  // Whatever may still be replaced by the raw bytes must stay in the spool: the whole hold
  // window (all of a hook's payload).
  const spool = new Spool(Math.max(SPOOL_CAP_BYTES, ctx.holdBytes ?? DEFAULT_HOLD_BYTES));
  const report = { rawBytes: 0, outBytes: 0, changed: false, verbatim: null, streamed: false, rawHandle: null, rawCovered: 0, distiller: 'none', passthrough: null } as Pipeline['report'];
  if (passthroughRequested(ctx.command)) run.passthrough = 'passthrough';

  const stages: Transform[] = [frame(run), guard(run), classify(run), distill(ctx, run), collapse(run), redact(run)];
  if (ctx.ledger) stages.push(ctx.ledger(run));
  const tail = render(ctx, run, spool, report);
  stages.push(tail);
  for (let i = 0; i < stages.length - 1; i++) stages[i].pipe(stages[i + 1]);
  const head = stages[0];

  let failed = false;
  // A write waiting for the head stage to drain; a failure must release it.
  let pendingWrite: ((err?: Error | null) => void) | null = null;
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
  const duplex = new Duplex({
    write(chunk: Buffer, _enc, cb) {
      spool.push(chunk);
      startTimer();
      if (failed) { duplex.push(chunk); return cb(); }
      if (!head.write(chunk)) {
        pendingWrite = cb;
        head.once('drain', () => { const f = pendingWrite; pendingWrite = null; f?.(); });
      } else cb();
    },
    final(cb) {
      if (failed) { duplex.push(null); return cb(); }
      head.end();
      cb();
    },
    read() {
      tail.resume();
    },
  }) as Pipeline;
  duplex.report = report;
  duplex.rawInput = () => (spool.truncated ? null : spool.all());

  tail.on('data', (b: Buffer) => {
    if (failed) return;
    if (!duplex.push(b)) tail.pause();
  });
  tail.on('end', () => {
    if (timer) clearTimeout(timer);
    if (idle) clearTimeout(idle);
    if (failed) return;
    report.distiller = run.distiller;
    report.passthrough = run.passthrough;
    duplex.push(null);
  });
  const failOpen = (err: Error) => {
    if (failed) return;
    failed = true;
    report.verbatim = `internal error: ${err.message}`;
    report.changed = report.outBytes > 0;
    for (const s of stages) { s.removeAllListeners('data'); s.destroy(); }
    // Nothing written yet: the whole input goes out raw. Otherwise the bytes after the
    // last rendered line (the spool still holds them unless they passed its cap).
    const from = report.outBytes === 0 ? 0 : report.rawCovered;
    const rest = spool.slice(from, spool.total);
    if (rest) duplex.push(rest);
    if (pendingWrite) { const f = pendingWrite; pendingWrite = null; f(); }
    if (duplex.writableFinished) duplex.push(null);
  };
  for (const s of stages) s.on('error', failOpen);
  return duplex;
}

export type { Batch };
