import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS, type Hit } from './runner.js';
import { STATES_WARNING_OR_ERROR } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * Sphinx (`sphinx-build`, `python -m sphinx`, and `make html` through the Makefile sphinx-quickstart writes, whose
 * output names this spec by its `Running Sphinx v5.3.0` line): each phase's progress, one line
 * per document (`reading sources... [ 46%] counting`, `writing output... [ 46%] counting`,
 * `highlighting module code... [100%] tally.core`, a parallel build's `writing output... [100%]
 * ranking .. usage`), is recognised as progress. What the build did and found stays: every
 * WARNING and ERROR with what follows it, the status lines (`updating environment: 0 added, 2
 * changed, 0 removed`, `checking consistency... done`, which a warning may share), `build
 * succeeded, 3 warnings.` and where the pages are.
 */
const PROGRESS: Hit = { noun: 'progress lines', one: 'progress line' };

/** `<phase>... [ 46%] <document>`: the whole line, a percentage and a name after a phase's words. */
const PHASE_PROGRESS = /^[a-z][a-z ]{2,40}\.\.\. \[ {0,2}\d{1,3}%\] \S.*$/;

export default {
  name: 'sphinx',
  family: 'build',
  // `python -m sphinx` is sphinx-build by its module's name.
  producers: ['sphinx-build', 'sphinx'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^Running Sphinx v\d+\.\d+/),
  lines: () => ({ see: (_l, p) => (PHASE_PROGRESS.test(p) && !STATES_WARNING_OR_ERROR.test(p) ? PROGRESS : null) }),
  examples: [
    // corpus/cases/1252-sphinx-build-html-pass, lines 5-20
    {
      command: 'sphinx-build -b html docs docs/_build',
      input: `updating environment: [new config] 13 added, 0 changed, 0 removed
reading sources... [  7%] api
reading sources... [ 15%] changelog
reading sources... [ 23%] cli
reading sources... [ 30%] config
reading sources... [ 38%] contributing
reading sources... [ 46%] counting
reading sources... [ 53%] faq
reading sources... [ 61%] index
reading sources... [ 69%] install
reading sources... [ 76%] license
reading sources... [ 84%] merging
reading sources... [ 92%] ranking
reading sources... [100%] usage

looking for now-outdated files... none found
`,
      output: `updating environment: [new config] 13 added, 0 changed, 0 removed
[omni: 13 progress lines folded — omni retrieve <handle>]

looking for now-outdated files... none found
`,
    },
  ],
} satisfies DistillerSpec;
