import type { Transform } from 'node:stream';
import { sameKind, transform } from '../kit/streams.js';
import type { Batch, Line } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { distillStage, sniffDistiller } from '../distillers/registry.js';
import type { RunOwner } from './classify.js';
import type { RunDescription } from './describe.js';

/** A sniffed run has no command line: its producer's argv is empty. */
const SNIFFED: ProducerRoute = { argv: [] };

/** How many first lines a sniff reads. */
const SNIFF_LINES = 200;

/**
 * Who owns one run's output: the spec the door's description names (routed before the pipeline
 * was built); without a command (a bare `omni pipe`), the spec the first batch's lines are
 * claimed by. classify asks it for the tool's own lines, distill for its stage.
 */
export class Owner implements RunOwner {
  spec: DistillerSpec | null = null;
  /** The built-in spec whose own lines classify takes in (describe.ts, `Routing.tool`). */
  tool: DistillerSpec | null = null;
  route: ProducerRoute = SNIFFED;

  constructor(desc: RunDescription, private readonly run: RunState) {
    const r = desc.routing;
    if (r.kind === 'sniff') return;
    this.spec = r.spec;
    this.tool = r.tool;
    this.route = { argv: r.argv };
    run.distiller = r.distiller;
    run.family = r.family;
  }

  /** Without a command: the spec these first lines are claimed by (once). */
  choose(lines: readonly Line[]): void {
    if (this.spec) return;
    this.spec = this.tool = sniffDistiller(lines.slice(0, SNIFF_LINES));
    this.run.distiller = this.spec.name;
    this.run.family = this.spec.family;
  }
}

/**
 * distill: the owner's stage. Without a command the owner is chosen by the first batch
 * (classify chooses it there first, unless the run is passed through before it looks).
 */
export function distill(owner: Owner, run: RunState): Transform {
  if (owner.spec) return distillStage(owner.spec, run, owner.route);
  return sniffing(owner, run);
}

/** Holds the first batch, picks the owner from it if no one did, then forwards everything to its stage. */
function sniffing(owner: Owner, run: RunState): Transform {
  let inner: Transform | null = null;
  // Built at the first batch, the way this stage was (../kit/streams.ts).
  const later = sameKind();
  const outer: Transform = transform({
    objectMode: true,
    highWaterMark: BATCH_QUEUE,
    transform(batch: Batch, _enc, cb) {
      if (!inner) {
        owner.choose(batch.items.filter((i): i is Line => i.kind === 'line'));
        inner = later(() => distillStage(owner.spec!, run, owner.route));
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
