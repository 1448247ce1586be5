import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import { analyzeCommand, basename, peelWrappers, producerCount, type CommandAnalysis } from '../command/parse.js';
import { programVia, scriptVia } from '../command/runners.js';
import { generic } from './generic.js';
import { GIT, GIT_STATUS } from './git.js';
import { INSTALL } from './install.js';
import { LOGS } from './logs.js';
import { SEARCH, READ } from './search.js';
import { ENUMERATION } from './enumeration.js';
import { INFRA } from './infra.js';
import { JEST } from './jest.js';
import { VITEST } from './vitest.js';
import { MOCHA } from './mocha.js';
import { TAP } from './tap.js';
import { NODE_TEST } from './nodetest.js';
import { PYTEST } from './pytest.js';
import { GO_TEST } from './gotest.js';
import { CARGO_TEST, CARGO_BUILD } from './cargo.js';
import { CTEST } from './ctest.js';
import { npmTest } from './npmtest.js';
import { BUN_TEST } from './bun.js';
import { npmBuild } from './npmbuild.js';
import { CC } from './cc.js';
import { BUNDLER } from './webpack.js';
import { TSC } from './tsc.js';
import { ESLINT } from './eslint.js';
import { ruleSpec, ruleWhy } from './rule.js';
import { KEEPING_TAILS, RESHAPING_TAILS } from './tails.js';
import { loadRuleSet, type RuleSet, type RuleSource } from '../rules/load.js';

export type { DistillerSpec } from '../kit/spec.js';

const GENERIC: DistillerSpec = { name: 'generic', family: 'generic', create: generic, test: 'test/pipeline/distill.test.ts' };

/** Registered distillers, most specific first. Adding one is one import and one line. */
export const DISTILLERS: DistillerSpec[] = [
  TAP,
  VITEST,
  JEST,
  MOCHA,
  NODE_TEST,
  PYTEST,
  GO_TEST,
  CARGO_TEST,
  CARGO_BUILD,
  CTEST,
  BUN_TEST,
  npmTest(() => DISTILLERS),
  npmBuild(() => DISTILLERS),
  CC,
  BUNDLER,
  TSC,
  ESLINT,
  GIT,
  GIT_STATUS,
  INSTALL,
  LOGS,
  SEARCH,
  READ,
  ENUMERATION,
  INFRA,
  GENERIC,
];

export interface Route {
  /** The distiller name, or null when omni must pass the output through untouched. */
  distiller: string | null;
  family: string;
  reason: string;
  /** True when a specific (non-generic) distiller owns the command. */
  known: boolean;
  /** The pre-hook may rewrite it into `omni exec`. */
  rewrite: boolean;
  /** A rule owns it: its spec (rule specs are not in DISTILLERS) and where the rule lives. */
  spec?: DistillerSpec;
  rule?: { name: string; file: string; source: RuleSource };
  /** The owning producer's argv, as `create` gets it (ProducerRoute). */
  argv?: string[];
}

/** Where to look for rules of one's own (lib/rules/load.ts). Without a scope no rule routes. */
export interface RuleScope {
  /** The working directory: its nearest `.omni/rules.json` is the project file. */
  cwd?: string;
  /** The omni home holding the user's rules.json and trusted-rules.json. */
  home?: string;
  /** A set loaded already (`omni rules test FILE`): used instead of reading files. */
  set?: RuleSet;
}

const ruleSpecs = new WeakMap<object, DistillerSpec>();

/**
 * Does this spec own the producer's argv? Read off its declarations only: one of its
 * `producers` (through one of its `runners`), one of its `scripts` (run by one of its
 * `runners`), or what its `matches` claims. No runner, script or program is known here.
 */
export function owns(spec: DistillerSpec, argv: string[], a: CommandAnalysis): boolean {
  if (spec.producers && spec.producers.includes(programVia(argv, spec.runners ?? []))) return true;
  if (spec.scripts) {
    const s = scriptVia(argv, spec.runners ?? []);
    if (s !== undefined && spec.scripts.test(s)) return true;
  }
  return !!spec.matches && spec.matches(argv, a);
}

/**
 * Distillers whose every line is the answer (`answer` on the spec: a file's contents, a
 * listing, search matches, git history and diffs): no rule outranks them, so a rule cannot
 * hide a row of `ls`, a line of `cat ci.yml` (YAML the guard may not call structured) or a
 * commit of `git log`.
 */
const ANSWERS: DistillerSpec[] = DISTILLERS.filter((spec) => spec.answer);

function ruleSetFor(scope: RuleScope): RuleSet | null {
  if (scope.set) return scope.set;
  try {
    return loadRuleSet(scope.cwd, scope.home);
  } catch {
    return null; // fail open: a rules fault never costs the built-in routing
  }
}

const NONE = (reason: string): Route => ({ distiller: null, family: 'none', reason, known: false, rewrite: false });

/**
 * Which distiller owns the output of this command line. Pure without `rules`; with them it
 * also reads the rules files (cached per process, re-checked by stat).
 *
 * Precedence, first that matches owns the output:
 *   1. what is never distilled: OMNI_PASSTHROUGH, unbalanced quotes, `omni retrieve/diff`,
 *      a tail that reshapes the output (`| jq`), several producers (generic);
 *   2. the answers (specs with `answer`: reads, listings, searches, git log/diff/show/blame/status);
 *   3. trusted project rules (`<project>/.omni/rules.json`), in file order;
 *   4. user rules (`$OMNI_HOME/rules.json`), in file order;
 *   5. the other built-in specific distillers below, most specific first;
 *   6. generic.
 * A rule owns its commands outright (it does not refine the built-in one): what it hides is
 * what its patterns say, nothing else. Rules route by command only, never by sniffing.
 */
export function routeCommand(command: string | undefined | null, rules?: RuleScope): Route {
  if (!command || !command.trim()) return { distiller: 'generic', family: 'generic', reason: 'no command', known: false, rewrite: false };
  const a = analyzeCommand(command);
  if (a.passthroughPrefix) return NONE('OMNI_PASSTHROUGH=1');
  if (a.malformed) return NONE('unbalanced quotes');
  if (a.program === 'omni' && ['retrieve', 'diff'].includes(a.argv[1] ?? '')) return NONE('omni retrieve/diff output is never distilled');
  if (producerCount(a) > 1) return { distiller: 'generic', family: 'generic', reason: 'several producers', known: false, rewrite: false };
  let argv = a.argv;
  if (a.tail) {
    const tail = peelWrappers(a.tail);
    const t = basename(tail[0] ?? '');
    if (RESHAPING_TAILS.has(t)) return NONE(`| ${t} reshapes the output`);
    if (!KEEPING_TAILS.has(t)) argv = tail; // `| grep x` is owned by grep
  }
  const set = rules ? ruleSetFor(rules) : null;
  if (set && set.active.length) {
    const answer = ANSWERS.find((spec) => owns(spec, argv, a));
    for (const { rule, file } of set.active) {
      let spec = ruleSpecs.get(rule);
      if (!spec) ruleSpecs.set(rule, (spec = ruleSpec(file.source, rule)));
      if (!owns(spec, argv, a)) continue;
      if (answer) {
        return {
          distiller: answer.name, family: answer.family, known: true, rewrite: !!answer.rewrite && !a.tail, argv,
          reason: `owned by ${answer.name}: its output is the answer (file contents, listings, matches, history), which no rule may hide; ${file.source} rule "${rule.name}" matches but does not apply`,
        };
      }
      return {
        distiller: spec.name, family: spec.family, known: true, rewrite: false, spec, argv,
        reason: `${file.source} rule "${rule.name}" (${file.file}) owns ${ruleWhy(rule, argv)}`,
        rule: { name: rule.name, file: file.file, source: file.source },
      };
    }
  }
  for (const spec of DISTILLERS) {
    if (owns(spec, argv, a)) {
      return { distiller: spec.name, family: spec.family, reason: `owned by ${spec.name}`, known: true, rewrite: !!spec.rewrite && !a.tail, argv };
    }
  }
  return { distiller: 'generic', family: 'generic', reason: 'no specific distiller', known: false, rewrite: false, argv };
}

/**
 * Every built-in spec that owns this command line, in registry order (the first
 * is the one routeCommand picks when nothing earlier in its precedence decides). For the
 * routing-pairs test: a command two specs claim is a collision whose winner must be stated.
 */
export function claimants(command: string): string[] {
  const a = analyzeCommand(command);
  if (a.passthroughPrefix || a.malformed || producerCount(a) > 1) return [];
  let argv = a.argv;
  if (a.tail) {
    const tail = peelWrappers(a.tail);
    const t = basename(tail[0] ?? '');
    if (RESHAPING_TAILS.has(t)) return [];
    if (!KEEPING_TAILS.has(t)) argv = tail;
  }
  return DISTILLERS.filter((spec) => owns(spec, argv, a)).map((spec) => spec.name);
}

export function specByName(name: string): DistillerSpec {
  return DISTILLERS.find((d) => d.name === name) ?? GENERIC;
}

/** Content routing for `omni pipe` without a command: the first spec whose sniff says yes. */
export function sniffDistiller(head: Line[]): DistillerSpec {
  for (const spec of DISTILLERS) if (spec.sniff && spec.sniff(head)) return spec;
  return GENERIC;
}
