/**
 * Distilling one buffered text over a store the caller holds: the hook door (one store per hook
 * call) and the in-process Pi extension (one store per Pi session) both come through here, so
 * both get the same pipeline, archive, ledger and run record as exec and pipe.
 */
import type { PipelineContext } from '../pipeline/types.js';
import type { Store } from '../store/open.js';
import type { LazyStore } from './store-access.js';
import type { ModelView } from './model-view.js';
import type { FileViewRecord } from './run-record.js';

export interface Distilled {
  output: string;
  changed: boolean;
}

/**
 * What the door does with a distillation, decided before anything is recorded: its reply
 * ('' = none) and what of the text reached the model (lib/doors/model-view.ts). The ledger
 * records only that, and the run counts as applied only when a reply went out.
 */
export interface Settled<R> {
  reply: R;
  applied: boolean;
  view: ModelView;
  /** A file read: what the reader holds of the file after it (lib/store/file-views.ts). */
  fileView?: FileViewRecord;
}

/** Session work to do on the store the distillation used (./session-events.ts). */
export type AfterDistil = (store: Store, events: typeof import('./session-events.js')) => void;

export async function distilText<R>(
  ctx: PipelineContext,
  text: string,
  env: NodeJS.ProcessEnv,
  store: LazyStore,
  after: AfterDistil | undefined,
  log: (what: string) => void,
  settle: (d: Distilled) => Settled<R>,
): Promise<R> {
  const [{ distillBuffer }, { RunBook }] = await Promise.all([import('../pipeline/run.js'), import('./run-record.js')]);
  ctx.archive = store.archive();
  // Rules of one's own are read from the omni home the host's env names, not this process's.
  if (env.OMNI_HOME && !ctx.rules) ctx.rules = { home: env.OMNI_HOME };
  const book = new RunBook(ctx, store);
  book.attachLedger(env);
  const input = Buffer.from(text, 'utf8');
  let res = await distillBuffer(ctx, input);
  if (book.ledgerAttached && res.verbatim?.startsWith('internal error')) {
    // A broken ledger must not cost the distillation: log it, run once more without it.
    log(`ledger stage failed (${res.verbatim}); distilled without the ledger`);
    book.detachLedger();
    res = await distillBuffer(ctx, input);
  }
  if (env.OMNI_HOOK_TRACE) log(`distil ${ctx.tool} ${res.rawBytes} B -> ${res.outBytes} B (${res.distiller}${res.verbatim ? `, verbatim: ${res.verbatim}` : ''}${book.ledgerAttached ? ', ledger' : ''})`);
  const distilled: Distilled = { output: res.output.toString('utf8'), changed: res.changed };
  const settled = settle(distilled);
  book.record({ raw: input, delivered: res.output, bytesIn: res.rawBytes, bytesOut: res.outBytes, distiller: res.distiller, family: res.family, rawHandle: res.rawHandle, applied: settled.applied, view: settled.view, fileView: settled.fileView });
  if (after) {
    try {
      const s = store.get();
      if (s) after(s, await import('./session-events.js'));
    } catch (err) {
      log(`session memory: ${(err as Error).message}`);
    }
  }
  return settled.reply;
}
