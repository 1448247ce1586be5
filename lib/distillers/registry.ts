import type { Transform } from 'node:stream';
import type { Line } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { analyzeCommand, basename, peelWrappers, type CommandAnalysis, type Producer } from '../command/parse.js';
import { namesNoTool, programVia, scriptVia } from '../command/runners.js';
import { Mix, type MixPlan } from './mix.js';
import { bodyOf } from '../kit/prefix.js';
import { NOTHING, stageFor } from './hide.js';
import ansible from './ansible.js';
import automake from './automake.js';
import biome from './biome.js';
import bunTest from './bun-test.js';
import bundler from './bundler.js';
import cRunner from './c-runner.js';
import cargoBuild from './cargo-build.js';
import cargoTest from './cargo-test.js';
import catch2 from './catch2.js';
import cc from './cc.js';
import ctest from './ctest.js';
import enumeration from './enumeration.js';
import eslint from './eslint.js';
import flake8 from './flake8.js';
import generic from './generic.js';
import ghc from './ghc.js';
import git from './git.js';
import gitStatus from './git-status.js';
import goTest from './go-test.js';
import gtest from './gtest.js';
import infra from './infra.js';
import install from './install.js';
import jest from './jest.js';
import logs from './logs.js';
import maven from './maven.js';
import minitest from './minitest.js';
import mocha from './mocha.js';
import nodeTest from './node-test.js';
import prove from './prove.js';
import npmBuild from './npm-build.js';
import npmTest from './npm-test.js';
import prettier from './prettier.js';
import pytest from './pytest.js';
import read from './read.js';
import rspec from './rspec.js';
import rubocop from './rubocop.js';
import ruff from './ruff.js';
import search from './search.js';
import setuptools from './setuptools.js';
import sphinx from './sphinx.js';
import tap from './tap.js';
import tsc from './tsc.js';
import unittest from './unittest.js';
import valgrind from './valgrind.js';
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
  ansible,
  automake,
  biome,
  bunTest,
  bundler,
  cRunner,
  cargoBuild,
  cargoTest,
  catch2,
  cc,
  ctest,
  enumeration,
  eslint,
  flake8,
  generic,
  ghc,
  git,
  gitStatus,
  goTest,
  gtest,
  infra,
  install,
  jest,
  logs,
  maven,
  minitest,
  mocha,
  nodeTest,
  prove,
  npmBuild,
  npmTest,
  prettier,
  pytest,
  read,
  rspec,
  rubocop,
  ruff,
  search,
  setuptools,
  sphinx,
  tap,
  tsc,
  unittest,
  valgrind,
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
  {
    pair: ['automake', 'cc'],
    winner: 'automake',
    why: 'sniffed: `make check` prints make\'s directory lines (cc\'s) around the test driver\'s `PASS: tests/x` lines; the PASS lines are the bulk of it, and under `make check` (make names no tool) cc reads make\'s lines while automake joins for the rest',
  },
  {
    pair: ['c-runner', 'jest'],
    winner: 'c-runner',
    why: 'sniffed: a C runner reporting as greatest does prints `PASS test_push:  (3 ticks, 0.000 sec)`, which jest\'s `PASS <file>` line shape claims too; its per-suite `N tests - N passed, N failed, N skipped` tally says which it is, and jest reads nothing of it',
  },
  {
    pair: ['automake', 'c-runner'],
    winner: 'c-runner',
    why: 'sniffed: a minunit-style runner prints `PASS: test_push` (automake\'s test driver\'s shape) above `ALL TESTS PASSED`; c-runner folds those PASS lines too, and automake\'s `# TOTAL:` box is not there',
  },
  {
    pair: ['node-test', 'tap'],
    winner: 'node-test',
    why: 'sniffed, and in a mixed run\'s head: `npm test` running `node --test` echoes `> node --test` before node\'s `TAP version 13`; node-test reads that TAP with the TAP lines, a top-level `ok` and its YAML being a passing test',
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
  /**
   * Every producer of the line, each routed on its own (absent without a command, and where
   * nothing is distilled). One producer whose tool the line names: the fields above are its.
   */
  producers?: RoutedProducer[];
  /**
   * Several producers, or one that names no tool (`make test`, `npm run release`): the run's
   * lines are read by the union of the producers' recognisers, and of those the output's own
   * lines name (`mixPlan`).
   */
  mixed?: boolean;
  /**
   * One producer, a program run by its path that no spec owns (`./build/money_test`): its
   * output is read as one with no command is, by the spec its first lines name (else generic).
   */
  sniff?: boolean;
}

/** One producer of a command line (a segment that prints), routed on its own. */
export interface RoutedProducer {
  /** Its argv, as its spec's `lines` get it (a keeping tail skipped, an owning tail taken). */
  argv: string[];
  /** The spec that reads its lines: a built-in one, a rule's, or generic (no spec owns it). */
  spec: DistillerSpec;
  /** The built-in spec of its tool, whose own failure lines count (a rule's producer too). */
  tool: DistillerSpec | null;
  /**
   * What it runs is not named on the line (`make test`, `npm test`, `npm run release`, `bundle
   * exec x`): the output's own lines add the specs that recognise them, of this family (a
   * script named for one: `npm test` is a test run) or of any (null).
   */
  open: false | { family: string | null };
  /** Its lines are answers (a listing, a read, a search, git history), or a tail reshaped them. */
  answer: boolean;
  /** `| jq`: a tail reshaped its output (structured: never touched). */
  reshaped?: string;
  /**
   * A program run by its path that no spec owns (`./build/run_tests`): in a chain (`make &&
   * ./build/run_tests -v`) the specs its output's lines name read them too, as its first lines
   * would choose one were it alone. It stays generic's and unowned (`omni discover` lists it).
   */
  sniffed?: boolean;
  rule?: { name: string; file: string; source: RuleSource };
  /** Why, in words (`omni rules explain`). */
  reason: string;
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

/** The specs a tool no one named may be, for an open producer of `family` (null: any). */
function candidatesFor(family: string | null, specs: readonly DistillerSpec[]): DistillerSpec[] {
  if (family) return delegates(family, specs);
  return specs.filter((s) => s.lines && !s.answer && (s.detect || s.sniff));
}

/**
 * One producer, routed on its own, by the precedence `routeCommand` states: a reshaping tail,
 * the answers, rules of one's own, the built-in specs, generic; and whether what it runs is
 * named (`open`).
 */
function routeProducer(p: Producer, a: CommandAnalysis, set: RuleSet | null, specs: readonly DistillerSpec[]): RoutedProducer {
  let argv = p.argv;
  if (p.tail) {
    const tail = peelWrappers(p.tail);
    const t = basename(tail[0] ?? '');
    if (RESHAPING_TAILS.has(t)) return { argv, spec: generic, tool: null, open: false, answer: true, reshaped: t, reason: `| ${t} reshapes the output` };
    if (!KEEPING_TAILS.has(t)) argv = tail; // `| grep x` is owned by grep
  }
  // An answer's claim outranks every rule (`cat server.log` is a read too, whoever folds it).
  const answer = winner(specs.filter((spec) => spec.answer && owns(spec, argv, a)));
  const builtin = winner(specs.filter((s) => owns(s, argv, a)));
  if (set && set.active.length) {
    for (const { rule, file } of set.active) {
      let spec = ruleSpecs.get(rule);
      if (!spec) ruleSpecs.set(rule, (spec = ruleSpec(file.source, rule)));
      if (!owns(spec, argv, a)) continue;
      if (answer) {
        return {
          argv, spec: answer, tool: answer, open: false, answer: true,
          reason: `owned by ${answer.name}: its output is the answer (file contents, listings, matches, history), which no rule may hide; ${file.source} rule "${rule.name}" matches but does not apply`,
        };
      }
      return {
        argv, spec, tool: builtin ?? null, open: false, answer: false,
        reason: `${file.source} rule "${rule.name}" (${file.file}) owns ${ruleWhy(rule, argv)}`,
        rule: { name: rule.name, file: file.file, source: file.source },
      };
    }
  }
  const unnamed = namesNoTool(argv);
  if (answer) return { argv, spec: builtin ?? answer, tool: builtin ?? answer, open: false, answer: true, reason: `owned by ${(builtin ?? answer).name}` };
  if (builtin?.delegate) {
    return { argv, spec: builtin, tool: builtin, open: { family: builtin.delegate }, answer: false, reason: `owned by ${builtin.delegate} spec its output's lines name (${builtin.name})` };
  }
  if (builtin) {
    if (unnamed === 'task') return { argv, spec: builtin, tool: builtin, open: { family: null }, answer: false, reason: `owned by ${builtin.name}, and by the specs its recipes' output names` };
    return { argv, spec: builtin, tool: builtin, open: false, answer: false, reason: `owned by ${builtin.name}` };
  }
  if (unnamed === 'program') return { argv, spec: generic, tool: null, open: false, sniffed: true, answer: false, reason: 'a program run by its path: the spec its output\'s first lines name, else generic' };
  if (unnamed) return { argv, spec: generic, tool: null, open: { family: null }, answer: false, reason: 'names no tool: the specs its output\'s lines name' };
  return { argv, spec: generic, tool: null, open: false, answer: false, reason: 'no specific distiller' };
}

/**
 * A producer, and the program its tool runs (`valgrind python3 -m pytest`: DistillerSpec `runs`)
 * when a spec owns that program: its lines are among the tool's, read by its own spec. A program
 * no spec owns adds nothing (its lines are read as the tool's spec reads the rest), nor does one
 * named by a path (`valgrind ./tree`): that is the project's own binary, whatever its basename
 * shares with a tool.
 */
function withProgram(p: RoutedProducer, a: CommandAnalysis, set: RuleSet | null, specs: readonly DistillerSpec[]): RoutedProducer[] {
  const inner = p.spec.runs?.(p.argv);
  const argv = inner?.length ? peelWrappers(inner) : [];
  if (!argv.length || argv[0].includes('/')) return [p];
  const q = routeProducer({ argv, tail: null, container: false }, a, set, specs);
  return q.spec === generic && !q.open ? [p] : [p, q];
}

/** `make (cc + what its output names)`, `rm`: one producer, as `omni rules explain` and routes say it. */
export function describeProducer(p: RoutedProducer): string {
  // Program and subcommand, never arguments; a script's name too (`npm run release`).
  const named = p.argv.filter((w) => !w.startsWith('-'));
  const words = named.slice(0, named[1] === 'run' || named[1] === 'run-script' || named[1] === 'exec' ? 3 : 2).join(' ') || '(none)';
  const by = p.reshaped ? `reshaped by ${p.reshaped}` : p.rule ? `rule ${p.rule.name}` : p.spec === generic ? (p.open ? '' : 'generic') : p.spec.name;
  const open = p.open
    ? `${by ? ' + ' : ''}what its output's lines name${p.open.family ? ` (${p.open.family})` : ''}`
    : p.sniffed ? ' + what its output\'s lines name' : '';
  return `${words} (${by}${open})`;
}

/**
 * Which distiller owns the output of this command line. Pure without `rules`; with them it
 * also reads the rules files (cached per process, re-checked by stat).
 *
 * Each producer of the line (every segment that prints: `cd`, `export`, `rm -rf x` and
 * `make clean >/dev/null` do not) is routed on its own. Precedence, first that matches owns
 * a producer's output:
 *   1. what is never distilled: OMNI_PASSTHROUGH, unbalanced quotes, `omni retrieve/diff`,
 *      a tail that reshapes the output (`| jq`);
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
 *
 * One producer whose tool the line names owns the run as before. Several producers, or one
 * that names no tool (`make test`, `just x`, `npm run release`, `bundle exec x`; a container's
 * `exec` is the command it runs), make a mixed run (lib/distillers/mix.ts): the union of their
 * recognisers, and of the specs the output's own lines name, decides what is noise, and
 * where one of them is an answer nothing is hidden. A mixed run is never rewritten by the
 * pre-hook unless its one producer already was (`make test`: cc's; `npm test`).
 */
export function routeCommand(command: string | undefined | null, rules?: RuleScope, specs: readonly DistillerSpec[] = DISTILLERS): Route {
  if (!command || !command.trim()) return { distiller: 'generic', family: 'generic', reason: 'no command', known: false, rewrite: false };
  const a = analyzeCommand(command);
  if (a.passthroughPrefix) return NONE('OMNI_PASSTHROUGH=1');
  if (a.malformed) return NONE('unbalanced quotes');
  if (a.program === 'omni' && ['retrieve', 'diff'].includes(a.argv[1] ?? '')) return NONE('omni retrieve/diff output is never distilled');
  const set = rules ? ruleSetFor(rules) : null;
  // A line where nothing prints (`rm -rf x`) is routed by its first segment, as it always was.
  const ps: Producer[] = a.producers.length ? a.producers : [{ argv: a.argv, tail: a.tail, container: false }];
  const producers = ps.flatMap((p) => withProgram(routeProducer(p, a, set, specs), a, set, specs));
  if (producers.length === 1) {
    const p = producers[0];
    if (p.reshaped) return NONE(p.reason);
    const known = p.spec !== generic;
    // A container's exec is not rewritten: the host's rules judge the line as typed.
    // Nor is a chain, even of one producer (`cd app && npm test`): plain words never are.
    const rewrite = !!p.spec.rewrite && !p.rule && !ps[0].tail && !ps[0].container && a.segments.length === 1;
    const one: Route = {
      distiller: p.spec.name, family: p.spec.family, reason: p.reason, known: known || !!p.open, rewrite, argv: p.argv, producers,
    };
    if (p.rule) {
      one.spec = p.spec;
      one.rule = p.rule;
    }
    if (p.open) one.mixed = true;
    else if (p.spec === generic && !p.rule && namesNoTool(p.argv) === 'program') one.sniff = true;
    return one;
  }
  // Several producers: the union of their lines. An answer anywhere keeps every line.
  const answer = producers.find((p) => p.answer);
  const lead = answer ?? producers.find((p) => p.spec !== generic) ?? producers[0];
  const named = producers.filter((p) => p.spec !== generic || p.open);
  return {
    distiller: lead.reshaped ? 'generic' : lead.spec.name,
    family: lead.reshaped ? 'generic' : lead.spec.family,
    reason: `${answer ? 'an answer may be any line, nothing is hidden: ' : ''}producers ${producers.map(describeProducer).join(', ')}`,
    known: named.length > 0,
    rewrite: false,
    argv: lead.argv,
    producers,
    mixed: true,
  };
}

/** What a mixed run's lines are read by: each producer's spec, and the specs its output may name. */
export function mixPlan(route: Route, specs: readonly DistillerSpec[] = DISTILLERS): MixPlan {
  const producers = route.producers ?? [];
  const keepAll = producers.some((p) => p.answer);
  const candidates: DistillerSpec[] = [];
  for (const p of producers) {
    if (!p.open && !p.sniffed) continue;
    for (const s of candidatesFor(p.open ? p.open.family : null, specs)) if (!candidates.includes(s)) candidates.push(s);
  }
  return {
    // A producer no built-in spec owns (`git push` in `pip install x && git push`, a script
    // `npm run release` runs), printing lines of its own, is judged by the global lists: its spec
    // (generic, or a rule's) stands as its tool, so a line another producer's tool calls a signal
    // (valgrind's `Memcheck, a memory error detector`) still counts as the failure it may be here.
    named: producers.map((p) => ({ spec: p.spec, route: { argv: p.argv }, tool: p.tool ?? p.spec })),
    candidates: keepAll ? [] : candidates,
    keepAll,
  };
}

/** The state of one mixed run (lib/distillers/mix.ts), stated collisions deciding between claimants. */
export function mixFor(route: Route, specs: readonly DistillerSpec[] = DISTILLERS): Mix {
  return new Mix(mixPlan(route, specs), beats);
}

/** The distill stage of a mixed run: the one engine's, for the union of its recognisers. */
export function mixStage(mix: Mix, run: RunState): Transform {
  return stageFor(run, mix.recogniser());
}

/**
 * Every built-in spec that owns this command line, by name. For the routing-pairs test: a
 * command two specs claim is a collision whose winner must be stated (COLLISIONS).
 */
export function claimants(command: string, specs: readonly DistillerSpec[] = DISTILLERS): string[] {
  const a = analyzeCommand(command);
  if (a.passthroughPrefix || a.malformed || a.producers.length > 1) return [];
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
    for (const l of head) if (spec.detect(bodyOf(l))) return true;
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

/**
 * The distill stage of one run of `spec`: its declared lines, turned into a stage by the one
 * engine. A delegating spec (`npm test`) is read as a mixed run (`mixFor`), whose pipeline
 * shows it the lines that name the tool; handed here alone, it folds like generic output.
 */
export function distillStage(spec: DistillerSpec, run: RunState, route: ProducerRoute): Transform {
  if (spec.delegate) return mixStage(new Mix({ named: [{ spec, route, tool: null }], candidates: delegates(spec.delegate), keepAll: false }, beats), run);
  return stageFor(run, spec.lines ? spec.lines(route) : NOTHING);
}
