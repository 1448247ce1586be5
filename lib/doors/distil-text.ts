/**
 * Distilling one buffered text of a successful tool call over a store the caller holds: the
 * post-tool decision (./post-tool.ts, behind the command hook, the MCP hook tool and `omni
 * discover`) and the in-process Pi extension both come through here, so all get the same
 * pipeline, archive and ledger as exec and pipe. The caller decides what to do with the result
 * and then records it (`recordDistilled`): nothing here calls back into a door.
 */
import type { DistillResult } from '../pipeline/run.js';
import type { RunDescription } from '../pipeline/describe.js';
import type { ModelView } from '../hosts/model-view.js';
import type { FileViewRecord, RunBook } from './run-record.js';

export interface Distilled {
  /** The text as it came, as the pipeline got it. */
  input: Buffer;
  /** The distilled text. */
  output: string;
  /** False when `output` is byte-identical to the input. */
  changed: boolean;
  result: DistillResult;
}

/**
 * The pipeline over `text`, with the book's archive and ledger. A broken ledger must not cost
 * the distillation: the run goes once more without it (and the book records no ledger row).
 */
export async function distilText(desc: RunDescription, text: string, book: RunBook, env: NodeJS.ProcessEnv, log: (what: string) => void): Promise<Distilled> {
  const { distillBuffer } = await import('../pipeline/run.js');
  const input = Buffer.from(text, 'utf8');
  const edges = book.edges(env);
  let res = await distillBuffer(desc, input, { ...edges, exitCode: 0 });
  let ledger = edges.ledger !== undefined;
  if (ledger && res.verbatim?.startsWith('internal error')) {
    log(`ledger stage failed (${res.verbatim}); distilled without the ledger`);
    ledger = false;
    res = await distillBuffer(desc, input, { ...book.withoutLedger(), exitCode: 0 });
  }
  if (env.OMNI_HOOK_TRACE) log(`distil ${desc.tool} ${res.rawBytes} B -> ${res.outBytes} B (${res.distiller}${res.verbatim ? `, verbatim: ${res.verbatim}` : ''}${ledger ? ', ledger' : ''})`);
  return { input, output: res.output.toString('utf8'), changed: res.changed, result: res };
}

/**
 * What the door did with a distillation, recorded after it decided: `applied` when a reply went
 * out, `view` what of the text reached the model, and for a file read the view the reader now
 * holds.
 */
export function recordDistilled(book: RunBook, d: Distilled, outcome: { applied: boolean; view: ModelView; fileView?: FileViewRecord; now?: number }): void {
  const res = d.result;
  book.record({
    raw: d.input, delivered: res.output, bytesIn: res.rawBytes, bytesOut: res.outBytes, distiller: res.distiller, family: res.family, rawHandle: res.rawHandle,
    applied: outcome.applied, view: outcome.view, fileView: outcome.fileView, now: outcome.now,
  });
}

/** A host strips a text's trailing newline: the digest of it goes back without one too. */
export function likeOriginal(out: string, original: string): string {
  return out.endsWith('\n') && !original.endsWith('\n') ? out.slice(0, -1) : out;
}
