import type { Line } from '../kit/types.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import type { Hit, Recogniser } from '../kit/units.js';
import { countsNote } from './shared.js';
import { bodyOf, prefixOf } from '../kit/prefix.js';

/**
 * The lines of a run that several producers may have printed: `a && b; c`, or one producer
 * that names no tool (`make test`, `npm run release`), whose recipe's tool the output's own
 * lines name. Where each producer's output starts cannot be told, so every recogniser of a
 * producer that may have printed the run sees every line (from the line it joined at), and a
 * line is noise when one of them positively recognises it; the failure lines of every one of
 * them are failures (`toolsAt`, for classify). A producer whose lines are answers (a listing,
 * a read, a search) may have printed any line, so then nothing is hidden.
 *
 * Pure state over the run's lines: the registry builds it from the route and hands its
 * recogniser to the one engine; the pipeline shows it each batch before classify reads it.
 */

/** A spec chosen by its lines, not by a command line: no argv of its own. */
const CHOSEN: ProducerRoute = { argv: [] };

/** How many lines are looked at for a tool no one named (a chain's later producer may start late). */
const DETECT_LINES = 10_000;
/** How many first lines a `sniff` reads (as when no command is known). */
const SNIFF_LINES = 200;

/** One producer the command line names, and the spec that reads its lines. */
export interface NamedMember {
  /** The spec that owns the producer: a built-in one, a rule's, or generic (none owns it). */
  spec: DistillerSpec;
  route: ProducerRoute;
  /** The built-in spec of the tool, whose own failure and signal lines classify takes in. */
  tool: DistillerSpec | null;
}

export interface MixPlan {
  named: NamedMember[];
  /** Specs a line of the output may add: those of the families an open producer may run. */
  candidates: DistillerSpec[];
  /** An answer may be any line: nothing is hidden. */
  keepAll: boolean;
}

interface Member {
  spec: DistillerSpec;
  route: ProducerRoute;
  rec: Recogniser | null;
  /** The first line (index) it reads. */
  from: number;
}

export class Mix {
  private readonly members: Member[] = [];
  /** The built-in specs whose own lines apply, each from the line it joined at (in join order). */
  readonly tools: Array<{ spec: DistillerSpec; from: number }> = [];
  private candidates: DistillerSpec[];
  private looked = 0;
  /** Bumped whenever a spec joins: a reader of `tools` may cache until it moves. */
  version = 0;

  constructor(private readonly plan: MixPlan, private readonly beats: (a: DistillerSpec, b: DistillerSpec) => boolean) {
    for (const n of plan.named) {
      const rec = plan.keepAll ? null : runUnit(n.spec.lines ? n.spec.lines(n.route) : null);
      this.members.push({ spec: n.spec, route: n.route, rec, from: 0 });
      if (n.tool && !this.tools.some((t) => t.spec === n.tool)) this.tools.push({ spec: n.tool, from: 0 });
    }
    const named = new Set(plan.named.map((n) => n.spec.name));
    this.candidates = plan.candidates.filter((s) => !named.has(s.name));
  }

  /** Does some tool no one named still wait for its line? */
  get open(): boolean {
    return this.candidates.length > 0;
  }

  /** The specs that joined by their lines, by name (for the run's record). */
  get joined(): string[] {
    return this.members.slice(this.plan.named.length).map((m) => m.spec.name);
  }

  private join(spec: DistillerSpec, from: number): void {
    this.candidates = this.candidates.filter((s) => s !== spec);
    const rec = this.plan.keepAll ? null : runUnit(spec.lines ? spec.lines(CHOSEN) : null);
    this.members.push({ spec, route: CHOSEN, rec, from });
    if (!this.tools.some((t) => t.spec === spec)) this.tools.push({ spec, from });
    this.version++;
  }

  /** The claimants no other claimant (or a spec already reading the run) beats. */
  private unbeaten(claim: DistillerSpec[]): DistillerSpec[] {
    return claim
      .filter((s) => !claim.some((o) => o !== s && this.beats(o, s)) && !this.members.some((m) => this.beats(m.spec, s)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * A batch about to be classified (plain text set). The head (the first batch) decides for
   * the whole run: a spec that recognises one of its lines reads every line. After it, a spec
   * joins at the line it recognises.
   */
  observe(lines: readonly Line[], head: boolean): void {
    if (!this.candidates.length || this.looked >= DETECT_LINES || !lines.length) return;
    if (head) {
      const look = lines.slice(0, DETECT_LINES);
      const sniffHead = lines.slice(0, SNIFF_LINES) as Line[];
      this.looked += look.length;
      const claim = this.candidates.filter((s) =>
        s.detect ? look.some((l) => s.detect!(bodyOf(l))) : !!s.sniff && s.sniff(sniffHead),
      );
      for (const s of this.unbeaten(claim)) this.join(s, lines[0].index);
      return;
    }
    for (const l of lines) {
      if (this.looked++ >= DETECT_LINES || !this.candidates.length) return;
      const p = bodyOf(l);
      const claim = this.candidates.filter((s) => s.detect && s.detect(p));
      if (claim.length) for (const s of this.unbeaten(claim)) this.join(s, l.index);
    }
  }

  /** The union of the members' lines, as one 'run' recogniser the engine turns into the stage. */
  recogniser(): Recogniser {
    if (this.plan.keepAll) return { others: 'keep' };
    const open = this.candidates.length > 0;
    const fold = open || this.members.some((m) => !m.rec || m.rec.others !== 'keep');
    const hitBy = new WeakMap<Line, { hit: Hit; m: Member }>();
    const members = this.members;
    const streams = new Streams(members);
    const rec: Recogniser = {
      see(l, plain) {
        let first: { hit: Hit; m: Member } | null = null;
        const recs = streams.of(l);
        // Every member sees every line from its own first one: its state may need them all.
        for (let i = 0; i < members.length; i++) {
          const m = members[i];
          const r = recs[i];
          if (!r?.see || l.index < m.from) continue;
          const h = r.see(l, plain);
          if (h && !first) first = { hit: h, m };
        }
        if (!first) return null;
        hitBy.set(l, first);
        return first.hit;
      },
      note(hidden) {
        const by = hidden.map((l) => hitBy.get(l));
        // A line no member recognised (a blank line the engine hid with the run) leaves the run
        // its members': pytest's note still names the collected count it read.
        const m = by.find((b) => b)?.m;
        if (m?.rec?.note && by.every((b) => !b || b.m === m)) return m.rec.note(hidden);
        return countsNote(by.map((b) => b?.hit));
      },
      others: fold ? 'fold' : 'keep',
    };
    const noun = members.find((m) => m.rec?.foldNoun)?.rec?.foldNoun;
    if (noun) rec.foldNoun = noun;
    if (open || members.some((m) => m.rec?.foldKey)) {
      rec.foldKey = (l, plain) => {
        for (const m of members) {
          if (!m.rec?.foldKey || l.index < m.from) continue;
          const k = m.rec.foldKey(l, plain);
          if (k !== null) return k;
        }
        return null;
      };
    }
    return rec;
  }
}

/**
 * Each stream of a prefixed output (turbo's `@shop/web:test: `, `pnpm -r`'s `packages/web test: `)
 * is one producer's, interleaved with the others': each is read by recognisers of its own, so
 * one runner's state (a TAP test's YAML block, a suite heading) is never broken by another's
 * line. Unprefixed lines are read by the members' own recognisers.
 */
class Streams {
  private readonly byPrefix = new Map<string, Array<Recogniser | null>>();
  private readonly own: Array<Recogniser | null> = [];

  constructor(private readonly members: readonly Member[]) {}

  /** The recognisers of the stream `l` belongs to, one per member (by index), made as members join. */
  of(l: Line): ReadonlyArray<Recogniser | null> {
    const key = l.prefix ? prefixOf(l) : '';
    if (!key) {
      for (let i = this.own.length; i < this.members.length; i++) this.own.push(this.members[i].rec);
      return this.own;
    }
    let recs = this.byPrefix.get(key);
    if (!recs) this.byPrefix.set(key, (recs = []));
    for (let i = recs.length; i < this.members.length; i++) {
      const m = this.members[i];
      recs.push(m.rec && m.spec.lines ? runUnit(m.spec.lines(m.route)) : null);
    }
    return recs;
  }
}

/** A 'run' recogniser, or null for the other units (a log's repeats, a rewritten form): they hide nothing here. */
function runUnit(rec: ReturnType<NonNullable<DistillerSpec['lines']>> | null): Recogniser | null {
  if (!rec) return null;
  return rec.unit === undefined || rec.unit === 'run' ? rec : null;
}
