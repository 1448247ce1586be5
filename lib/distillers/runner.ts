import type { Hit, Recogniser } from '../kit/units.js';
import { PASSED } from './hide.js';
import { gutterlessExcerpts, warningExcerpts, type DiagnosticPart, type HeadlineOf } from './shared.js';
import { BUN, HATCH, NPM, PDM, PIPENV, PNPM, POETRY, PYTHON, UV, YARN, unversioned, type Runner } from '../command/runners.js';

/**
 * What the tool families (test runners, builds, linters) share as they declare themselves:
 * the hits a 'run' recogniser answers with (hide.ts), the passing check mark line, a
 * subcommand test, and the lists of runners a spec may name as its `runners`. Each spec still
 * states all of it itself: nothing here is applied to a spec that does not name it.
 */
export { DETAIL, LEAD, PASSED, type Hit, type Recogniser } from './hide.js';

/** `✓ name`, `✔ name`: the passing-test mark of jest, vitest, mocha and node's spec reporter. */
export const CHECK_LINE = /^\s*[✓✔√] \S/;

/** A 'run' recogniser whose only noise is the passing-test check mark line (minus `keep` lines). */
export function checkmarks(keep?: RegExp): Recogniser {
  return { see: (_l, p) => (CHECK_LINE.test(p) && !(keep && keep.test(p)) ? PASSED : null) };
}

/**
 * The runners the JavaScript and Python tools are reached through (`pnpm vitest`, `npm exec
 * tsc`, `uv run pytest`, `python -m pytest`): a spec that lists them as its `runners` is
 * reached through each.
 */
export const TOOL_RUNNERS: readonly Runner[] = [PNPM, YARN, BUN, UV, POETRY, PIPENV, PDM, HATCH, NPM, PYTHON];

/** The package managers that run a package's scripts (`npm test`, `yarn build`, `bun run test`). */
export const PACKAGE_MANAGERS: readonly Runner[] = [NPM, PNPM, YARN, BUN];

/** `go test …`: argv[0]'s basename is `prog` and argv[1] is one of `subs`. */
export function isSubcommand(argv: string[], prog: string, subs: string[]): boolean {
  return unversioned(argv[0] ?? '') === prog && subs.includes(argv[1] ?? '');
}

/**
 * A gutterless excerpt (a source line, then its caret line): the source line opens a section
 * that the caret line closes, so neither hides alone. Each excerpt counts once.
 */
export const EXCERPT_SOURCE: Hit = { noun: 'excerpts', one: 'excerpt', section: 'opens' };
export const EXCERPT_CARETS: Hit = { noun: '', section: 'closes' };

/**
 * A linter whose report is its headlines (`file:line:col: severity: message`), each warning's
 * source line and caret line under it: the excerpt folds where it stood, every other line stays
 * as it is (the report is the answer: no generic fold).
 */
export function excerptsUnder(headline: HeadlineOf, carets: RegExp): Recogniser {
  const shape = gutterlessExcerpts(headline, carets);
  return {
    see: (_l, p) => {
      const s = shape(p);
      return s === 'source' ? EXCERPT_SOURCE : s === 'carets' ? EXCERPT_CARETS : null;
    },
    others: 'keep',
  };
}

/** A block's continuation line: hidden with the block, not counted again. */
const GOES_ON: Hit = { noun: '' };

/**
 * A linter whose warnings carry a framed excerpt under them (`warningExcerpts`' parts: a code
 * frame, a fix's diff): each block folds where it stood and counts once as `opens`; every other
 * line stays as it is (the report is the answer: no generic fold).
 */
export function excerptBlocks(partOf: (plain: string) => DiagnosticPart, opens: Hit): Recogniser {
  const excerpt = warningExcerpts(partOf);
  return {
    see: (_l, p) => {
      const e = excerpt(p);
      return e === 'opens' ? opens : e === 'continues' ? GOES_ON : null;
    },
    others: 'keep',
  };
}
