import t from 'tap';
import fc from 'fast-check';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import stripAnsi from 'strip-ansi';
import { FAILURE, SIGNAL, NOISE, VERDICTS, gateBits, gatedPatterns, gateTables, mayMatter, noiseCandidates, ownPatterns, stripColour } from '../../lib/pipeline/classify.js';
import { Prefilter, atomsOf, derivePrefilter } from '../../lib/pipeline/prefilter.js';
import { DISTILLERS } from '../../lib/distillers/registry.js';

/*
 * classify's gate is derived from the pattern lists (lib/pipeline/prefilter.ts): it says which
 * patterns may match a line. It may let a line through wrongly, never stop one wrongly: a
 * stopped failure line would be folded. These checks take the lists as they are, so a pattern
 * added to a list is checked here too, and one the gate would skip fails them. The same goes
 * for each spec's own lines (DistillerSpec `failures`, `signals`) behind the spec's own gate.
 */

/** Every spec that declares lines of its own, with its own gate (the table gateTables derived) and patterns. */
const OWN = DISTILLERS.filter((s) => s.failures?.length || s.signals?.length).map((s) => {
  const gate = new Prefilter(gateTables().own[s.name]);
  return { name: s.name, gate: (x: string) => gate.bitsOf(x), patterns: ownPatterns(s) };
});
/** Every gate with its patterns: classify's lists', then each spec's own. */
const GATES = [{ name: 'lists', gate: gateBits, patterns: gatedPatterns() }, ...OWN];

function corpusLines(): string[] {
  const root = join(import.meta.dirname, '..', '..', 'corpus', 'cases');
  const out: string[] = [];
  for (const d of readdirSync(root)) {
    const f = join(root, d, 'output.txt');
    if (!existsSync(f)) continue;
    for (const raw of readFileSync(f, 'utf8').split('\n')) {
      const segs = raw.split('\r').filter(Boolean);
      out.push(stripAnsi(segs[segs.length - 1] ?? ''));
    }
  }
  return out;
}

/** Every gated pattern that matches `line` while its bit is clear. */
function misses(line: string, gate: (s: string) => number = gateBits, patterns = gatedPatterns()): string[] {
  const bits = gate(line);
  return patterns.filter(({ re, bit }) => !(bits & bit) && re.test(line)).map(({ re }) => `the gate stops ${re}`);
}

t.test('the gate covers every list classify tries, and each spec\'s own lines', async (t) => {
  const gated = gatedPatterns().map((p) => p.re);
  for (const re of [...VERDICTS, ...FAILURE, ...SIGNAL, ...NOISE]) t.ok(gated.includes(re), `${re} is gated`);
  t.ok(OWN.length > 0, `${OWN.length} specs declare lines of their own`);
  for (const s of DISTILLERS) {
    for (const re of [...(s.failures ?? []), ...(s.signals ?? [])]) t.ok(OWN.find((o) => o.name === s.name)?.patterns.some((p) => p.re === re), `${s.name}: ${re} is gated`);
  }
});

t.test('on every corpus line, a line a pattern matches passes its gate', async (t) => {
  const lines = corpusLines();
  t.ok(lines.length > 10000, `${lines.length} corpus lines`);
  const bad = GATES.flatMap((g) => lines.flatMap((l) => misses(l, g.gate, g.patterns).map((w) => `${g.name}: ${JSON.stringify(l)}: ${w}`)));
  t.same(bad.slice(0, 20), []);
  // The gate does skip: most lines of a log need no list at all.
  t.ok(lines.filter((l) => !mayMatter(l)).length > lines.length / 4, 'mayMatter stops many lines');
  t.ok(lines.filter((l) => noiseCandidates(l) === null).length > lines.length / 2, 'noiseCandidates stops most lines');
});

t.test('strings each pattern matches (generated from the pattern itself) pass its gate', async (t) => {
  for (const { gate, patterns } of GATES) for (const { re } of patterns) {
    // fast-check generates from patterns without the i flag: the case of each letter is then
    // flipped at random, which such a pattern still matches.
    const ci = re.flags.includes('i');
    // Nor does it know \\b: without it the pattern matches more, and the filter keeps matches.
    const plain = new RegExp(re.source.replace(/\\b/g, ''), re.flags.replace(/[gyi]/g, ''));
    const matching = fc.tuple(fc.stringMatching(plain), fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }))
      .map(([m, flips]) => (ci ? [...m].map((c, k) => (flips[k % 64] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('') : m))
      .filter((m) => re.test(m));
    await fc.assert(fc.property(fc.string({ maxLength: 6 }), matching, fc.string({ maxLength: 6 }), (a, m, b) => {
      // A match of an anchored pattern may be the whole line; otherwise anything may surround it.
      for (const line of [m, a + m + b]) {
        const why = misses(line, gate, patterns);
        if (why.length) throw new Error(`${JSON.stringify(line)}: ${why.join('; ')}`);
      }
    }), { numRuns: 300, seed: 7 });
  }
  t.pass('no generated match stopped');
});

t.test('stems, glyphs and spaces in any arrangement: no pattern match is stopped', async (t) => {
  const bits = ['rr', 'RR', 'ail', 'AIL', 'atal', 'anic', 'ANIC', 'arn', 'ARN', 'xcept', 'xit', 'Trace', 'Test', 'Time', 'not ok', 'ndefined reference', 'cannot find', 'not found', 'No such file', 'denied', 'bort', 'egmentation', 'dumped', 'eprecated', 'DEPRECATED', '***', 'Suite', 'Snapshots', 'Summary', 'Duration', 'Ran ', 'Result', 'result', '3 passed', '1 failed', '3 x', '4 pack', 'success', 'pass', 'SUCCESS', 'BUILD', 'Compiled', '2 tests', '0 errors', 'error', 'Error:', 'FAIL', 'panic', 'Exception', 'warning', 'WARN', '# fail 3', 'ℹ tests 4', '# pass 2', 'at f (a.js:1:2)', 'E   x', 'ok', 'PASS', 'passed', 'Done', 'Built', 'modified:', 'up to date', '✗', '✕', '×', '✖', '●', '⠋', '█', '░', '#', '=', '>', '-', '.', '[', ']', '(', ')', '|', '%', '50%', '12.5 %', 'Downloading', 'Fetched', 'Get:1', 'Hit:2', 'remote: Counting', 'Receiving objects', 'npm ERR!', 'exit code 2', "thread 'main' panicked at", '*** [all] Error 2', 'src/a.ts:3:5: error', 'x', 'Z', '7', ' ', '  ', '\t', '\u00a0', '\u3000', '\ufeff', ':', '=', '0', 'é', 'ſ', 'K'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 8 }), (parts) => {
    const line = parts.join('');
    const why = misses(line);
    if (why.length) throw new Error(`${JSON.stringify(line)}: ${why.join('; ')}`);
  }), { numRuns: 20000, seed: 12 });
  t.pass('no stopped match in 20000 lines');
});

t.test('a pattern added to a list is in the gate: the gate is built from the patterns, not beside them', async (t) => {
  // New patterns of the shapes the lists use: a word anywhere, any case; a word at the line's
  // start after spaces; a class and a count; a look-behind. A gate kept by hand would stop
  // these lines; one derived from the patterns lets each through.
  const added = [/\bkaboom\b/i, /^\s*(Unpacking|Setting up) \S+/, /\bQ[0-9]{2}: (lost|gone)\b/, /(?<=id=)zz\d+/, /^☠ /];
  const lines = ['all went KaBoOm here', '   Setting up libfoo (1.2)', 'report Q42: gone today', 'id=zz12', '☠ skull'];
  const base = gatedPatterns();
  const patterns = [...base, ...added.map((re) => ({ re, bit: 1 << 30 }))];
  const gate = new Prefilter(derivePrefilter(patterns));
  lines.forEach((line, k) => {
    t.ok(added[k].test(line), `${added[k]} matches ${JSON.stringify(line)}`);
    t.same(misses(line, (s) => gate.bitsOf(s), patterns), [], `the gate lets ${JSON.stringify(line)} through for ${added[k]}`);
  });
  // …and what it derived is the pattern's own literal, so it still stops lines without it.
  t.equal(new Prefilter(derivePrefilter([{ re: added[0], bit: 1 }])).bitsOf('nothing to see here'), 0, 'a line without "kaboom" skips that pattern');
  t.same(atomsOf(/^\s*(Unpacking|Setting up) \S+/).anchor, 'start-after-space');
  t.same(atomsOf(/(foo|.*)bar/).atoms?.length, 1, 'a branch that says nothing falls back to what follows');
  t.equal(atomsOf(/\w+/).atoms, null, 'a pattern with no literal is tried on every line');
  t.not(new Prefilter(derivePrefilter([{ re: /\w+/, bit: 1 }])).bitsOf('') & 1, 0, 'even the empty line');
});

t.test('stripColour gives what strip-ansi gives, colour or any other sequence', async (t) => {
  const bits = ['a', 'bc', ' ', '✓', '\x1b[31m', '\x1b[0m', '\x1b[m', '\x1b[1;32m', '\x1b[2K', '\x1b[?25l', '\x1b]0;title\x07', '\x1b]8;;http://x\x1b\\', '\x9b31m', '\x9d', '\x90', '\x1b', '[', 'm', ';', '3', '\x1bP', '\x1b\\', '\x07', '\x1b(B', '\x1b7'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 10 }), (parts) => {
    const line = parts.join('');
    return stripColour(line) === stripAnsi(line);
  }), { numRuns: 50000, seed: 3 });
  t.equal(stripColour('\x1b[32m✓\x1b[0m handles case 1 (\x1b[2m4 ms\x1b[0m)'), '✓ handles case 1 (4 ms)');
});
