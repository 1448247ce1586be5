import type { PipelineContext } from '../pipeline/types.js';
import type { Pipeline } from '../pipeline/create.js';
import type { LazyStore } from './store-access.js';
import { createLedgerStage, hashesOfLines, type LedgerStage } from '../pipeline/ledger.js';
import { loadShown } from '../store/ledger.js';
import { filterPacked } from '../store/linehash.js';
import { headView, NOTHING, type ModelView } from './model-view.js';
import { recordDistillation } from '../store/record.js';
import type { FileViewRow } from '../store/file-views.js';

/** A file view as a door knows it: the reader scope comes from the run's context. */
export type FileViewRecord = Omit<FileViewRow, 'handle' | 'at' | 'sessionId' | 'agentId'> & { content: Uint8Array };
import { logDiagnostic } from '../store/diagnostics.js';
import { analyzeCommand } from '../command/parse.js';

/**
 * What every door does around the one pipeline with the store: before the run, attach the
 * ledger stage for this reader (when there is a reader scope and a store); after it, write
 * the run row, the traces for `omni diff` and the ledger's delivery row in one transaction.
 * Both halves fail open: a store that cannot do them costs the ledger and the stats, never
 * the output.
 */
export class RunBook {
  private stage: LedgerStage | null = null;
  constructor(private readonly ctx: PipelineContext, private readonly store: LazyStore) {}

  /** Sets `ctx.ledger` when the run has a reader scope and the store opens. */
  attachLedger(env: NodeJS.ProcessEnv): void {
    const { ctx } = this;
    if (!ctx.sessionId || !ctx.cwd || env.OMNI_LEDGER === '0') return;
    try {
      const s = this.store.get();
      if (!s) return;
      const shown = loadShown(s, { sessionId: ctx.sessionId, agentId: ctx.agentId, cwd: ctx.cwd });
      ctx.ledger = (run) => (this.stage = createLedgerStage(ctx, shown, run));
    } catch (err) {
      logDiagnostic('ledger', err);
    }
  }

  /** Drops the ledger (the door re-runs without it after the stage failed). */
  detachLedger(): void {
    this.ctx.ledger = undefined;
    this.stage = null;
  }

  get ledgerAttached(): boolean {
    return !!this.ctx.ledger;
  }

  /**
   * Records the run. `applied`: the reader really received `delivered`. `view`: what of it
   * reached the model (lib/doors/model-view.ts); the ledger records only lines known to have
   * reached it, so an "already shown" fold is never a claim about lines the host cut away.
   */
  record(r: {
    raw: Buffer | null; delivered: Buffer | null; bytesIn: number; bytesOut: number; distiller: string; family?: string; rawHandle?: string | null; applied: boolean; view: ModelView;
    /** A file read: what the reader now holds of the file (lib/store/file-views.ts). */
    fileView?: FileViewRecord;
    /** The lines new to the reader when no ledger stage ran (a re-read answered from its views). */
    hashes?: Buffer;
  }): void {
    const { ctx } = this;
    try {
      const s = this.store.get();
      if (!s) return;
      const stage = this.stage;
      const reader = ctx.sessionId && ctx.cwd ? { sessionId: ctx.sessionId, agentId: ctx.agentId, cwd: ctx.cwd } : null;
      recordDistillation(s, {
        run: {
          door: ctx.door, host: ctx.host ?? null, family: r.family ?? r.distiller, command: commandHead(ctx.command),
          sessionId: ctx.sessionId ?? null, cwd: ctx.cwd ?? null, bytesIn: r.bytesIn, bytesOut: r.bytesOut,
          applied: r.applied, rawHandle: r.rawHandle ?? null,
        },
        raw: r.raw ?? undefined,
        delivered: r.delivered ?? undefined,
        ledger: reader && stage ? { ...reader, ...shownOf(stage, r.view) } : reader && r.hashes ? { ...reader, hashes: r.hashes } : undefined,
        fileView: r.fileView && ctx.sessionId ? { ...r.fileView, sessionId: ctx.sessionId, agentId: ctx.agentId } : undefined,
      });
    } catch (err) {
      logDiagnostic('record', err);
    }
  }
}

/**
 * The stage's delivered lines that reached the model. A retrieval's "verbatim once" is used up
 * only when the whole delivery reached it.
 */
export function shownOf(stage: LedgerStage, view: ModelView): { hashes: Buffer; consumed: string[] } {
  switch (view.kind) {
    case 'whole':
      return { hashes: stage.delivered(), consumed: stage.consumed() };
    case 'lines':
      return { hashes: filterPacked(stage.delivered(), hashesOfLines(view.text)), consumed: [] };
    case 'none':
      return { hashes: Buffer.alloc(0), consumed: [] };
  }
}

/**
 * The producer's program and subcommand, never the arguments (they may hold paths or
 * secrets): the same command-line reading the registry routes by.
 */
export function commandHead(command: string | undefined): string | null {
  if (!command) return null;
  const { argv } = analyzeCommand(command);
  return argv.slice(0, 2).filter((w) => !w.startsWith('-')).join(' ').slice(0, 80) || null;
}
/** Delivered bytes kept for `omni diff`; a longer stream keeps no trace. */
export const TRACE_CAP_BYTES = 8 << 20;

/** Tees a streaming door's output into a bounded buffer for the run's trace. */
export function collectTrace(p: Pipeline): { chunks: Buffer[]; bytes: number; over: boolean } {
  const t = { chunks: [] as Buffer[], bytes: 0, over: false };
  p.on('data', (b: Buffer) => {
    if (t.over) return;
    t.bytes += b.length;
    if (t.bytes > TRACE_CAP_BYTES) { t.over = true; t.chunks = []; return; }
    t.chunks.push(b);
  });
  return t;
}

/**
 * The end of a streaming run (exec, pipe): one record with both traces. Such a door does not
 * know which host reads it (a pre-hook rewrite, `omni_run`), so only what every host shows
 * counts as shown: the whole output when it is short, else the complete lines of its head.
 */
export function recordRun(book: RunBook, p: Pipeline, trace: { chunks: Buffer[]; over: boolean }): void {
  const raw = p.rawInput();
  const r = p.report;
  const delivered = trace.over ? null : Buffer.concat(trace.chunks);
  book.record({
    view: delivered ? headView(delivered.toString('utf8')) : NOTHING,
    raw: raw && raw.length <= TRACE_CAP_BYTES ? raw : null,
    delivered,
    bytesIn: r.rawBytes,
    bytesOut: r.outBytes,
    distiller: r.distiller,
    family: r.family,
    rawHandle: r.rawHandle,
    applied: r.changed,
  });
}
