import type { DistillerSpec } from '../kit/spec.js';
import { PACKAGE_MANAGERS } from './runner.js';

/*
 * `npm run build`, `yarn build`, `pnpm build`: like `npm test`, the command does not say
 * which tool runs. The first line a build family recognises as its own (webpack's
 * `compiled` verdict, vite's `building`, a tsc diagnostic, `make[1]: Entering directory`,
 * cargo's `Compiling`) picks its lines; before that and without one, lines pass.
 * The builders are every `build` spec in the registry with a `detect` (no list of its own here).
 */
/** The example's output, vite's build, read as bundler's: its phase lines are too few to pay for a marker, so it comes back as it was. */
const UNCHANGED = `
> app@0.0.0 build
> tsc -b && vite build

vite v6.4.6 building for production...
transforming...
✓ 32 modules transformed.
rendering chunks...
computing gzip size...
dist/index.html                   0.46 kB │ gzip:  0.30 kB
dist/assets/react-CHdo91hT.svg    4.13 kB │ gzip:  2.05 kB
dist/assets/index-COcDBgFa.css    1.38 kB │ gzip:  0.70 kB
dist/assets/index-DLkpbOgU.js   224.65 kB │ gzip: 69.85 kB
✓ built in 7.95s
`;

export default {
  name: 'npm-build',
  family: 'build',
  // `npm run build`, `yarn build`, `pnpm run build:prod` (`bun build` is bun's bundler: no script).
  scripts: /^build(:[\w-]+)?$/,
  runners: PACKAGE_MANAGERS,
  rewrite: true,
  delegate: 'build',
  examples: [
    // corpus/cases/766-vite-react-build, lines 1-14
    {
      command: 'npm run build',
      input: UNCHANGED,
      output: UNCHANGED,
    },
  ],
} satisfies DistillerSpec;
