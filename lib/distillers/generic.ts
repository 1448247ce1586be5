import type { Item, PipelineContext } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';
import { RunFolder } from './fold.js';

/**
 * The generic distiller: ANSI colour is already stripped by classify (render prints the
 * plain text); here blank-line runs are squeezed and runs of near-identical noise lines
 * fold to first line, marker, last line. It recognises nothing tool-specific, so on
 * output with no noise it changes nothing.
 */
export function generic(_ctx: PipelineContext, run: RunState) {
  const folder = new RunFolder(run);
  return batchStage(
    run,
    (batch, push) => {
      if (run.passthrough) return push(batch);
      const out: Item[] = [];
      for (const it of batch.items) {
        if (it.kind === 'line') folder.push(it, out);
        else out.push(it);
      }
      push({ items: out, end: batch.end });
    },
    (push, end) => {
      const out: Item[] = [];
      folder.close(out);
      if (out.length) push({ items: out, end });
    },
  );
}
