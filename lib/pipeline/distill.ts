import type { Transform } from 'node:stream';
import { sameKind, transform } from '../kit/streams.js';
import type { Batch, Line, PipelineContext } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';
import { routeCommand, sniffDistiller, specByName } from '../distillers/registry.js';
import type { RuleSet } from '../rules/load.js';

/**
 * distill: the registry's choice of distiller for this command. Without a command (a bare
 * `omni pipe`) the first batch is sniffed for a tool's own lines.
 */
export function distill(ctx: PipelineContext, run: RunState): Transform {
  if (ctx.command) {
    // Rules of one's own belong to a place: a door names its cwd (or a set is given). A bare
    // library call with neither stays a pure function of its input.
    const scope = ctx.cwd || ctx.rules ? { cwd: ctx.cwd, home: ctx.rules?.home, set: ctx.rules?.set as RuleSet | undefined } : undefined;
    const route = routeCommand(ctx.command, scope);
    if (!route.distiller) run.passthrough = 'passthrough';
    const spec = route.spec ?? specByName(route.distiller ?? 'generic');
    run.distiller = route.distiller ? spec.name : 'none';
    run.family = route.distiller ? spec.family : 'none';
    return spec.create(ctx, run, { argv: route.argv ?? [] });
  }
  return sniffing(ctx, run);
}

/** A sniffed run has no command line: its producer's argv is empty. */
const SNIFFED = { argv: [] as string[] };

/** Holds the first batch, picks a distiller from it, then forwards everything to it. */
function sniffing(ctx: PipelineContext, run: RunState): Transform {
  let inner: Transform | null = null;
  // Built at the first batch, the way this stage was (../kit/streams.ts).
  const later = sameKind();
  const outer: Transform = transform({
    objectMode: true,
    highWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc, cb) {
      if (!inner) {
        const head = batch.items.filter((i): i is Line => i.kind === 'line').slice(0, 200);
        const spec = sniffDistiller(head);
        run.distiller = spec.name;
        run.family = spec.family;
        inner = later(() => spec.create(ctx, run, SNIFFED));
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
