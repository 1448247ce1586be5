import type { DistillerSpec } from '../kit/spec.js';
import { DETAIL, LEAD, TOOL_RUNNERS, type Hit, type Recogniser } from './runner.js';
import { leadTestAny } from '../base/lead.js';

/*
 * TAP (node-tap, `node --test` default and `--test-reporter=tap`): a nested `ok N - name`
 * is a passing test; its YAML diagnostics block (`---` … `...`), the `# Subtest:` lead-in,
 * nested plans `1..N` and nested `# time=` comments go with it. Top-level `ok` lines (one
 * per file in node-tap) stay unless `topLevel` says they are results too (node:test, whose
 * top-level `test()` calls are top-level `ok` lines with a YAML block of their own), and
 * so do `not ok` lines with their YAML, `# SKIP`/`# TODO` results, bail-outs, coverage
 * tables and the closing `# tests`/`# pass`/`# fail` summary.
 */

/** Nested `ok` lines are tests or assertions (node-tap nests both): counted as TAP results. */
const OK_RESULT: Hit = { noun: 'passing TAP results' };
const OK = /^(\s*)ok \d+\b/;
const DIRECTIVE = /#\s*(SKIP|TODO)\b/i;
const SUBTEST = /^\s*# Subtest: /;
const NESTED_PLAN = /^\s+1\.\.\d+\s*$/;
const NESTED_TIME = /^\s+# time=[\d.]+m?s\s*$/;
const YAML_START = /^(\s*)---\s*$/;
const NODE_TEST_YAML = /^\s+duration_ms: [\d.]+\s*$/;

/**
 * The TAP a runner prints when told to (`vitest --reporter=tap-flat`, `mocha --reporter tap`):
 * 'flat' when every result is a top-level `ok` line (a test, not a file), 'nested' when the
 * results nest under their file, null when the command asks for no TAP.
 */
export function tapReporter(argv: readonly string[], flat: readonly string[], nested: readonly string[] = []): 'flat' | 'nested' | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const named = a.startsWith('--reporter=') ? a.slice(11) : (a === '--reporter' || a === '-R') && i + 1 < argv.length ? argv[i + 1] : null;
    if (named === null) continue;
    if (flat.includes(named)) return 'flat';
    if (nested.includes(named)) return 'nested';
  }
  return null;
}

export function tapRecogniser(opts: { topLevel?: boolean } = {}): Recogniser & Required<Pick<Recogniser, 'see'>> {
  /** node:test's YAML carries `duration_ms:` (node-tap's does not): once seen, top-level oks are results too. */
  let topLevel = opts.topLevel === true;
  /** Indent of the YAML block that may follow the last `ok` line (-1: none expected). */
  let yamlAfter = -1;
  /** Indent of the `...` that closes the open YAML block (-1: none open). */
  let yamlClose = -1;
  return {
    see(_l, p) {
      if (yamlClose >= 0) {
        if (!topLevel && NODE_TEST_YAML.test(p)) topLevel = true;
        if (p.trim() === '...' && p.search(/\S/) === yamlClose) yamlClose = -1;
        return DETAIL;
      }
      if (yamlAfter >= 0) {
        const y = YAML_START.exec(p);
        const want = yamlAfter;
        yamlAfter = -1;
        if (y && y[1].length === want + 2) {
          yamlClose = want + 2;
          return DETAIL;
        }
      }
      const ok = OK.exec(p);
      if (ok) {
        if (DIRECTIVE.test(p)) return null;
        yamlAfter = ok[1].length;
        return ok[1].length > 0 || topLevel ? OK_RESULT : null;
      }
      if (SUBTEST.test(p)) return LEAD;
      if (NESTED_PLAN.test(p) || NESTED_TIME.test(p)) return DETAIL;
      return null;
    },
  };
}

export default {
  name: 'tap',
  family: 'test',
  producers: ['tap'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTestAny(/^TAP version \d+\s*$/, /^> tap(\s|$)/),
  lines: () => tapRecogniser(),
  examples: [
    // corpus/cases/015-tap-fail, lines 784-805
    {
      command: 'npx tap',
      input: `    # Subtest: pricing: adds 4 and 1
        ok 1 - should be equal
        1..1
    ok 4 - pricing: adds 4 and 1 # time=0.616ms
    
    # Subtest: pricing: multiplies 5 by 3
        ok 1 - should be equal
        1..1
    ok 5 - pricing: multiplies 5 by 3 # time=25.694ms
    
    # Subtest: pricing: clamps 42 into 0..100
        ok 1 - should be equal
        1..1
    ok 6 - pricing: clamps 42 into 0..100 # time=2.093ms
    
    # Subtest: pricing: slugifies title \\#7
        ok 1 - should be equal
        1..1
    ok 7 - pricing: slugifies title \\#7 # time=0.614ms
    
    # Subtest: pricing: applies SAVE10 discount to 100
        not ok 1 - should be equal
`,
      output: `[omni: 8 passing TAP results folded — omni retrieve <handle>]
    # Subtest: pricing: applies SAVE10 discount to 100
        not ok 1 - should be equal
`,
    },
  ],
} satisfies DistillerSpec;
