import type { DistillerSpec } from '../kit/spec.js';
import { PACKAGE_MANAGERS } from './runner.js';

/*
 * `npm run build`, `yarn build`, `pnpm build`: like `npm test`, the command does not say
 * which tool runs. The first line a build family recognises as its own (webpack's
 * `compiled` verdict, vite's `building`, a tsc diagnostic, `make[1]: Entering directory`,
 * cargo's `Compiling`) picks its lines; before that and without one, lines pass.
 * The builders are every `build` spec in the registry with a `detect` (no list of its own here).
 */
export default {
  name: 'npm-build',
  family: 'build',
  // `npm run build`, `yarn build`, `pnpm run build:prod` (`bun build` is bun's bundler: no script).
  scripts: /^build(:[\w-]+)?$/,
  runners: PACKAGE_MANAGERS,
  rewrite: true,
  delegate: 'build',
  examples: [],
} satisfies DistillerSpec;
