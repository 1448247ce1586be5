/**
 * The reader's ledger as one of a run's edges (createPipeline's `ledger`): the door loads what
 * the reader was shown and hands it over; the stage is built here when the pipeline is, with the
 * run's state, and kept so the door can record, after the run, what it delivered.
 */
import type { Transform } from 'node:stream';
import type { PipelineContext } from '../kit/types.js';
import { createLedgerStage, type LedgerRunView, type LedgerShown, type LedgerStage } from './ledger.js';

export class LedgerEdge {
  private built: LedgerStage | null = null;

  constructor(private readonly ctx: PipelineContext, private readonly shown: LedgerShown) {}

  /** The stage factory createPipeline calls once, with the run's state. */
  readonly stage = (run: LedgerRunView): Transform => (this.built = createLedgerStage(this.ctx, this.shown, run));

  /** The stage the run built (null before the pipeline was built). */
  get stageBuilt(): LedgerStage | null {
    return this.built;
  }
}
