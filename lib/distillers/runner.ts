import type { Transform } from 'node:stream';
import type { Item, Line, PipelineContext } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';
import type { DistillerSpec } from '../kit/spec.js';
import { BUN, HATCH, NPM, PDM, PIPENV, PNPM, POETRY, PYTHON, UV, YARN, type Runner } from '../command/runners.js';
import { RunFolder, template, FOLD_MAX_HIDDEN_BYTES } from './fold.js';
import { FOLD_MIN_LINES, foldPays, lineByteLength } from '../kit/marker.js';

/**
 * Shared machinery of the tool-family distillers (test runners, builds, linters).
 *
 * A family supplies a `Recogniser`: per line, a `Hit` when a pattern for this tool
 * positively recognised the line as passing/progress noise, else null. Contiguous runs of
 * hits are hidden behind one marker whose note counts what was recognised. Everything
 * else passes through a `RunFolder` (blank-line squeeze, generic folding of classified
 * noise). A `failure` line is never hidden; the unrecognised lines after it (the failure
 * block: message, expected/received, diff, stack) are raised to `signal` until the next
 * recognised line, so nothing downstream folds them.
 */

/** What a recogniser says about one line. Module constants: no per-line allocation. */
export interface Hit {
  /** Counted in the marker note ("412 passing tests"). '' = hidden but not counted. */
  readonly noun: string;
  /**
   * A lead-in (`=== RUN x`, `# Subtest: x`) or blank line: hidden inside a run, but when
   * it ends a run (what follows is kept) it stays, so a failure keeps its heading.
   */
  readonly lead?: boolean;
}

export const BLANK: Hit = { noun: '', lead: true };
/** A lead-in line (`=== RUN x`): hidden with the run it starts, kept before a kept line. */
export const LEAD: Hit = { noun: '', lead: true };
/** A detail line that belongs to the recognised line before it (a passing test's YAML). */
export const DETAIL: Hit = { noun: '' };
export const PASSED: Hit = { noun: 'passing tests' };

export interface Recogniser {
  /** Hit when this line is positively recognised as noise for this tool. */
  see(l: Line, plain: string): Hit | null;
  /**
   * For lines that are not hidden: a key under which consecutive lines fold to first line,
   * marker, last line (e.g. cargo's `Compiling x`), or null.
   */
  foldKey?(l: Line, plain: string): string | null;
  /** Noun for lines folded by `foldKey` ("crates compiled"). */
  foldNoun?: string;
}

/** A family's pieces: how to recognise its output in the first lines, and its recogniser. */
export interface Family {
  name: string;
  /** True when this plain line is characteristic of the tool (for sniffing). */
  detect(plain: string): boolean;
  recogniser(): Recogniser;
}


/** Lines that are blank after trimming. */
const NON_BLANK = /\S/;
export function isBlank(plain: string): boolean {
  return !NON_BLANK.test(plain);
}

/** Sniff over the first lines: does any line look like this family's? */
export function sniffFamily(f: Family, head: Line[]): boolean {
  for (const l of head) if (f.detect(l.plain ?? l.text)) return true;
  return false;
}

/** The distill stage for one recogniser. */
export function recognising(run: RunState, rec: Recogniser): Transform {
  let hidden: Line[] = [];
  let hits: Hit[] = [];
  let hiddenBytes = 0;
  let inFailure = false;
  let curKey: string | null = null;
  const folder = new RunFolder(
    run,
    rec.foldNoun ?? 'similar lines',
    (l) => curKey !== null || l.tier === 'noise',
    (l) => curKey ?? template(l.plain ?? l.text),
  );

  /** Ends the open run: its recognised lines become a marker, trailing lead-ins stay. */
  const flush = (out: Item[]) => {
    if (!hidden.length) return;
    // Trailing lead-ins stay (only the nearest one: `=== RUN a`, `=== RUN b`, output of b
    // keeps `=== RUN b`), and so do trailing blank lines.
    let keep = hidden.length;
    while (keep > 0 && hits[keep - 1] === BLANK) keep--;
    if (keep > 0 && hits[keep - 1].lead) keep--;
    let bytes = 0;
    for (let i = 0; i < keep; i++) bytes += lineByteLength(hidden[i]);
    const note = keep >= FOLD_MIN_LINES ? noteOf(hits, keep) : '';
    if (foldPays(keep, bytes, note)) {
      out.push({ kind: 'marker', note, hidden: hidden.slice(0, keep) });
    } else keep = 0;
    for (let i = keep; i < hidden.length; i++) out.push(hidden[i]);
    hidden = [];
    hits = [];
    hiddenBytes = 0;
  };

  const onLine = (l: Line, out: Item[]) => {
    const plain = l.plain ?? l.text;
    // Every line is shown to the recogniser (its state and detection need them all), but a
    // failure line is never hidden.
    const seen = isBlank(plain) ? (hidden.length ? BLANK : null) : rec.see(l, plain);
    const h = l.tier === 'failure' ? null : seen;
    if (h) {
      if (!hidden.length) folder.close(out);
      if (h !== BLANK) {
        inFailure = false;
        if (l.tier === 'text') l.tier = 'noise';
      }
      hidden.push(l);
      hits.push(h);
      hiddenBytes += plain.length + l.eol.length;
      if (hiddenBytes >= FOLD_MAX_HIDDEN_BYTES) flush(out);
      return;
    }
    flush(out);
    if (l.tier === 'failure') inFailure = true;
    else if (inFailure && (l.tier === 'text' || l.tier === 'noise') && !isBlank(plain)) l.tier = 'signal';
    curKey = rec.foldKey && l.tier !== 'failure' ? rec.foldKey(l, plain) : null;
    folder.push(l, out);
    curKey = null;
  };

  return batchStage(
    run,
    (batch, push) => {
      if (run.passthrough) {
        const out: Item[] = [];
        flush(out);
        folder.close(out);
        for (const it of batch.items) out.push(it);
        return push({ items: out, end: batch.end });
      }
      const out: Item[] = [];
      for (const it of batch.items) {
        if (it.kind === 'line') onLine(it, out);
        else {
          flush(out);
          folder.close(out);
          out.push(it);
        }
      }
      push({ items: out, end: batch.end });
    },
    (push, end) => {
      const out: Item[] = [];
      flush(out);
      folder.close(out);
      if (out.length) push({ items: out, end });
    },
  );
}

/** "400 passing tests, 8 passing suites folded": counts of what was recognised. */
function noteOf(hits: Hit[], n: number): string {
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const noun = hits[i].noun;
    if (noun) counts.set(noun, (counts.get(noun) ?? 0) + 1);
  }
  if (!counts.size) return `${n} lines folded`;
  const parts: string[] = [];
  for (const [noun, c] of counts) parts.push(`${c} ${noun}`);
  return `${parts.join(', ')} folded`;
}

/** The distiller of one family. */
export function familyStage(f: Family) {
  return (_ctx: PipelineContext, run: RunState): Transform => recognising(run, f.recogniser());
}

/**
 * The registry entry of a family that owns the commands whose tool is in `tools` (its
 * `producers`, reached through TOOL_RUNNERS unless the spec sets `runners` of its own) or
 * that `matches` claims. `rewrite`: worth rewriting into `omni exec` in the pre-hook (the
 * family folds something); false for tools whose whole output is the answer (tsc, eslint).
 */
/** The recognising family behind each spec familySpec made (for `npm test`'s delegation). */
const FAMILY_OF = new WeakMap<DistillerSpec, Family>();

/**
 * The families a package script of this kind may run, read off the registry (no list of its
 * own): every family spec of that stats family, in registry order.
 */
export function familiesOf(specs: readonly DistillerSpec[], kind: string): Family[] {
  const out: Family[] = [];
  for (const s of specs) {
    const f = FAMILY_OF.get(s);
    if (f && s.family === kind) out.push(f);
  }
  return out;
}

export function familySpec(
  f: Family,
  kind: 'test' | 'build' | 'lint',
  tools: string[],
  matches?: (argv: string[]) => boolean,
  rewrite = true,
): DistillerSpec {
  const spec: DistillerSpec = {
    name: f.name,
    family: kind,
    rewrite,
    ...(tools.length ? { producers: tools, runners: TOOL_RUNNERS } : {}),
    matches,
    sniff: (head) => sniffFamily(f, head),
    create: familyStage(f),
  };
  FAMILY_OF.set(spec, f);
  return spec;
}

/** A family whose only noise is the passing-test check mark line (minus `keep` lines). */
export function checkmarkFamily(name: string, detect: RegExp, keep?: RegExp): Family {
  return {
    name,
    detect: (p) => detect.test(p),
    recogniser: () => ({ see: (_l, p) => (CHECK_LINE.test(p) && !(keep && keep.test(p)) ? PASSED : null) }),
  };
}


/** How many first lines a delegating recogniser looks at before it gives up. */
const DETECT_LINES = 200;

/**
 * A recogniser for a command that does not say which tool runs (`npm test`): it looks at
 * lines until one family's `detect` says yes, then hands every later line to that family's
 * recogniser. Lines before the choice pass through.
 */
export function delegating(families: Family[]): Recogniser {
  let chosen: Recogniser | null = null;
  let seen = 0;
  return {
    see(l, plain) {
      if (chosen) return chosen.see(l, plain);
      if (seen++ < DETECT_LINES) {
        for (const f of families) {
          if (f.detect(plain)) {
            chosen = f.recogniser();
            return chosen.see(l, plain);
          }
        }
      }
      return null;
    },
    foldKey(l, plain) {
      return chosen?.foldKey ? chosen.foldKey(l, plain) : null;
    },
  };
}

/** `✓ name`, `✔ name`: the passing-test mark of jest, vitest, mocha and node's spec reporter. */
export const CHECK_LINE = /^\s*[✓✔√] \S/;

/**
 * The runners a family's tools are reached through, by default (`pnpm vitest`, `npm exec tsc`,
 * `uv run pytest`, `python -m pytest`): every family spec made by familySpec declares them as
 * its `runners`, and a spec may set its own.
 */
export const TOOL_RUNNERS: readonly Runner[] = [PNPM, YARN, BUN, UV, POETRY, PIPENV, PDM, HATCH, NPM, PYTHON];

/** The package managers that run a package's scripts (`npm test`, `yarn build`, `bun run test`). */
export const PACKAGE_MANAGERS: readonly Runner[] = [NPM, PNPM, YARN, BUN];

/** `go test …`: argv[0]'s basename is `prog` and argv[1] is one of `subs`. */
export function isSubcommand(argv: string[], prog: string, subs: string[]): boolean {
  const a0 = argv[0] ?? '';
  return a0.slice(a0.lastIndexOf('/') + 1) === prog && subs.includes(argv[1] ?? '');
}

/**
 * A package script (`npm test`, `npm run build`) names no tool: its spec owns the scripts
 * whose name `scripts` matches, run by `runners`, and delegates to the first of `families`
 * whose lines appear in the output. Output none recognises passes.
 */
export function scriptDistiller(name: string, family: string, scripts: RegExp, runners: readonly Runner[], families: () => Family[]): DistillerSpec {
  const f: Family = { name, detect: (p) => families().some((x) => x.detect(p)), recogniser: () => delegating(families()) };
  return { name, family, rewrite: true, scripts, runners, create: familyStage(f) };
}
