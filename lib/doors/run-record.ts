import type { PipelineContext } from '../kit/types.js';
import type { Pipeline, RunEdges } from '../pipeline/create.js';
import type { LazyStore } from './store-access.js';
import { hashesOfLines, shownWholeIn, type LedgerStage } from '../pipeline/ledger.js';
import { LedgerEdge } from '../pipeline/ledger-edge.js';
import { loadShown, type Shown } from '../store/ledger.js';
import { filterPacked } from '../store/linehash.js';
import { headView, NOTHING, type ModelView } from '../hosts/model-view.js';
import { recordDistillation } from '../store/record.js';
import type { FileViewRow } from '../store/file-views.js';
import { logDiagnostic } from '../store/diagnostics.js';
import { analyzeCommand } from '../command/parse.js';

/** A file view as a door knows it: the reader scope comes from the run's context. */
export type FileViewRecord = Omit<FileViewRow, 'handle' | 'at' | 'sessionId' | 'agentId'> & { content: Uint8Array };

/** One run as the door records it, after the run and after the door decided what to do with it. */
export interface RunRecord {
  raw: Buffer | null;
  delivered: Buffer | null;
  bytesIn: number;
  bytesOut: number;
  distiller: string;
  family?: string;
  rawHandle?: string | null;
  /** The reader really received `delivered`. */
  applied: boolean;
  /** What of it reached the model (lib/hosts/model-view.ts). */
  view: ModelView;
  /** A file read: what the reader now holds of the file (lib/store/file-views.ts). */
  fileView?: FileViewRecord;
  /** The lines new to the reader when no ledger stage ran (a re-read answered from its views). */
  hashes?: Buffer;
  /** The clock's time for the rows (default now). */
  now?: number;
}

/**
 * What every door does around the one pipeline with the store: before the run, the run's edges
 * (the store's archive, and the ledger stage for this reader when there is a reader scope and a
 * store); after it, the run row, the traces for `omni diff` and the ledger's delivery row in one
 * transaction. Both halves fail open: a store that cannot do them costs the ledger and the
 * stats, never the output.
 */
export class RunBook {
  private ledger: LedgerEdge | null = null;
  constructor(private readonly ctx: PipelineContext, private readonly store: LazyStore) {}

  /** The run's edges: the archive, and the ledger when the run has a reader scope and the store opens. */
  edges(env: NodeJS.ProcessEnv): RunEdges {
    const shown = this.shown(env);
    this.ledger = shown ? new LedgerEdge(this.ctx, shown) : null;
    return { archive: this.store.archive(), ledger: this.ledger?.stage, shownWhole: shown ? shownWholeIn(shown.session) : undefined };
  }

  /** The same without the ledger (the door re-runs without it after the stage failed). */
  withoutLedger(): RunEdges {
    this.ledger = null;
    return { archive: this.store.archive() };
  }

  private shown(env: NodeJS.ProcessEnv): Shown | null {
    const { ctx } = this;
    if (!ctx.sessionId || !ctx.cwd || env.OMNI_LEDGER === '0') return null;
    try {
      const s = this.store.get();
      if (!s) return null;
      return loadShown(s, { sessionId: ctx.sessionId, agentId: ctx.agentId, cwd: ctx.cwd });
    } catch (err) {
      logDiagnostic('ledger', err);
      return null;
    }
  }

  /**
   * Records the run. The ledger records only lines known to have reached the model (`view`), so
   * an "already shown" fold is never a claim about lines the host cut away.
   */
  record(r: RunRecord): void {
    const { ctx } = this;
    try {
      const s = this.store.get();
      if (!s) return;
      const stage = this.ledger?.stageBuilt ?? null;
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
        now: r.now,
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

/** A streaming door's output as far as the run's trace keeps it (`collectTrace`). */
export interface DeliveredTrace {
  /** The bytes out, while they fit TRACE_CAP_BYTES. */
  readonly bytes: number;
  /** The output outgrew the cap: no trace. */
  readonly over: boolean;
  /** The whole output, or null once it outgrew the cap. */
  delivered(): Buffer | null;
}

interface Resizable {
  readonly byteLength: number;
  resize(n: number): void;
}
const ResizableBuffer = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer & Resizable;
const resizable = typeof (ArrayBuffer.prototype as unknown as Partial<Resizable>).resize === 'function';

/**
 * Tees a streaming door's output into a bounded buffer for the run's trace. The copy lives in one
 * resizable ArrayBuffer, so a run whose output outgrows the cap gives those pages back to the
 * system at once (`resize(0)`). Kept as the output's own buffers, they lived long enough to be
 * promoted to V8's old generation, and a long stream whose live data stays small may not collect
 * that generation again before it ends: up to 8 MiB held dead to the end of the run.
 */
export function collectTrace(p: Pipeline): DeliveredTrace {
  let ab: (ArrayBuffer & Resizable) | null = null;
  let parts: Buffer[] = [];
  const t = {
    bytes: 0,
    over: false,
    delivered: (): Buffer | null => {
      if (t.over) return null;
      return ab ? Buffer.from(ab, 0, t.bytes) : Buffer.concat(parts, t.bytes);
    },
  };
  p.on('data', (b: Buffer) => {
    if (t.over) return;
    const end = t.bytes + b.length;
    if (end > TRACE_CAP_BYTES) {
      t.over = true;
      parts = [];
      ab?.resize(0);
      ab = null;
      return;
    }
    if (resizable) {
      ab ??= new ResizableBuffer(0, { maxByteLength: TRACE_CAP_BYTES });
      if (ab.byteLength < end) ab.resize(Math.min(TRACE_CAP_BYTES, Math.max(end, 2 * ab.byteLength)));
      b.copy(new Uint8Array(ab), t.bytes);
    } else parts.push(b);
    t.bytes = end;
  });
  return t;
}

/**
 * The end of a streaming run (exec, pipe): one record with both traces. Such a door does not
 * know which host reads it (a pre-hook rewrite, `omni_run`), so only what every host shows
 * counts as shown: the whole output when it is short, else the complete lines of its head.
 */
export function recordRun(book: RunBook, p: Pipeline, trace: DeliveredTrace): void {
  const raw = p.rawInput();
  const r = p.report;
  const delivered = trace.delivered();
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
