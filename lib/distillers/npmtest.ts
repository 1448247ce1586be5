import type { DistillerSpec } from '../kit/spec.js';
import { isPackageTest, scriptDistiller, type Family } from './runner.js';
import { JEST_FAMILY } from './jest.js';
import { VITEST_FAMILY } from './vitest.js';
import { MOCHA_FAMILY } from './mocha.js';
import { TAP_FAMILY } from './tap.js';
import { NODE_TEST_FAMILY } from './nodetest.js';
import { PYTEST_FAMILY } from './pytest.js';
import { GO_TEST_FAMILY } from './gotest.js';
import { CARGO_TEST_FAMILY } from './cargo.js';
import { BUN_TEST_FAMILY } from './bun.js';

/*
 * `npm test`, `yarn test`, `pnpm test`: the command does not say which runner runs, so the
 * output does. The first line a family recognises as its own (npm's `> jest` echo, jest's
 * `PASS `, vitest's `RUN v3`, `TAP version`, …) picks that family's recogniser; lines before
 * the choice pass through, and output no family recognises is only treated generically.
 */
const RUNNERS: Family[] = [TAP_FAMILY, JEST_FAMILY, VITEST_FAMILY, MOCHA_FAMILY, NODE_TEST_FAMILY, PYTEST_FAMILY, GO_TEST_FAMILY, CARGO_TEST_FAMILY, BUN_TEST_FAMILY];

export const NPM_TEST: DistillerSpec = scriptDistiller('npm-test', 'test', RUNNERS, isPackageTest);

NPM_TEST.test = 'test/distillers/npmtest.test.ts';
