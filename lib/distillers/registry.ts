import type { Transform } from 'node:stream';
import type { Line } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import type { Recogniser } from '../kit/units.js';
import { analyzeCommand, basename, peelWrappers, producerCount, type CommandAnalysis } from '../command/parse.js';
import { programVia, scriptVia } from '../command/runners.js';
import { NOTHING, stageFor } from './hide.js';
import bunTest from './bun-test.js';
import bundler from './bundler.js';
import cargoBuild from './cargo-build.js';
import cargoTest from './cargo-test.js';
import cc from './cc.js';
import ctest from './ctest.js';
import enumeration from './enumeration.js';
import eslint from './eslint.js';
import generic from './generic.js';
import git from './git.js';
import gitStatus from './git-status.js';
import goTest from './go-test.js';
import infra from './infra.js';
import install from './install.js';
import jest from './jest.js';
import logs from './logs.js';
import mocha from './mocha.js';
import nodeTest from './node-test.js';
import prove from './prove.js';
import npmBuild from './npm-build.js';
import npmTest from './npm-test.js';
import pytest from './pytest.js';
import read from './read.js';
import rspec from './rspec.js';
import search from './search.js';
import tap from './tap.js';
import tsc from './tsc.js';
import vitest from './vitest.js';
import { ruleSpec, ruleWhy } from './rule.js';
import { KEEPING_TAILS, RESHAPING_TAILS } from './tails.js';
import { loadRuleSet, type RuleSet, type RuleSource } from '../rules/load.js';

export type { DistillerSpec } from '../kit/spec.js';

/**
 * Registered distillers: one declaration each (lib/distillers/<name>.ts). The order of this
 * list decides nothing: where two specs claim the same line (a command, the first lines of an
 * output, a line of a script's output), COLLISIONS below says who wins, and routing-pairs.test.ts
 * fails on a pair it does not state (and shuffles this list to show the order is irrelevant).
 * Adding one is one import and one line.
 */
export const DISTILLERS: readonly DistillerSpec[] = Object.freeze([
  bunTest,
  bundler,
  cargoBuild,
  cargoTest,
  cc,
  ctest,
  enumeration,
  eslint,
  generic,
  git,
  gitStatus,
  goTest,
  infra,
  install,
  jest,
  logs,
  mocha,
  nodeTest,
  prove,
  npmBuild,
  npmTest,
  pytest,
  read,
  rspec,
  search,
  tap,
  tsc,
  vitest,
].map((spec: DistillerSpec) => Object.freeze(spec)));

/** Who wins a line two specs claim. */
export interface Collision {
  /** The two specs, by name. */
  readonly pair: readonly [string, string];
  readonly winner: string;
  /** Why, for the next reader: what the line is and why the winner reads it better. */
  readonly why: string;
}

/**
 * Every pair of specs that claim the same line, and who wins it: by command (routeCommand),
 * by the first lines of an output with no command (sniffDistiller), by a line of a script's
 * output (`npm test`'s delegation). Any other line is claimed by one spec at most
 * (routing-pairs.test.ts checks it over every corpus command and output and every line of the
 * routing tables). Where one did go unstated, the first of its claimants by name wins.
 */
export const COLLISIONS: readonly Collision[] = [
  {
    pair: ['logs', 'read'],
    winner: 'logs',
    why: '`cat server.log`, `tail -n 40 /var/log/dpkg.log`: a reader of a log file. The log\'s templates fold (logs); a read of any other file is the answer, whole (read)',
  },
  {
    pair: ['jest', 'vitest'],
    winner: 'vitest',
    why: 'sniffed: vitest prints jest-like `FAIL` and `✓` lines, and its own `RUN v3` / `Test Files` lines say which it is',
  },
  {
    pair: ['cargo-build', 'cargo-test'],
    winner: 'cargo-test',
    why: 'sniffed: the same lines (cargo-test reads its output with cargo-build\'s lines), so a cargo run without a command is read as cargo test',
  },
  {
    pair: ['ctest', 'jest'],
    winner: 'jest',
    why: 'sniffed: `ctest --output-on-failure` shows a failing test\'s own output, here a `FAIL` line jest claims; as before the registry was order-free, jest reads it (its lines fold nothing of ctest\'s)',
  },
  {
    pair: ['cc', 'install'],
    winner: 'cc',
    why: 'sniffed: `yarn install` building a native module prints node-gyp\'s lines among its progress; cc reads them',
  },
];

/** Does `a` win over `b` (COLLISIONS)? */
function beats(a: DistillerSpec, b: DistillerSpec): boolean {
  return COLLISIONS.some((c) => c.winner === a.name && c.pair.includes(b.name) && c.pair.includes(a.name));
}

/**
 * The one of several claimants that owns the line: the one no other claimant beats
 * (COLLISIONS), else, for a pair no one stated, the first by name. Never the list's order.
 */
export function winner<S extends DistillerSpec>(claimants: readonly S[]): S | undefined {
  if (claimants.length <= 1) return claimants[0];
  const unbeaten = claimants.filter((s) => !claimants.some((o) => o !== s && beats(o, s)));
  const from = unbeaten.length ? unbeaten : claimants;
  return from.reduce((a, b) => (b.name < a.name ? b : a));
}

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
 *   5. the other built-in specific distillers (their COLLISIONS say who wins a line two own);
 *   6. generic.
 * The answers are the specs with `answer` (a file's contents, a listing, search matches, git
 * history and diffs): no rule outranks them, so a rule cannot hide a row of `ls`, a line of
 * `cat ci.yml` (YAML the guard may not call structured) or a commit of `git log`.
 * `specs`: the registry (a test may hand it the same specs in another order).
 * A rule owns its commands outright (it does not refine the built-in one): what it hides is
 * what its patterns say, nothing else. Rules route by command only, never by sniffing.
 */
export function routeCommand(command: string | undefined | null, rules?: RuleScope, specs: readonly DistillerSpec[] = DISTILLERS): Route {
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
    const answer = winner(specs.filter((spec) => spec.answer && owns(spec, argv, a)));
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
  const spec = winner(specs.filter((s) => owns(s, argv, a)));
  if (spec) return { distiller: spec.name, family: spec.family, reason: `owned by ${spec.name}`, known: true, rewrite: !!spec.rewrite && !a.tail, argv };
  return { distiller: 'generic', family: 'generic', reason: 'no specific distiller', known: false, rewrite: false, argv };
}

/**
 * Every built-in spec that owns this command line, by name. For the routing-pairs test: a
 * command two specs claim is a collision whose winner must be stated (COLLISIONS).
 */
export function claimants(command: string, specs: readonly DistillerSpec[] = DISTILLERS): string[] {
  const a = analyzeCommand(command);
  if (a.passthroughPrefix || a.malformed || producerCount(a) > 1) return [];
  let argv = a.argv;
  if (a.tail) {
    const tail = peelWrappers(a.tail);
    const t = basename(tail[0] ?? '');
    if (RESHAPING_TAILS.has(t)) return [];
    if (!KEEPING_TAILS.has(t)) argv = tail;
  }
  return specs.filter((spec) => owns(spec, argv, a)).map((spec) => spec.name).sort();
}

export function specByName(name: string): DistillerSpec {
  return DISTILLERS.find((d) => d.name === name) ?? generic;
}

/** Does this spec claim an output whose first lines are `head`? Its `detect` on any of them, or its `sniff`. */
function sniffs(spec: DistillerSpec, head: Line[]): boolean {
  if (spec.detect) {
    for (const l of head) if (spec.detect(l.plain ?? l.text)) return true;
    return false;
  }
  return !!spec.sniff && spec.sniff(head);
}

/** Every spec that claims an output by its first lines, by name (for routing-pairs.test.ts). */
export function sniffers(head: Line[], specs: readonly DistillerSpec[] = DISTILLERS): string[] {
  return specs.filter((s) => sniffs(s, head)).map((s) => s.name).sort();
}

/** Content routing for `omni pipe` without a command: the spec its first lines are claimed by. */
export function sniffDistiller(head: Line[], specs: readonly DistillerSpec[] = DISTILLERS): DistillerSpec {
  return winner(specs.filter((s) => sniffs(s, head))) ?? generic;
}

/**
 * The specs a script's output may be read by (`delegate: 'test'`): the registered specs of that
 * stats family that recognise a line of their own (`detect`) and declare their lines.
 */
export function delegates(kind: string, specs: readonly DistillerSpec[] = DISTILLERS): DistillerSpec[] {
  return specs.filter((s) => s.family === kind && s.detect && s.lines);
}

/** The spec whose line this is, of `families` (delegation), or undefined. */
export function detectedBy(families: readonly DistillerSpec[], plain: string): DistillerSpec | undefined {
  return winner(families.filter((f) => f.detect!(plain)));
}

/** A spec chosen by its lines, not by a command line: no argv of its own. */
const CHOSEN: ProducerRoute = { argv: [] };

/** How many first lines a delegating recogniser looks at before it gives up. */
const DETECT_LINES = 200;

/**
 * The lines of a command that does not say which tool runs (`npm test`): lines are looked at
 * until one spec of `families` recognises one as its own (`detect`), then every later line is
 * handed to that spec's lines ('run' unit). Lines before the choice pass through.
 */
function delegating(families: readonly DistillerSpec[]): Recogniser {
  let chosen: Recogniser | null = null;
  let seen = 0;
  return {
    see(l, plain) {
      if (chosen) return chosen.see?.(l, plain) ?? null;
      if (seen++ < DETECT_LINES) {
        const f = detectedBy(families, plain);
        if (f) {
          const rec = f.lines!(CHOSEN);
          chosen = rec.unit === undefined || rec.unit === 'run' ? rec : NOTHING;
          return chosen.see?.(l, plain) ?? null;
        }
      }
      return null;
    },
    foldKey(l, plain) {
      return chosen?.foldKey ? chosen.foldKey(l, plain) : null;
    },
  };
}

const delegatesByKind = new Map<string, DistillerSpec[]>();

/**
 * The distill stage of one run of `spec`: its declared lines (or, for a delegating spec, the
 * lines of the spec its output names), turned into a stage by the one engine.
 */
export function distillStage(spec: DistillerSpec, run: RunState, route: ProducerRoute): Transform {
  if (spec.delegate) {
    let families = delegatesByKind.get(spec.delegate);
    if (!families) delegatesByKind.set(spec.delegate, (families = delegates(spec.delegate)));
    return stageFor(run, delegating(families));
  }
  return stageFor(run, spec.lines ? spec.lines(route) : NOTHING);
}
