import { Transform } from 'node:stream';
import type { Batch, Line, PipelineContext } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';
import { sniffDistiller } from '../distillers/registry.js';
import type { RunDescription } from './describe.js';

/**
 * distill: the distiller the door's description names (routed before the pipeline was built).
 * Without a command (a bare `omni pipe`) the first batch is sniffed for a tool's own lines.
 */
export function distill(desc: RunDescription, run: RunState): Transform {
  const r = desc.routing;
  if (r.kind === 'sniff') return sniffing(desc, run);
  run.distiller = r.distiller;
  run.family = r.family;
  return r.spec.create(desc, run, { argv: r.argv });
}

/** A sniffed run has no command line: its producer's argv is empty. */
const SNIFFED = { argv: [] as string[] };

/** Holds the first batch, picks a distiller from it, then forwards everything to it. */
function sniffing(ctx: PipelineContext, run: RunState): Transform {
  let inner: Transform | null = null;
  const outer: Transform = new Transform({
    objectMode: true,
    highWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc, cb) {
      if (!inner) {
        const head = batch.items.filter((i): i is Line => i.kind === 'line').slice(0, 200);
        const spec = sniffDistiller(head);
        run.distiller = spec.name;
        run.family = spec.family;
        inner = spec.create(ctx, run, SNIFFED);
        inner.on('data', (b: Batch) => outer.push(b));
        inner.on('error', (e) => outer.destroy(e));
      }
      inner.write(batch, cb);
    },
    flush(cb) {
      if (!inner) return cb();
      inner.once('end', () => cb());
      inner.end();
    },
  });
  return outer;
}
