/**
 * Runners: programs that run another program or a package script (`pnpm vitest`, `uv run
 * pytest`, `python -m pytest`, `npm test`). This module is their syntax only, how each one
 * names what it runs. Whether a runner routes to a tool is the tool's spec's to say
 * (`DistillerSpec.runners`, lib/kit/spec.ts); a runner no spec declares is never read.
 *
 * Unlike the shell's wrappers (`env`, `time`, `nice`, `npx` … peeled by parse.ts for every
 * command line), a runner is not peeled for everyone: `pnpm install` is pnpm's own output
 * (install's), `bun test` is bun's own test runner, `npm test` names a script and no tool.
 */
import { basename } from './parse.js';

export interface Runner {
  /** The program, as a spec declares it: `pnpm`, `uv`, `python`. */
  name: string;
  /** The argv of the program it runs (`pnpm exec vitest run` → `vitest run`), or null. */
  runs?(argv: string[]): string[] | null;
  /** The package script it runs (`npm run build` → build, `yarn test` → test), or undefined. */
  script?(argv: string[]): string | undefined;
  /**
   * An interpreter's module switch (`python -m`): read after another runner has been, so
   * `uv run python -m pytest` runs pytest.
   */
  module?: boolean;
}

/** `pnpm vitest`, `pnpm exec vitest`, `yarn dlx x`, `bun x tsc`: anything but `run`, `test` or an option. */
function packageBin(argv: string[]): string[] | null {
  const a1 = argv[1];
  if (!a1 || a1.startsWith('-')) return null;
  if (a1 === 'exec' || a1 === 'x' || a1 === 'dlx') return argv.slice(2);
  if (a1 === 'run' || a1 === 'test') return null;
  return argv.slice(1);
}

/** `uv run [--with x] pytest`: the words after `run` and its options. */
function runSubcommand(argv: string[]): string[] | null {
  if (argv[1] !== 'run') return null;
  let a = argv.slice(2);
  while (a.length && a[0].startsWith('-')) a = a.slice(1);
  return a;
}

/**
 * The script a package manager runs: options skipped, then `run`/`run-script <script>`;
 * `t`/`tst` is test; npm runs only its lifecycle scripts bare (`npm test`, `npm start`),
 * pnpm and yarn any (`yarn build`); bun's bare words are its own tools (`bun test`).
 */
function packageScript(pm: string, argv: string[]): string | undefined {
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i++;
  const s = argv[i];
  if (s === 'run' || s === 'run-script') return argv[i + 1];
  if (pm === 'bun') return undefined;
  if (s === 't' || s === 'tst') return 'test';
  return pm === 'npm' && s !== 'test' && s !== 'start' && s !== 'stop' && s !== 'restart' ? undefined : s;
}

const packageManager = (name: string, runs?: (argv: string[]) => string[] | null): Runner => ({
  name,
  runs: runs && ((argv) => (basename(argv[0] ?? '') === name ? runs(argv) : null)),
  script: (argv) => (basename(argv[0] ?? '') === name ? packageScript(name, argv) : undefined),
});

const subcommandRunner = (name: string): Runner => ({
  name,
  runs: (argv) => (basename(argv[0] ?? '') === name ? runSubcommand(argv) : null),
});

/** `npm exec [--yes] [--] tsc`: npm's bin runner (`npm tsc` is not one); `npm test`, `npm run build`: its scripts. */
export const NPM = packageManager('npm', (argv) => {
  if (argv[1] !== 'exec') return null;
  let a = argv.slice(2);
  while (a.length && a[0].startsWith('-')) a = a.slice(1);
  if (a[0] === '--') a = a.slice(1);
  return a;
});
export const PNPM = packageManager('pnpm', packageBin);
export const YARN = packageManager('yarn', packageBin);
export const BUN = packageManager('bun', packageBin);
export const UV = subcommandRunner('uv');
export const POETRY = subcommandRunner('poetry');
export const PIPENV = subcommandRunner('pipenv');
export const PDM = subcommandRunner('pdm');
export const HATCH = subcommandRunner('hatch');

const PYTHON_NAME = /^python(\d(\.\d+)?)?$/;
/** `python -m pytest`, `python3.12 -m pytest`. */
export const PYTHON: Runner = {
  name: 'python',
  module: true,
  runs: (argv) => (PYTHON_NAME.test(basename(argv[0] ?? '')) && argv[1] === '-m' ? argv.slice(2) : null),
};

/** The runners this module can read (the routing test checks each is declared by a spec). */
export const KNOWN_RUNNERS: readonly Runner[] = [NPM, PNPM, YARN, BUN, UV, POETRY, PIPENV, PDM, HATCH, PYTHON];

/**
 * The program an argv runs through these runners: one runner (the first that reads the line),
 * then a module switch (`python -m`). `pnpm vitest` → vitest, `uv run python -m pytest` →
 * pytest; with no runner that reads it, argv[0]'s basename.
 */
export function programVia(argv: string[], runners: readonly Runner[]): string {
  let a = argv;
  for (const r of runners) {
    const inner = !r.module && r.runs ? r.runs(a) : null;
    if (inner) { a = inner; break; }
  }
  for (const r of runners) {
    const inner = r.module && r.runs ? r.runs(a) : null;
    if (inner) { a = inner; break; }
  }
  return basename(a[0] ?? '');
}

/** The package script an argv runs through one of these runners (`npm test` → test), or undefined. */
export function scriptVia(argv: string[], runners: readonly Runner[]): string | undefined {
  for (const r of runners) {
    const s = r.script?.(argv);
    if (s !== undefined) return s;
  }
  return undefined;
}
