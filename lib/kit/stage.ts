import type { Transform } from 'node:stream';
import { transform } from './streams.js';
import type { Batch, PassReason } from './types.js';

/**
 * State shared by the stages of one run. Stages only ever read what earlier stages
 * wrote, so a payload still travels in one direction.
 */
export class RunState {
  /** Set once the run must be delivered byte for byte (structured, binary, error). */
  passthrough: PassReason | null = null;
  /** Render switched from holding to streaming; stages that look ahead must decide now. */
  streaming = false;
  private listeners: Array<() => void> = [];
  /** Lines of input classified `failure` (the gate checks none were lost). */
  failureLines = 0;
  /** Progress redraw segments folded by frame. */
  redraws = 0;
  /** Lines a stage dropped without a marker (squeezed blank lines), and their bytes. */
  droppedLines = 0;
  droppedBytes = 0;
  /**
   * Lines a rewritten form left out without a marker (taken into a condensed line, or git's
   * bookkeeping), and their bytes: the closing receipt names the whole raw output and counts them.
   */
  leftOutLines = 0;
  leftOutBytes = 0;
  /** What the rewritten form did, said in that receipt ("one line per commit"), each once. */
  rewrites: string[] = [];
  /** Set by the distill stage: which distiller ran. */
  distiller = 'none';
  /** Its family for stats (test, build, git, …): the spec's `family`, set with `distiller`. */
  family = 'none';
  /** Secret values the redact stage replaced with `***` in shown lines (a key block counts once). */
  redactions = 0;
  /**
   * The reader's record of texts a rewritten form showed whole (`Rewrites.shownBefore`), from the
   * door's ledger; null when the run has no reader.
   */
  shownWhole: ((key: string) => boolean) | null = null;
  /** Texts this run shows whole (`Rewrites.show`): the ledger records them with its delivered lines. */
  shownKeys: string[] = [];

  onStreaming(fn: () => void): void {
    this.listeners.push(fn);
  }
  startStreaming(): void {
    if (this.streaming) return;
    this.streaming = true;
    for (const fn of this.listeners) fn();
  }
}

/** Batches queued per stage side (object mode counts objects, not bytes). */
export const BATCH_QUEUE = 2;

export type Push = (batch: Batch) => void;

/**
 * A stage is one small function that returns a Transform over `Batch` objects.
 * `onBatch` gets each batch and pushes zero or more; `onEnd` may push what it held.
 * The stage forwards batches untouched once the run is in passthrough.
 */
export function batchStage(
  run: RunState,
  onBatch: (batch: Batch, push: Push) => void,
  onEnd?: (push: Push, end: number) => void,
): Transform & { poke?: () => void } {
  let lastEnd = 0;
  const t = transform({
    objectMode: true,
    // Batches are ~64 KiB of lines each: a short queue per stage keeps memory flat.
    highWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc, cb) {
      lastEnd = batch.end;
      try {
        if (run.passthrough && !onEnd) this.push(batch);
        else onBatch(batch, (b) => this.push(b));
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
    flush(cb) {
      try {
        if (onEnd) onEnd((b) => this.push(b), lastEnd);
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
  });
  return t;
}
