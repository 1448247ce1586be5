import type { Transform } from 'node:stream';
import { sameKind, transform } from '../kit/streams.js';
import type { Batch, Line, PipelineContext } from '../kit/types.js';
import { BATCH_QUEUE, type RunState } from '../kit/stage.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { distillStage, routeCommand, sniffDistiller, specByName } from '../distillers/registry.js';
import type { RuleSet } from '../rules/load.js';
import type { RunOwner } from './classify.js';

/** A sniffed run has no command line: its producer's argv is empty. */
const SNIFFED: ProducerRoute = { argv: [] };

/** How many first lines a sniff reads. */
const SNIFF_LINES = 200;

/**
 * Who owns one run's output: the registry's choice for the command line, made before the
 * first byte; without a command (a bare `omni pipe`), the spec the first batch's lines are
 * claimed by. classify asks it for the tool's own lines, distill for its stage.
 */
export class Owner implements RunOwner {
  spec: DistillerSpec | null = null;
  /**
   * The built-in spec whose own lines (failures, signals) classify takes in: the owner's, or
   * where a rule of one's own owns the run, the spec of the tool that printed it. A rule
   * decides what is hidden, never what states a failure.
   */
  tool: DistillerSpec | null = null;
  route: ProducerRoute = SNIFFED;

  constructor(ctx: PipelineContext, private readonly run: RunState) {
    if (ctx.tool === 'Read') {
      // A host's file read is a file's text, every line of it the answer: the read distiller keeps
      // it as it is (the ledger may still fold a head the reader was shown).
      this.spec = this.tool = specByName('read');
      run.distiller = this.spec.name;
      run.family = this.spec.family;
      return;
    }
    if (!ctx.command) return;
    // Rules of one's own belong to a place: a door names its cwd (or a set is given). A bare
    // library call with neither stays a pure function of its input.
    const scope = ctx.cwd || ctx.rules ? { cwd: ctx.cwd, home: ctx.rules?.home, set: ctx.rules?.set as RuleSet | undefined } : undefined;
    const route = routeCommand(ctx.command, scope);
    if (!route.distiller) run.passthrough = 'passthrough';
    this.spec = route.spec ?? specByName(route.distiller ?? 'generic');
    this.tool = route.rule ? specByName(routeCommand(ctx.command).distiller ?? 'generic') : this.spec;
    this.route = { argv: route.argv ?? [] };
    run.distiller = route.distiller ? this.spec.name : 'none';
    run.family = route.distiller ? this.spec.family : 'none';
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
