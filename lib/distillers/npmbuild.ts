import type { DistillerSpec } from '../kit/spec.js';
import { packageScript, scriptDistiller, type Family } from './runner.js';
import { BUNDLER_FAMILY } from './webpack.js';
import { TSC_FAMILY } from './tsc.js';
import { CC_FAMILY } from './cc.js';
import { CARGO_BUILD_FAMILY } from './cargo.js';

/*
 * `npm run build`, `yarn build`, `pnpm build`: like `npm test`, the command does not say
 * which tool runs. The first line a build family recognises as its own (webpack's
 * `compiled` verdict, vite's `building`, a tsc diagnostic, `make[1]: Entering directory`,
 * cargo's `Compiling`) picks its recogniser; before that and without one, lines pass.
 */
const BUILDERS: Family[] = [BUNDLER_FAMILY, TSC_FAMILY, CC_FAMILY, CARGO_BUILD_FAMILY];

export const NPM_BUILD: DistillerSpec = scriptDistiller('npm-build', 'build', BUILDERS, (argv) => /^build(:[\w-]+)?$/.test(packageScript(argv) ?? ''));

NPM_BUILD.test = 'test/distillers/builds.test.ts';
