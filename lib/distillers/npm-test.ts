import type { DistillerSpec } from '../kit/spec.js';
import { PACKAGE_MANAGERS } from './runner.js';

/*
 * `npm test`, `yarn test`, `pnpm test`: the command does not say which runner runs, so the
 * output does. The first line a family recognises as its own (npm's `> jest` echo, jest's
 * `PASS `, vitest's `RUN v3`, `TAP version`, …) picks that family's lines; lines before
 * the choice pass through, and output no family recognises is only treated generically.
 * The runners are every `test` spec in the registry with a `detect` (no list of its own here).
 */
export default {
  name: 'npm-test',
  family: 'test',
  // `npm test`, `npm run test`, `yarn test`, `pnpm test`, `bun run test`, `npm t`, `npm run test:unit`.
  scripts: /^test(:[\w-]+)?$/,
  runners: PACKAGE_MANAGERS,
  rewrite: true,
  delegate: 'test',
  examples: [],
} satisfies DistillerSpec;
