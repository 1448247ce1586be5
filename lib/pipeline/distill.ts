import type { Transform } from 'node:stream';
import { sameKind, transform } from '../kit/streams.js';
import type { Batch, Line } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { distillStage, mixFor, mixStage, sniffDistiller, specByName } from '../distillers/registry.js';
import type { Mix } from '../distillers/mix.js';
import { ownLinesOfAll, plainOf, type OwnTier, type RunOwner } from './classify.js';
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
  /**
   * Several producers, or one that names no tool (`make test`, `npm test`): the union of their
   * lines, and of the specs the output's own lines name (lib/distillers/mix.ts).
   */
  mix: Mix | null = null;
  private head = true;
  private ownVersion = -1;
  private own: Array<{ from: number; own: OwnTier | null }> = [];
  /** The route named no spec of its own: the first spec the output names is the run's. */
  private unnamed = false;

  constructor(desc: RunDescription, private readonly run: RunState) {
    const r = desc.routing;
    if (r.kind === 'sniff') return;
    this.spec = r.spec;
    this.tool = r.tool;
    this.route = { argv: r.argv };
    run.distiller = r.distiller;
    run.family = r.family;
    if (r.mixed) {
      // Each run reads its own output: the mix's state is this run's, its plan the description's.
      this.mix = mixFor(r.mixed);
      this.unnamed = r.distiller === 'generic';
    }
  }

  /**
   * A batch about to be classified: in a mixed run, a spec its lines name joins (the first
   * batch, the head, decides for the whole run). Sets each line's plain text.
   */
  observe(lines: readonly Line[]): void {
    const head = this.head;
    this.head = false;
    if (!this.mix?.open) return;
    for (const l of lines) plainOf(l);
    this.mix.observe(lines, head);
    const joined = this.mix.joined;
    if (this.unnamed && joined.length) {
      // A run no spec was named for is counted as the tool its output named first
      // (`npm run release` running node --test: node-test's).
      const first = specByName(joined[0]);
      this.run.distiller = first.name;
      this.run.family = first.family;
      this.unnamed = false;
    }
  }

  /** The own lines (failures, signals) in force at line `index`: every tool's that may have printed it. */
  ownAt(index: number): OwnTier | null {
    if (!this.mix) return null;
    if (this.ownVersion !== this.mix.version) {
      this.ownVersion = this.mix.version;
      const froms = [...new Set(this.mix.tools.map((t) => t.from))].sort((a, b) => a - b);
      this.own = froms.map((from) => ({ from, own: ownLinesOfAll(this.mix!.tools.filter((t) => t.from <= from).map((t) => t.spec)) }));
    }
    let o: OwnTier | null = null;
    for (const x of this.own) if (x.from <= index) o = x.own;
    return o;
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
  if (owner.mix) return mixStage(owner.mix, run);
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
