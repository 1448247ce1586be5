import t from 'tap';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import stripAnsi from 'strip-ansi';
import { distillBuffer } from '../../lib/pipeline/run.js';
import { DISTILLERS, routeCommand, specByName } from '../../lib/distillers/registry.js';
import { classifyLine, ownLines, ownLinesOfAll, plainOf, stripColour } from '../../lib/pipeline/classify.js';
import { Owner } from '../../lib/pipeline/distill.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { RunState } from '../../lib/kit/stage.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { hasWords, sameTemplate, saysFailureOrWarning } from '../../lib/distillers/shared.js';
import type { Line } from '../../lib/kit/types.js';
import { bodyOf, prefixOf, Prefixes } from '../../lib/kit/prefix.js';
import type { Recogniser } from '../../lib/kit/units.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';
import { loadCorpus, type CorpusCase } from '../helpers/corpus.js';
import { holds, runs } from '../helpers/property.js';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';

// A mixed run (lib/distillers/mix.ts): several producers (`a && b; c`), or one that names no
// tool (`make test`, `npm run release`). Where each producer's output starts cannot be told, so
// a line is hidden only where the recogniser of a producer that may have printed it positively
// recognises it as noise, every failure line of every one of them stays, and every marker
// stands where its run stood.

/** The lines of an output with their exact bytes, as frame cuts them. */
function rawLines(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at < b.length) {
    const nl = b.indexOf(10, at);
    const end = nl < 0 ? b.length : nl + 1;
    out.push(b.subarray(at, end));
    at = end;
  }
  return out;
}

const textOfRaw = (b: Buffer) => b.toString('utf8').replace(/\r?\n$/, '');
/** What a terminal shows of a line: its last redraw, without colour. */
const shown = (s: string) => stripAnsi(s.split('\r').filter((x) => x !== '').pop() ?? '');

interface Replay {
  /** Indices of input lines hidden behind a marker or squeezed out. */
  hidden: Set<number>;
  /** Why the output does not stand for the input, or null. */
  problem: string | null;
}

/**
 * Reads an output back against its input: each kept line is the next input line, each marker
 * the exact bytes of the next input lines (its run, where it stood), a blank line may be
 * squeezed out after another blank one, and a last marker may be the whole input's receipt.
 */
function replay(input: Buffer, output: Buffer, blobs: Map<string, Buffer>): Replay {
  const ins = rawLines(input);
  const outs = output.toString('utf8').split('\n');
  if (outs[outs.length - 1] === '') outs.pop();
  const hidden = new Set<number>();
  const blank = (j: number) => textOfRaw(ins[j]).trim() === '';
  const squeezable = (j: number) => blank(j) && j > 0 && blank(j - 1);
  let i = 0;
  for (let k = 0; k < outs.length; k++) {
    const o = outs[k].replace(/\r$/, '');
    const m = MARKER_RE.exec(o);
    if (m) {
      const blob = blobs.get(m[2]);
      if (!blob) return { hidden, problem: `marker ${o} names nothing archived` };
      if (k === outs.length - 1 && blob.equals(input)) continue; // the receipt
      const lines = rawLines(blob);
      while (i < ins.length && lines.length && !ins[i].equals(lines[0]) && squeezable(i)) hidden.add(i++);
      for (const l of lines) {
        if (i >= ins.length || !ins[i].equals(l)) return { hidden, problem: `marker "${m[1]}" does not stand where its run stood (input line ${i + 1})` };
        hidden.add(i++);
      }
      continue;
    }
    // Squeezed blank lines: a blank line that follows a blank one may go.
    while (i < ins.length && shown(textOfRaw(ins[i])).trim() !== shown(o).trim() && squeezable(i)) hidden.add(i++);
    if (i >= ins.length) return { hidden, problem: `output line ${k + 1} is past the input` };
    if (shown(textOfRaw(ins[i])) !== shown(o) && !/\*\*\*/.test(o)) return { hidden, problem: `output line ${k + 1} ${JSON.stringify(o.slice(0, 120))} is not input line ${i + 1} ${JSON.stringify(textOfRaw(ins[i]).slice(0, 120))}` };
    i++;
  }
  while (i < ins.length && shown(textOfRaw(ins[i])).trim() === '') hidden.add(i++);
  if (i !== ins.length) return { hidden, problem: `${ins.length - i} input lines are neither shown nor behind a marker` };
  return { hidden, problem: null };
}

/** The pipe door with an in-memory archive keyed like the store (16 hex of SHA-256). */
async function distilled(command: string, input: Buffer): Promise<{ output: Buffer; blobs: Map<string, Buffer>; distiller: string }> {
  const blobs = new Map<string, Buffer>();
  const archive = {
    put(d: Buffer) {
      const h = createHash('sha256').update(d).digest('hex').slice(0, 16);
      blobs.set(h, Buffer.from(d));
      return h;
    },
  };
  const r = await distillBuffer(describeRun({ door: 'pipe', command }), input, { archive });
  return { output: r.output, blobs, distiller: r.distiller };
}

/** Lines as classify gives them to the recognisers: plain text, stream prefix and tier (judged after the prefix), in order. */
function classified(input: Buffer, tools: DistillerSpec[]): Line[] {
  const own = ownLinesOfAll(tools);
  const prefixes = new Prefixes();
  let prev: string | null = null;
  return rawLines(input).map((b, index) => {
    const text = shown(textOfRaw(b)) === stripAnsi(textOfRaw(b)) ? textOfRaw(b) : textOfRaw(b).split('\r').filter((x) => x !== '').pop() ?? '';
    const l: Line = { kind: 'line', text, eol: '\n', tier: 'text', index, end: 0 };
    const p = plainOf(l);
    prefixes.mark(l, p);
    const body = bodyOf(l);
    l.tier = classifyLine(body, p === prev ? body : null, own);
    prev = p;
    return l;
  });
}

/**
 * The lines one producer's recogniser positively recognises, shown every line as the engine
 * shows them: each stream prefix's lines (`==PID== `, `@web:test: `) to a recogniser of their
 * own, as a mixed run reads them, the unprefixed lines to another.
 */
function recognised(make: () => Recogniser, lines: Line[], fold: boolean): Set<number> {
  const hits = new Set<number>();
  const byStream = new Map<string, Recogniser>();
  for (const l of lines) {
    const key = prefixOf(l);
    let rec = byStream.get(key);
    if (!rec) byStream.set(key, (rec = make()));
    const p = bodyOf(l);
    if (fold && p.trim() === '') continue;
    if (rec.see?.({ ...l }, p)) hits.add(l.index);
    // Lines it groups as alike (cargo's `Compiling x`): folded to first, marker, last.
    else if (rec.foldKey && rec.foldKey(l, p) !== null) hits.add(l.index);
  }
  return hits;
}

/**
 * Is line `i` the middle of a run of lines sharing one template (numbers and ids aside), which
 * the generic fold every folding recogniser leaves its other lines to may hide? Its neighbours
 * share its template (the run's first and last line stay), and it says no failure or warning.
 */
function inTemplateRun(lines: Line[], i: number): boolean {
  const p = (k: number) => lines[k].plain ?? lines[k].text;
  if (i === 0 || i === lines.length - 1 || saysFailureOrWarning(p(i))) return false;
  return sameTemplate(p(i - 1), p(i)) && sameTemplate(p(i), p(i + 1));
}

/**
 * The specs a line of the output names (their `detect`), each with the lines it recognises: what
 * a chain's program run by its path is read by (one named in the first batch reads it all).
 */
function namedBy(lines: Line[]): Array<{ hits: Set<number> }> {
  const out: Array<{ hits: Set<number> }> = [];
  for (const spec of DISTILLERS) {
    if (!spec.detect || !spec.lines || spec.answer) continue;
    const rec = spec.lines({ argv: [] });
    if ((rec.unit !== undefined && rec.unit !== 'run') || !lines.some((l) => spec.detect!(bodyOf(l)))) continue;
    out.push({ hits: recognised(() => spec.lines!({ argv: [] }) as Recogniser, lines, (rec as Recogniser).others !== 'keep') });
  }
  return out;
}

/** Corpus producers a chain may be made of: one producer a 'run' spec owns, named by the command. */
function producers(): Array<{ c: CorpusCase; spec: DistillerSpec; argv: string[] }> {
  const out: Array<{ c: CorpusCase; spec: DistillerSpec; argv: string[] }> = [];
  for (const c of loadCorpus()) {
    if (c.output.length > 40_000 || c.output.includes(0) || !c.output.length) continue;
    const r = routeCommand(c.cmd);
    if (!r.distiller || r.mixed || r.rule || !r.argv?.length || /[;&|<>`$()]/.test(c.cmd)) continue;
    const spec = specByName(r.distiller);
    const rec = spec.lines?.({ argv: r.argv });
    if (!rec || (rec.unit !== undefined && rec.unit !== 'run') || spec.answer) continue;
    out.push({ c, spec, argv: r.argv });
  }
  return out;
}

const POOL = producers();

t.test('the pool of corpus producers is wide', async (t) => {
  const specs = new Set(POOL.map((p) => p.spec.name));
  t.ok(POOL.length > 80, `${POOL.length} producers`);
  t.ok(specs.size >= 12, `of ${specs.size} specs: ${[...specs].sort().join(', ')}`);
});

/** Interleaves the lines of two outputs by `picks` (true: the next line of a), each in its order. */
function interleave(a: Buffer, b: Buffer, picks: boolean[]): Buffer {
  const la = rawLines(a).map((x) => (x[x.length - 1] === 10 ? x : Buffer.concat([x, Buffer.from('\n')])));
  const lb = rawLines(b).map((x) => (x[x.length - 1] === 10 ? x : Buffer.concat([x, Buffer.from('\n')])));
  const out: Buffer[] = [];
  let i = 0, j = 0, k = 0;
  while (i < la.length || j < lb.length) {
    const fromA = j >= lb.length || (i < la.length && (picks.length ? picks[k++ % picks.length] : true));
    out.push(fromA ? la[i++] : lb[j++]);
  }
  return Buffer.concat(out);
}

t.test('P1 for chains: over two corpus producers\' outputs, concatenated or interleaved, only what a recogniser of either recognises is hidden, every failure line of either stays, every marker stands where its run stood', async (t) => {
  const arb = fc.record({
    a: fc.integer({ min: 0, max: POOL.length - 1 }),
    b: fc.integer({ min: 0, max: POOL.length - 1 }),
    picks: fc.oneof(fc.constant([] as boolean[]), fc.array(fc.boolean(), { minLength: 1, maxLength: 40 })),
  });
  await holds(t, 'chains', arb, async ({ a, b, picks }) => {
    const A = POOL[a], B = POOL[b];
    const command = `${A.c.cmd} && ${B.c.cmd}`;
    const route = routeCommand(command);
    if (!route.mixed || route.producers?.length !== 2) return `${command}: not read as two producers`;
    const input = interleave(A.c.output, B.c.output, picks);
    const { output, blobs } = await distilled(command, input);
    if (output.length > input.length) return `${command}: larger than its input`;
    const { hidden, problem } = replay(input, output, blobs);
    if (problem) return `${command}: ${problem}`;
    // What either producer's recogniser recognises, over the whole mixed output, and the lines
    // classify calls noise (blank, repeated, a progress bar: generic's recognition, folded the
    // same in any run).
    const tools = [A.spec, B.spec];
    const lines = classified(input, tools);
    const makeA = () => A.spec.lines!({ argv: A.argv }) as Recogniser;
    const makeB = () => B.spec.lines!({ argv: B.argv }) as Recogniser;
    const fold = makeA().others !== 'keep' || makeB().others !== 'keep';
    const byA = recognised(makeA, lines, fold);
    const byB = recognised(makeB, lines, fold);
    // A program run by its path (`./build/money_test`) is read by the specs the output's own
    // lines name, from the first line one of them names.
    const named = route.producers.some((p) => p.sniffed) ? namedBy(lines) : [];
    for (const i of hidden) {
      if (byA.has(i) || byB.has(i) || lines[i].tier === 'noise' || (fold && inTemplateRun(lines, i))) continue;
      if (named.some((n) => n.hits.has(i))) continue;
      return `${command}: input line ${i + 1} ${JSON.stringify(lines[i].text.slice(0, 120))} is hidden, and neither ${A.spec.name} nor ${B.spec.name} recognises it as noise`;
    }
    // Every failure line of either producer stays, each by its own lines.
    for (const spec of tools) {
      let prev: string | null = null;
      for (const l of lines) {
        const p = bodyOf(l);
        const tier = classifyLine(p, prev, ownLines(spec));
        prev = p;
        if (tier === 'failure' && hidden.has(l.index)) return `${command}: ${spec.name}'s failure line ${JSON.stringify(p.slice(0, 120))} is hidden`;
      }
    }
    return null;
  }, { numRuns: runs(60) });
});

t.test("a chain's producer no spec owns keeps its failure lines, even where another producer's tool calls such a line a signal", async (t) => {
  // pip's retry warning says `connection broken`: install calls it a signal (pip goes on), but
  // `git push` beside it, read by the global lists only, may have printed it as its failure.
  const pip = corpusCase('pip-install-pypi-unreachable');
  const push = corpusCase('git-push-no-remote');
  const command = `${pip.cmd} && ${push.cmd}`;
  const input = interleave(pip.output, push.output, [false]);
  const { output, blobs } = await distilled(command, input);
  const { hidden, problem } = replay(input, output, blobs);
  t.equal(problem, null);
  const lines = classified(input, []);
  const lost = lines.filter((l) => l.tier === 'failure' && hidden.has(l.index)).map((l) => l.text);
  t.ok(lines.some((l) => /WARNING: Retrying/.test(l.text) && l.tier === 'failure'), 'the retry warning reads as a failure by the global lists');
  t.same(lost, [], 'no failure line of the global lists is hidden');
});

t.test('the checker fails on an output that hides an unrecognised line or moves a marker', async (t) => {
  const input = Buffer.from('one\ntwo\nthree\n');
  const blobs = new Map([['0123456789abcdef', Buffer.from('two\n')]]);
  t.equal(replay(input, Buffer.from('one\n[omni: 1 lines folded — omni retrieve 0123456789abcdef]\nthree\n'), blobs).problem, null);
  t.same([...replay(input, Buffer.from('one\n[omni: 1 lines folded — omni retrieve 0123456789abcdef]\nthree\n'), blobs).hidden], [1]);
  t.match(replay(input, Buffer.from('[omni: 1 lines folded — omni retrieve 0123456789abcdef]\none\nthree\n'), blobs).problem, /does not stand where its run stood/);
  t.match(replay(input, Buffer.from('one\nthree\n'), blobs).problem, /not input line/);
});

t.test('a chain of a test run and an install is read by both: each one\'s noise goes, the rest stays', async (t) => {
  const install = corpusCase('npm-install-fresh');
  const jest = corpusCase('jest-verbose-pass');
  const command = `cd app && ${install.cmd} && ${jest.cmd}`;
  const input = Buffer.concat([install.output, jest.output]);
  const { output, blobs } = await distilled(command, input);
  const { hidden, problem } = replay(input, output, blobs);
  t.equal(problem, null);
  const text = output.toString('utf8');
  t.match(text, /passing tests folded/, "jest's passing tests fold");
  t.ok(hidden.size > 100, `${hidden.size} lines hidden`);
  t.ok(output.length < input.length / 2, `${input.length} -> ${output.length} B`);
});

t.test('an answer anywhere in the chain keeps every line: any line may be the answer', async (t) => {
  const jest = corpusCase('jest-verbose-pass');
  for (const answer of ['git status', 'ls -la', 'cat notes.txt', 'rg TODO src']) {
    const command = `${jest.cmd} && ${answer}`;
    const r = routeCommand(command);
    t.ok(r.mixed && r.producers!.some((p) => p.answer), `${command}: an answer producer`);
    const { output } = await distilled(command, jest.output);
    t.notOk(MARKER_RE.test(output.toString('utf8').split('\n').find((l) => MARKER_RE.test(l)) ?? ''), `${command}: no marker`);
    t.equal(stripColour(output.toString('utf8')), stripColour(jest.output.toString('utf8')), `${command}: every line, as it came`);
  }
  const jq = routeCommand(`${jest.cmd} && cat package.json | jq .scripts`);
  t.ok(jq.producers!.some((p) => p.reshaped === 'jq'), 'a reshaped segment is structured: an answer too');
});

t.test('a producer that names no tool is read by the specs its output names', async (t) => {
  const nodeTest = corpusCase('node-test-tap-toplevel-pass');
  for (const command of ['npm run release', 'make test', 'just test', 'rake test', 'bundle exec rake test', 'yarn release', 'docker compose exec app make test']) {
    const d = await pipe(nodeTest, command);
    t.match(d.out, /\d+ passing (tests|TAP results) folded/, `${command}: node --test's passing tests fold`);
    // make's own lines are cc's, `rake test`'s minitest's (they own the command; `bundle exec rake` names no tool): the TAP lines still fold.
    t.equal(d.distiller, command.includes('make') ? 'cc' : command.startsWith('rake') ? 'minitest' : 'tap', `${command}: counted as ${d.distiller}`);
  }
  // npm echoes the script it runs: `> node --test` names node --test itself.
  const echoed = { ...nodeTest, output: Buffer.concat([Buffer.from('\n> app@1.0.0 release\n> node --test\n\n'), nodeTest.output]) };
  const release = await pipe(echoed, 'npm run release');
  t.equal(release.distiller, 'node-test', 'npm run release running node --test is counted as node-test');
  t.match(release.out, /200 passing (tests|TAP results) folded/);
  t.ok(release.out.length < release.input.length / 5, `${release.input.length} -> ${release.out.length} B`);
  const byPath = await pipe(nodeTest, './release.sh');
  t.match(byPath.out, /passing (tests|TAP results) folded/, 'a script run by its path is read by the lines it prints');
  const generic = await pipe(nodeTest, 'release');
  t.notMatch(generic.out, /passing (tests|TAP results) folded/, 'a program on PATH no runner names stays generic');
});

t.test("nox's and tox's sessions are read by what they run: pytest's passing lines fold, the runner's own lines stay", async (t) => {
  const nox = await pipe(corpusCase('nox-session-tests-pass'));
  t.equal(nox.distiller, 'pytest', 'counted as what its session ran');
  t.equal(folded(nox.markers, 'passing tests'), count(nox.input, / PASSED +\[ *\d+%\]$/));
  t.same(keptAll(nox, /^nox > |^=+ \d+ passed in /), []);
  // pytest's own note, as under `pytest -v`: the header it hid carried the collected count (the
  // blank lines folded with the run are nobody's, and do not take the note from pytest).
  t.match(nox.out, /\[omni: 5 session header lines \(collected 60 items\), 60 passing tests folded/);
  // Both sessions, the second failing: every flake8 finding and the verdicts stay where they were.
  const both = await pipe(corpusCase('nox-all-sessions-lint-fail'));
  t.same(keptAll(both, /^\S+\.py:\d+:\d+: E\d+ |^nox > (Session|Ran multiple|\* )/), []);
  t.match(both.out, /60 passing tests folded/);
  // Without the runner's name (a program on PATH no runner names) the session's pytest lines are generic's.
  t.not((await pipe(corpusCase('nox-session-tests-pass'), 'sessions -s tests')).distiller, 'pytest');
});

t.test("npm test running rspec takes in rspec's own failure lines from the first line (the head names the tool)", async (t) => {
  const c = corpusCase('rspec-doc-fail');
  const lines = c.output.toString('utf8').split('\n');
  const owner = new Owner(describeRun({ door: 'pipe', command: 'npm test' }), new RunState());
  const ls: Line[] = lines.map((text, index) => ({ kind: 'line', text, eol: '\n', tier: 'text', index, end: 0 }));
  owner.observe(ls);
  const failing = lines.filter((l) => /\(FAILED - \d+\)\s*$|^\s*Failure\/Error:|^rspec \S+ # /.test(l));
  t.ok(failing.length >= 3, `${failing.length} rspec failure lines`);
  for (const l of failing) t.equal(classifyLine(l, null, owner.ownAt(0)), 'failure', `a failure under npm test: ${l.trim()}`);
  t.same(DISTILLERS.filter((s) => s.name === 'rspec').length, 1);
});

t.test("a chain's other producer reads a line too: pip's own retry-warning signal does not fold what jest's reading calls a failure", async (t) => {
  const pip = corpusCase('804-pip-install-pypi-unreachable');
  const jest = corpusCase('jest-verbose-pass');
  const retries = pip.output.toString('utf8').split('\n').filter((l) => l.startsWith('WARNING: Retrying (Retry('));
  t.ok(retries.length >= 3, `${retries.length} retry warnings`);
  // Alone, pip's retries fold behind their first (install's own lines call them a signal).
  const alone = (await distilled(pip.cmd, pip.output)).output.toString('utf8');
  t.ok(retries.some((l) => !alone.includes(l)), 'alone, the later retries fold');
  // Chained with jest, which may have printed them and whose lines call them failures, each stays.
  const { output } = await distilled(`${pip.cmd} && ${jest.cmd}`, Buffer.concat([pip.output, jest.output]));
  const text = output.toString('utf8').split('\n');
  for (const l of retries) t.ok(text.includes(l), `stays: ${l.slice(0, 80)}`);
});

// sameTemplate asks at every word start whether a variable token (a uuid, a number with its
// unit) starts there. On a long run of progress lines those questions were most of a hook
// call's regex calls: one is asked only where a char says it may be answered yes (a uuid's '-'
// eight chars on, a unit's first letter after a number). The answers stay the same.
/** Runs `fn` and counts the regex calls made through RegExp.prototype.test and exec. */
function regexCalls(fn: () => void): number {
  const test = RegExp.prototype.test;
  const exec = RegExp.prototype.exec;
  let n = 0;
  RegExp.prototype.test = function (this: RegExp, s: string) { n++; return test.call(this, s); };
  RegExp.prototype.exec = function (this: RegExp, s: string) { n++; return exec.call(this, s); };
  try {
    fn();
  } finally {
    RegExp.prototype.test = test;
    RegExp.prototype.exec = exec;
  }
  return n;
}

t.test('progress lines compare without a regex call', async (t) => {
  let same = false;
  const n = regexCalls(() => { same = sameTemplate('Downloading package-1 1%', 'Downloading package-7 42%'); });
  t.equal(same, true);
  t.equal(n, 0, 'no position there can start a uuid or a unit');
});

t.test('uuids and units are still variable tokens', async (t) => {
  t.ok(sameTemplate('run 0b6f1d2e-4c2a-4b7f-9a3e-1f2d3c4b5a69 done', 'run 9f8e7d6c-5b4a-4392-8877-665544332211 done'));
  t.ok(sameTemplate('fetched 250K in 3ms', 'fetched 4.24MiB in 1.2s'));
  t.ok(sameTemplate('took 2min', 'took 15h'));
  t.ok(sameTemplate('size 12µs', 'size 4ns'));
  t.notOk(sameTemplate('took 2min', 'took 2 min'));
  t.notOk(sameTemplate('fetched 250Kx', 'fetched 250'));
  t.notOk(sameTemplate('id 0b6f1d2e-4c2a-4b7f-9a3e-1f2d3c4b5a69x', 'id 9f8e7d6c-5b4a-4392-8877-665544332211'));
});

// hasWords is the one-pass form of "two letters side by side once every id and number is
// blanked out": it must say exactly what the regex form says, on every line.
const ID_OR_NUMBER = /\b(0x)?[0-9a-f]{7,}\b|\d+/gi;
const A_WORD = /[A-Za-z]{2}/;
const byRegex = (t: string) => A_WORD.test(t) && A_WORD.test(t.replace(ID_OR_NUMBER, ' '));

t.test('hasWords says what the regex form says, on fuzzed ids, numbers and words', async (t) => {
  const bits = ['0', '1', '9', '00', 'a', 'f', 'F', 'x', 'X', '0x', '0X', 'g', 'z', 'Q', '_', ' ', '-', '.', ':', 'deadbeef', 'DEADBEEF1', 'abcdef', '1234567', '12345678', 'c0ffee1', 'é', 'µ', 'ab', 'id', '\t'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 10 }), (parts) => {
    const line = parts.join('');
    return hasWords(line) === byRegex(line);
  }), { numRuns: 50000, seed: 3 });
  t.pass('agree on 50000 lines');
});

t.test('hasWords on lines a fold meets', async (t) => {
  for (const [line, want] of [
    ['Downloading package-3@1.2.3 (400 kB)', true],
    ['2c36ec44705b58f9', false],
    ['0x7ffd5a3c 0x7ffd5a40', false],
    ['12 34 56', false],
    ['a1b2c3d4e5 ok', true],
    ['3f2a9c0x', true],
    ['deadbeefcafe', false],
    ['deadbeefcafez', true],
    ['', false],
  ] as const) t.equal(hasWords(line), byRegex(line), JSON.stringify(line));
  t.equal(hasWords('deadbeefcafe'), false, 'a hex id alone is a value');
  t.equal(hasWords('build 1234 ok'), true, 'words beside a number');
});

t.test('prefixed streams are read through their prefix: each by the runner its lines name, each with state of its own', async (t) => {
  // Two node --test streams under turbo, interleaved line by line: one test's YAML block is
  // cut by the other stream's lines. Each stream's passing tests fold; the failing one stays whole.
  const tap = (name: string, fail: boolean) => [
    'TAP version 13',
    ...Array.from({ length: 12 }, (_, i) => [`# Subtest: ${name} adds ${i}`, `ok ${i + 1} - ${name} adds ${i}`, '  ---', `  duration_ms: 0.${i}31`, '  ...']).flat(),
    ...(fail ? ['# Subtest: rounds', 'not ok 13 - rounds', '  ---', '  error: |-', '    0.3 !== 0.31', '  ...'] : []),
    '# pass 12', `# fail ${fail ? 1 : 0}`,
  ];
  const a = tap('ledger', false).map((s) => `@shop/ledger:test: ${s}`);
  const b = tap('cart', true).map((s) => `@shop/cart:test: ${s}`);
  const lines = ['@shop/ledger:test: cache miss, executing 11aa', '@shop/cart:test: cache miss, executing 22bb', '@shop/ledger:test: > node --test', '@shop/cart:test: > node --test'];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) lines.push(a[i]);
    if (i < b.length) lines.push(b[i]);
  }
  lines.push('', ' Tasks:    1 successful, 2 total', 'Failed:    @shop/cart#test');
  const input = `${lines.join('\n')}\n`;
  const c = { ...corpusCase('node-test-tap-toplevel-pass'), output: Buffer.from(input) };
  const d = await pipe(c, 'npx turbo run test');
  t.match(d.out, /passing (tests|TAP results) folded/, 'passing tests under a prefix fold');
  for (const keep of ['@shop/cart:test: not ok 13 - rounds', '@shop/cart:test:     0.3 !== 0.31', '@shop/cart:test: # fail 1', '@shop/ledger:test: # pass 12', 'Failed:    @shop/cart#test']) {
    t.ok(d.lines.includes(keep), `stays: ${keep}`);
  }
  t.ok(d.out.length < input.length / 2, `${input.length} -> ${d.out.length} B`);
  // Every line that went out is an input line, in order, and the markers stand between them.
  const shown = d.lines.filter((l) => l && !MARKER_RE.test(l));
  let at = 0;
  for (const l of shown) { at = lines.indexOf(l, at); t.ok(at >= 0, `in order: ${l}`); if (at < 0) break; }
});

t.test('turbo and pnpm -r runs of the corpus fold their runners\' passing tests through the prefix', async (t) => {
  for (const name of ['1183-turbo-run-test-build-pnpm', '1180-pnpm-r-test-three-runners']) {
    const c = corpusCase(name);
    const d = await pipe(c);
    t.match(d.out, /passing (tests|TAP results) folded/, `${name}: folded`);
    for (const k of c.mustKeep) t.ok(d.out.includes(k), `${name} keeps ${k}`);
  }
});
