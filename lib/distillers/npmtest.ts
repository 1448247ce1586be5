import type { DistillerSpec } from '../kit/spec.js';
import { familiesOf, PACKAGE_MANAGERS, scriptDistiller } from './runner.js';

/*
 * `npm test`, `yarn test`, `pnpm test`: the command does not say which runner runs, so the
 * output does. The first line a family recognises as its own (npm's `> jest` echo, jest's
 * `PASS `, vitest's `RUN v3`, `TAP version`, …) picks that family's recogniser; lines before
 * the choice pass through, and output no family recognises is only treated generically.
 * The runners are every `test` family spec in the registry (no list of its own here).
 */
export function npmTest(registered: () => readonly DistillerSpec[]): DistillerSpec {
  let families: ReturnType<typeof familiesOf> | null = null;
  // `npm test`, `npm run test`, `yarn test`, `pnpm test`, `bun run test`, `npm t`, `npm run test:unit`.
  const spec = scriptDistiller('npm-test', 'test', /^test(:[\w-]+)?$/, PACKAGE_MANAGERS, () => (families ??= familiesOf(registered(), 'test')));
  spec.test = 'test/distillers/npmtest.test.ts';
  return spec;
}
