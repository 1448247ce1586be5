import type { DistillerSpec } from '../kit/spec.js';
import { familiesOf, PACKAGE_MANAGERS, scriptDistiller } from './runner.js';

/*
 * `npm run build`, `yarn build`, `pnpm build`: like `npm test`, the command does not say
 * which tool runs. The first line a build family recognises as its own (webpack's
 * `compiled` verdict, vite's `building`, a tsc diagnostic, `make[1]: Entering directory`,
 * cargo's `Compiling`) picks its recogniser; before that and without one, lines pass.
 * The builders are every `build` family spec in the registry (no list of its own here).
 */
export function npmBuild(registered: () => readonly DistillerSpec[]): DistillerSpec {
  let families: ReturnType<typeof familiesOf> | null = null;
  // `npm run build`, `yarn build`, `pnpm run build:prod` (`bun build` is bun's bundler: no script).
  const spec = scriptDistiller('npm-build', 'build', /^build(:[\w-]+)?$/, PACKAGE_MANAGERS, () => (families ??= familiesOf(registered(), 'build')));
  spec.test = 'test/distillers/builds.test.ts';
  return spec;
}
