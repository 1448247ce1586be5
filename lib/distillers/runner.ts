import type { DistillerSpec } from '../kit/spec.js';
import { hiding, PASSED, sniffFamily, type Family, type Recogniser } from './hide.js';

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
 * The registry entry of a family that owns the commands whose tool (see `toolOf`) is in
 * `tools`. `rewrite`: worth rewriting into `omni exec` in the pre-hook (the family folds
 * something); false for tools whose whole output is the answer (tsc, eslint).
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
    matches: (argv) => tools.includes(toolOf(argv)) || (matches ? matches(argv) : false),
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

/** The program a test/build command runs: `pnpm vitest` → vitest, `python -m pytest` → pytest. */
export function toolOf(argv: string[]): string {
  const base = (s: string | undefined) => {
    const b = (s ?? '').slice((s ?? '').lastIndexOf('/') + 1);
    return b;
  };
  let a = argv;
  const p = base(a[0]);
  if ((p === 'pnpm' || p === 'yarn' || p === 'bun') && a[1] && !a[1].startsWith('-')) {
    if (a[1] === 'exec' || a[1] === 'x' || a[1] === 'dlx') a = a.slice(2);
    else if (a[1] !== 'run' && a[1] !== 'test') a = a.slice(1);
  } else if ((p === 'uv' || p === 'poetry' || p === 'pipenv' || p === 'pdm' || p === 'hatch') && a[1] === 'run') {
    a = a.slice(2);
    while (a.length && a[0].startsWith('-')) a = a.slice(1);
  } else if (p === 'npm' && a[1] === 'exec') {
    a = a.slice(2);
    while (a.length && a[0].startsWith('-')) a = a.slice(1);
    if (a[0] === '--') a = a.slice(1);
  }
  const q = base(a[0]);
  if (/^python(\d(\.\d+)?)?$/.test(q) && a[1] === '-m') return base(a[2]);
  return q;
}

/** `go test …`: argv[0]'s basename is `prog` and argv[1] is one of `subs`. */
export function isSubcommand(argv: string[], prog: string, subs: string[]): boolean {
  const a0 = argv[0] ?? '';
  return a0.slice(a0.lastIndexOf('/') + 1) === prog && subs.includes(argv[1] ?? '');
}

/** The package script a package manager runs: `npm run build` → build, `yarn test` → test. */
export function packageScript(argv: string[]): string | undefined {
  const p = argv[0]?.slice(argv[0].lastIndexOf('/') + 1);
  if (p !== 'npm' && p !== 'pnpm' && p !== 'yarn' && p !== 'bun') return undefined;
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i++;
  const s = argv[i];
  if (s === 'run' || s === 'run-script') return argv[i + 1];
  if (p === 'bun') return undefined; // `bun test`, `bun build`: bun's own tools
  if (s === 't' || s === 'tst') return 'test';
  return p === 'npm' && s !== 'test' && s !== 'start' && s !== 'stop' && s !== 'restart' ? undefined : s;
}

/** `npm test`, `npm run test`, `yarn test`, `pnpm test`, `bun run test`, `npm t`, `npm run test:unit`. */
export function isPackageTest(argv: string[]): boolean {
  const s = packageScript(argv);
  return s !== undefined && /^test(:[\w-]+)?$/.test(s);
}

/**
 * A package script (`npm test`, `npm run build`) names no tool: its spec delegates to the
 * first of `families` whose lines appear in the output. Output none recognises passes.
 */
export function scriptDistiller(name: string, family: string, families: () => Family[], matches: (argv: string[]) => boolean): DistillerSpec {
  const f: Family = { name, detect: (p) => families().some((x) => !!x.detect?.(p)), recogniser: () => delegating(families()) };
  return { name, family, rewrite: true, matches, create: familyStage(f) };
}
