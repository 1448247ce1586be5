import type { DistillerSpec } from '../kit/spec.js';
import { hiding, PASSED, sniffFamily, type Family, type Recogniser } from './hide.js';
import { BUN, HATCH, NPM, PDM, PIPENV, PNPM, POETRY, PYTHON, UV, YARN, type Runner } from '../command/runners.js';

/**
 * The tool families (test runners, builds, linters) as registry entries. A family is a
 * declaration (lib/distillers/hide.ts): per line, a `Hit` when a pattern for this tool
 * positively recognised the line as passing/progress noise, else null. The one engine hides
 * each contiguous run of hits behind one marker whose note counts what was recognised, and
 * folds the rest like generic output. A `failure` line is never hidden; the unrecognised
 * lines after it (the failure block: message, expected/received, diff, stack) are raised to
 * `signal` until the next recognised line, so nothing downstream folds them.
 */
export { DETAIL, LEAD, PASSED, type Family, type Hit, type Recogniser } from './hide.js';

/** The distiller of one family: the one engine's stage for its declaration. */
const familyStage = hiding;

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


/** A family chosen by its lines, not by a command line: no argv of its own. */
const CHOSEN = { argv: [] as string[] };

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
      if (chosen) return chosen.see?.(l, plain) ?? null;
      if (seen++ < DETECT_LINES) {
        for (const f of families) {
          if (f.detect?.(plain)) {
            chosen = f.recogniser(CHOSEN);
            return chosen.see?.(l, plain) ?? null;
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
  const f: Family = { name, detect: (p) => families().some((x) => !!x.detect?.(p)), recogniser: () => delegating(families()) };
  return { name, family, rewrite: true, scripts, runners, create: familyStage(f) };
}
