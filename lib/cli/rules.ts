/**
 * `omni rules test [FILE]`, `omni rules explain '<command line>'`, `omni rules trust [FILE]`:
 * rules of one's own (lib/rules/load.ts), checked through the real pipeline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Io } from './io.js';
import { subcommandHelp } from './usage.js';
import { omniHome } from '../store/open.js';
import { findProjectRules, loadRuleSet, readRulesFile, ruleSetOf, trustFile, userRulesPath, type RuleSet, type RulesFile } from '../rules/load.js';
import type { Rule, RuleExample } from '../rules/schema.js';
import { describeProducer, routeCommand } from '../distillers/registry.js';
import { producerArgv, subcommand as subcommandOf } from '../distillers/shared.js';
import { failureWordIn, ruleMatches, ruleDistillerName, ruleNote, ruleVerdict } from '../distillers/rule.js';
import { distillBuffer, type DistillResult } from '../pipeline/run.js';
import { describeRun } from '../pipeline/describe.js';
import { GATE_MIN_SAVED_BYTES, GATE_MIN_SAVED_RATIO } from '../pipeline/final-gate.js';
import { classifyLine, stripColour } from '../pipeline/classify.js';
import { foldPays, markerBytes } from '../kit/marker.js';
import type { Line } from '../kit/types.js';
import { LazyStore } from '../doors/store-access.js';
import { MARKER_RE } from '../kit/marker.js';

interface Opts { cwd: string; rest: string[] }

/** `greedy`: after the first operand everything is the operand (`explain ls -la`). */
function parseOpts(argv: string[], greedy: boolean): Opts | string {
  const rest: string[] = [];
  let cwd = process.cwd();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (greedy && rest.length) rest.push(a);
    else if (a === '--cwd') {
      if (argv[i + 1] === undefined) return '--cwd needs a directory';
      cwd = resolve(argv[++i]);
    } else if (a.startsWith('--cwd=')) cwd = resolve(a.slice(6));
    else if (a === '--') rest.push(...argv.slice(i + 1)), (i = argv.length);
    else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else rest.push(a);
  }
  return { cwd, rest };
}

export async function run(argv: string[], io: Io): Promise<number> {
  const [sub, ...more] = argv;
  const o = parseOpts(more, sub === 'explain');
  if (typeof o === 'string') {
    io.stderr.write(`omni rules: ${o}\n${subcommandHelp('rules')}`);
    return 2;
  }
  const home = omniHome();
  switch (sub) {
    case 'test': return test(o, home, io);
    case 'explain': return explain(o, home, io);
    case 'trust': return trust(o, home, io);
    default:
      io.stderr.write(`${sub ? `omni rules: unknown subcommand ${sub}\n` : ''}${subcommandHelp('rules')}`);
      return 2;
  }
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function describe(f: RulesFile): string {
  const state = f.errors.length ? `invalid (${count(f.errors.length, 'error')}), not used` : !f.trusted ? 'untrusted, ignored' : f.source === 'project' ? `trusted, ${count(f.rules.length, 'rule')}` : count(f.rules.length, 'rule');
  return `  ${f.source.padEnd(8)}${f.file}: ${state}`;
}

function printProblems(set: RuleSet, io: Io): void {
  for (const f of set.files) for (const e of f.errors) io.stderr.write(`omni rules: ${e}\n`);
  for (const n of set.notices) if (!n.includes(' is not used: ')) io.stderr.write(`${n}\n`);
}

async function explain(o: Opts, home: string, io: Io): Promise<number> {
  const command = o.rest.join(' ');
  if (!command.trim()) {
    io.stderr.write(`omni rules explain: give the command line to explain\n${subcommandHelp('rules')}`);
    return 2;
  }
  const set = loadRuleSet(o.cwd, home, { evenUntrusted: true });
  printProblems(set, io);
  const route = routeCommand(command, { set });
  const builtin = routeCommand(command);
  const argv = producerArgv(command);
  const out: string[] = [];
  out.push(`command:  ${command}`);
  out.push(`producer: ${argv.length ? argv.join(' ') : '(none)'}${argv.length ? ` (program ${argv[0].slice(argv[0].lastIndexOf('/') + 1)}${subcommandOf(argv) ? `, subcommand ${subcommandOf(argv)}` : ''})` : ''}`);
  const sniffed = route.mixed && route.distiller === 'generic' && route.producers?.some((p) => p.open || p.sniffed);
  out.push(`owner:    ${sniffed ? "the specs the output's own lines name (generic until one does)" : route.distiller ?? 'none (passed through byte for byte)'}`);
  out.push(`why:      ${route.reason}`);
  // Several producers, or one that names no tool: what each may print is read by its own spec,
  // and by the specs the output's own lines name.
  if (route.mixed && route.producers) {
    for (const p of route.producers) out.push(`reads:    ${describeProducer(p)}${p.rule ? ` rule from ${p.rule.file}` : ''}`);
    if (route.producers.some((p) => p.answer)) out.push('          an answer may be any line of the output: nothing is hidden');
    else out.push(`          a line is hidden only where one of these recognises it as noise${route.producers.some((p) => p.open) ? "; the output's first lines name the tools a producer runs" : ''}`);
  }
  if (route.rule) out.push(`built-in: ${builtin.distiller ?? 'none'} (${builtin.reason}), outranked by the rule`);
  const shadowed = set.active.filter(({ rule, file }) => ruleMatches(rule, argv) && ruleDistillerName(file.source, rule) !== route.distiller);
  for (const { rule, file } of shadowed) out.push(`also:     ${file.source} rule "${rule.name}" (${file.file}) matches ${route.rule ? 'too, but ranks lower' : 'but does not apply'}`);
  out.push('rules files (first owns: project, then user, then the built-in distillers):');
  if (!set.files.length) out.push(`  none (user: ${userRulesPath(home)}; project: .omni/rules.json in ${o.cwd} or above)`);
  for (const f of set.files) out.push(describe(f));
  io.stdout.write(out.join('\n') + '\n');
  return 0;
}

/** The command an example stands for: its own, or the rule's first program and subcommand. */
const exampleCommand = (rule: Rule, ex: RuleExample): string => ex.command ?? [rule.programs[0], rule.subcommands?.[0]].filter(Boolean).join(' ');

/** Handles are content hashes: an example may write any 16 hex digits, `<handle>` or `…`. */
function normalize(text: string): string {
  return text.split('\n').map((l) => {
    const m = MARKER_RE.exec(l);
    if (m) return `[omni: ${m[1]} — omni retrieve <handle>]`;
    return l.replace(/^(\[omni: .* — omni retrieve )(<handle>|…|\.\.\.)\]$/, '$1<handle>]');
  }).join('\n');
}

/** A line diff (LCS): `-` expected, `+` actual, ` ` both. Examples are small. */
export function lineDiff(expected: string, actual: string): string[] {
  const lines = (s: string) => (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
  const a = lines(expected);
  const b = lines(actual);
  if (a.length * b.length > 4_000_000) return [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)];
  const n = a.length, m = b.length;
  const L: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out: string[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { out.push(` ${a[i]}`); i++; j++; }
    else if (j < m && (i >= n || L[i][j + 1] >= L[i + 1][j])) out.push(`+${b[j++]}`);
    else out.push(`-${a[i++]}`);
  }
  return out;
}

const STRUCTURED: Record<string, string> = { json: 'JSON', ndjson: 'NDJSON', yaml: 'YAML', csv: 'CSV', tsv: 'TSV', binary: 'binary', 'invalid-utf8': 'invalid UTF-8' };
const quoteLine = (t: string) => JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t);
const span = (a: number, b: number) => (a === b ? `line ${a + 1}` : `lines ${a + 1}-${b + 1}`);

/**
 * Why an example came out as it did, next to its diff: what the pipeline decided for the
 * whole output (structured, a failing exit, too little saved), and, line by line, where the
 * rule's hide patterns matched but nothing was hidden: a run too small to pay for its marker
 * (foldPays), a line classify calls a failure or a signal, a keep pattern, a word that may
 * state a failure. The same decisions as the pipeline's, read again over the example.
 */
export function whyExample(rule: Rule, ex: RuleExample, res: DistillResult): string[] {
  const why: string[] = [];
  const v = res.verbatim;
  if (v && STRUCTURED[v]) return [`the guard saw ${STRUCTURED[v]} output: structured data reaches no distiller and no rule, byte for byte`];
  if (v && v.startsWith('exit ')) why.push(`the command failed (${v}): a failing command's output comes back verbatim`);
  else if (v === 'too-little-saved') why.push(`the distilled output would save under ${GATE_MIN_SAVED_BYTES} bytes (or ${GATE_MIN_SAVED_RATIO * 100}% of the input), so the raw output comes back, as it would in use`);
  else if (v && v !== 'passthrough') why.push(`the raw output came back: ${v}`);
  const text = ex.input.endsWith('\n') ? ex.input.slice(0, -1) : ex.input;
  let prev: string | null = null;
  const lines: Line[] = text.split('\n').map((raw, index) => {
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const plain = stripColour(t);
    const l: Line = { kind: 'line', text: t, plain, eol: raw.endsWith('\r') ? '\r\n' : '\n', tier: classifyLine(plain, prev), index, end: 0 };
    prev = plain;
    return l;
  });
  let runStart = -1;
  let runBytes = 0;
  const closeRun = (end: number) => {
    if (runStart < 0) return;
    const n = end - runStart;
    const note = ruleNote(rule, n);
    if (!foldPays(n, runBytes, note)) why.push(`${span(runStart, end - 1)} ${n === 1 ? 'matches' : 'match'} hide, but ${n === 1 ? 'it is' : `those ${n} are`} ${runBytes} bytes, not more than the ${markerBytes(note)} bytes of the marker that would stand for ${n === 1 ? 'it' : 'them'} (a fold is made only when it pays), so ${n === 1 ? 'it stays' : 'they stay'}`);
    runStart = -1;
    runBytes = 0;
  };
  for (const l of lines) {
    const verdict = ruleVerdict(rule, l);
    if (verdict === 'hide') {
      if (runStart < 0) runStart = l.index;
      runBytes += Buffer.byteLength(l.text) + l.eol.length;
      continue;
    }
    closeRun(l.index);
    const at = `${span(l.index, l.index)} ${quoteLine(l.plain ?? l.text)} matches hide but stays`;
    if (verdict === 'failure') why.push(`${at}: classify calls it a failure line, which no rule may hide`);
    else if (verdict === 'signal') why.push(`${at}: classify calls it a signal (a warning, a verdict, a count), which no rule may hide`);
    else if (verdict === 'keep') why.push(`${at}: a keep pattern matches it`);
    else if (verdict === 'word') why.push(`${at}: it says "${failureWordIn(l.plain ?? l.text)}", a word that may state a failure, which no rule may hide`);
  }
  closeRun(lines.length);
  return why;
}

async function test(o: Opts, home: string, io: Io): Promise<number> {
  let set: RuleSet;
  if (o.rest[0]) {
    // A file named on the command line is tested whether or not it is trusted: testing runs nothing.
    const file = resolve(o.rest[0]);
    const source = file === resolve(userRulesPath(home)) ? 'user' : 'project';
    const f = readRulesFile(file, source, home, { evenUntrusted: true });
    if (!f) { io.stderr.write(`omni rules test: ${file}: no such file\n`); return 1; }
    set = ruleSetOf([{ ...f, trusted: true }]);
  } else {
    set = loadRuleSet(o.cwd, home, { evenUntrusted: true });
  }
  printProblems(set, io);
  if (!set.files.length) {
    io.stderr.write(`omni rules test: no rules file (user: ${userRulesPath(home)}; project: .omni/rules.json in ${o.cwd} or above)\n`);
    return 1;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'omni-rules-test-'));
  const store = new LazyStore(tmp);
  let failed = set.files.some((f) => f.errors.length > 0);
  let ran = 0;
  try {
    for (const { rule, file } of set.active) {
      if (!rule.examples.length) { io.stdout.write(`-    ${file.source} rule ${rule.name}: no examples\n`); continue; }
      for (const [k, ex] of rule.examples.entries()) {
        ran++;
        const command = exampleCommand(rule, ex);
        const label = `${file.source} rule ${rule.name} example ${k + 1} (${command})`;
        const route = routeCommand(command, { set });
        const mine = ruleDistillerName(file.source, rule);
        const res = await distillBuffer(describeRun({ door: 'pipe', command, cwd: o.cwd, rules: { set } }), Buffer.from(ex.input, 'utf8'), { archive: store.archive(), exitCode: ex.exitCode });
        const actual = normalize(res.output.toString('utf8'));
        const expected = normalize(ex.output);
        const problems: string[] = [];
        if (route.distiller !== mine) problems.push(`  the command is owned by ${route.distiller ?? 'nothing'} (${route.reason}), not by this rule`);
        if (actual !== expected) {
          problems.push(`  output differs (- expected, + actual):`, ...lineDiff(expected, actual).map((l) => `  ${l}`));
          if (route.distiller === mine) {
            const why = whyExample(rule, ex, res);
            const shown = why.slice(0, 12);
            problems.push(...shown.map((w) => `  why: ${w}`));
            if (why.length > shown.length) problems.push(`  why: … and ${why.length - shown.length} more`);
          }
        }
        if (problems.length) {
          failed = true;
          io.stdout.write(`FAIL ${label}\n${problems.join('\n')}\n`);
        } else {
          io.stdout.write(`ok   ${label}\n`);
        }
      }
    }
  } finally {
    store.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  io.stdout.write(`${failed ? 'FAIL' : 'ok'}: ${count(ran, 'example')} run${set.notices.length ? `, ${count(set.notices.length, 'file')} not used` : ''}\n`);
  return failed ? 1 : 0;
}

async function trust(o: Opts, home: string, io: Io): Promise<number> {
  const file = o.rest[0] ? resolve(o.rest[0]) : findProjectRules(o.cwd, home);
  if (!file) { io.stderr.write(`omni rules trust: no .omni/rules.json in ${o.cwd} or above\n`); return 1; }
  const f = readRulesFile(file, 'project', home, { evenUntrusted: true });
  if (!f) { io.stderr.write(`omni rules trust: ${file}: no such file\n`); return 1; }
  if (f.errors.length) {
    for (const e of f.errors) io.stderr.write(`omni rules: ${e}\n`);
    io.stderr.write(`omni rules trust: ${file} is not valid; nothing trusted\n`);
    return 1;
  }
  // The hash of the bytes just validated: what is trusted is what was checked.
  const sha = trustFile(home, file, f.sha256);
  io.stdout.write(`trusted ${file} (${count(f.rules.length, 'rule')}, sha256 ${sha}); a changed file needs trusting again\n`);
  return 0;
}
