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
  /**
   * How a command line writes it in front of the program it runs (`pnpm exec`, `uv run`,
   * `python -m`, `bundle exec`): its own examples, which test/distillers/runners.test.ts puts in
   * front of every producer of every spec (so a runner declared in a spec's file is checked
   * there like the ones it knows).
   */
  forms: readonly string[];
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

/** `uv run [--with x] pytest`, `bundle exec rspec`: the words after `sub` and its options. */
function runSubcommand(argv: string[], sub: string): string[] | null {
  if (argv[1] !== sub) return null;
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

/** argv[0]'s basename without the `@version` npx names a package with (`npx -y yarn@1.22.22 test`). */
export const unversioned = (w: string): string => basename(w).replace(/(.)@[^@/]*$/, '$1');

const packageManager = (name: string, forms: string[], runs?: (argv: string[]) => string[] | null): Runner => ({
  name,
  forms,
  runs: runs && ((argv) => (unversioned(argv[0] ?? '') === name ? runs(argv) : null)),
  script: (argv) => (unversioned(argv[0] ?? '') === name ? packageScript(name, argv) : undefined),
});

/**
 * A program that runs another through one subcommand, options after it skipped word by word:
 * `uv run pytest`, `poetry run pytest`, `bundle exec rspec`. A spec may declare one of its own
 * with it, in its own file.
 */
export const subcommandRunner = (name: string, sub: string): Runner => ({
  name,
  forms: [`${name} ${sub}`],
  runs: (argv) => (basename(argv[0] ?? '') === name ? runSubcommand(argv, sub) : null),
});

/** `npm exec [--yes] [--] tsc`: npm's bin runner (`npm tsc` is not one); `npm test`, `npm run build`: its scripts. */
export const NPM = packageManager('npm', ['npm exec'], (argv) => {
  if (argv[1] !== 'exec') return null;
  let a = argv.slice(2);
  while (a.length && a[0].startsWith('-')) a = a.slice(1);
  if (a[0] === '--') a = a.slice(1);
  return a;
});
export const PNPM = packageManager('pnpm', ['pnpm', 'pnpm exec', 'pnpm dlx'], packageBin);
export const YARN = packageManager('yarn', ['yarn', 'yarn exec', 'yarn dlx'], packageBin);
export const BUN = packageManager('bun', ['bun', 'bun x'], packageBin);
export const UV = subcommandRunner('uv', 'run');
export const POETRY = subcommandRunner('poetry', 'run');
export const PIPENV = subcommandRunner('pipenv', 'run');
export const PDM = subcommandRunner('pdm', 'run');
export const HATCH = subcommandRunner('hatch', 'run');

const PYTHON_NAME = /^python(\d(\.\d+)?)?$/;
/** `python -m pytest`, `python3.12 -m pytest`. */
export const PYTHON: Runner = {
  name: 'python',
  forms: ['python -m', 'python3 -m'],
  module: true,
  runs: (argv) => (PYTHON_NAME.test(basename(argv[0] ?? '')) && argv[1] === '-m' ? argv.slice(2) : null),
};

/**
 * The program an argv runs through these runners: one runner (the first that reads the line),
 * then a module switch (`python -m`). `pnpm vitest` → vitest, `uv run python -m pytest` →
 * pytest; with no runner that reads it, argv[0]'s basename (without an npx `@version`: `npx -y @biomejs/biome@1.9.4` is biome).
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
  return unversioned(a[0] ?? '');
}

/** The package script an argv runs through one of these runners (`npm test` → test), or undefined. */
export function scriptVia(argv: string[], runners: readonly Runner[]): string | undefined {
  for (const r of runners) {
    const s = r.script?.(argv);
    if (s !== undefined) return s;
  }
  return undefined;
}

/**
 * Task runners: a Makefile's, a justfile's, a Rakefile's recipes say what runs, the command
 * line does not (`make test`, `just lint`, `rake`). Their output is mostly the recipes'. turbo
 * runs each package's script of the task named (`turbo run test build`), its lines prefixed;
 * nox's sessions and tox's environments run the commands their noxfile.py and tox.ini name
 * (`nox -s tests`, `tox -e py311`: pytest, flake8), each after its own `nox > ` or `py3 run-test:` line.
 */
const TASK_RUNNERS = new Set(['make', 'gmake', 'just', 'rake', 'task', 'turbo', 'nox', 'tox']);

const SCRIPT_RUNNERS: readonly Runner[] = [NPM, PNPM, YARN, BUN];

/**
 * Does this producer run something the command line does not name, so that its output's own
 * lines must say which tool printed them? `'task'`: a task runner (`make test`, `just x`,
 * `rake`), whose recipes print whatever they run whoever owns the runner's own lines (cc owns
 * make's); `'script'`: a package script (`npm run release`, `yarn lint`) or `bundle exec
 * <cmd>`, where a spec that owns the line knows what runs (`bundle exec rspec`); `'program'`:
 * a program run by its path (`./build/money_test`, `build/tests`, `./run-tests.sh`), a project's
 * own binary or script whose name says nothing (a GoogleTest, Catch2 or cmocka test binary
 * prints its runner's lines whatever it is called): run alone, its output's first lines choose
 * its spec (registry.ts, Route.sniff); else null. A path whose basename a spec owns
 * (`./node_modules/.bin/jest`) is that spec's, and never asks this.
 */
export function namesNoTool(argv: string[]): 'task' | 'script' | 'program' | null {
  const a0 = argv[0] ?? '';
  const p = basename(a0);
  if (TASK_RUNNERS.has(p)) return 'task';
  if (p === 'bundle' && argv[1] === 'exec') return 'script';
  if (scriptVia(argv, SCRIPT_RUNNERS) !== undefined) return 'script';
  return a0.includes('/') ? 'program' : null;
}
