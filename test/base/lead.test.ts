// The first-char gate in front of anchored regexes (lib/base/lead.ts): wherever it is set it
// must answer exactly as the regex does, or a distiller's sniff would claim (or miss) a run the
// regex alone would not. Checked on hand-made patterns for each construct the reading follows,
// and on every `^…` regex literal of the distillers against every line of the corpus.
import t from 'tap';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodeLead, encodeLead, leadOf, leadTest } from '../../lib/base/lead.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const HAND: Array<[RegExp, boolean]> = [
  [/^PLAY RECAP \*{3,}\s*$/, true],
  [/^\s*(PASS|FAIL) +\S|^Test Suites: |^Tests: {2,}\d|^> jest(\s|$)/, true],
  [/^(ok|FAIL|\?) {1,3}\t\S+\t/, true],
  [/^\[\d\/\d\] (Resolving|Fetching)( fresh)? packages\.\.\.$/, true],
  [/^\s*[\u2501\u2578\u257a\u2500\-]+ [\d.]+\/[\d.]+ [kMG]?B/, true],
  [/^✖ \d+ problems?/, true],
  [/^ℹ (tests|pass|fail) \d+$/, true],
  [/^(?:a|b)?c/, true],
  [/^(?<word>x)y/, true],
  [/^(?=ab)a/, true],
  [/^(?!b)a/, true],
  [/^\bword/, true],
  [/^a{0,2}b/, true],
  [/^[^x]y/, true],
  [/^.x/, true],
  [/^(a)\1b/, true],
  [/^error/i, true],
  [/^\x41\u0042/, true],
  [/^[\d-x]/, true],
  [/^\s*$/, false],
  [/^(a|)/, false],
  [/^a*/, false],
  [/^$/, false],
  [/a/, false],
  [/^a|b/, false],
  [/^a/m, false],
  [/^a/s, false],
  [/^a/u, false],
  [/^\s/i, false],
];

const SUBJECTS = ['', ' ', '\t', 'a', 'A', 'b', 'B', 'c', 'x', 'y', 'ab', 'abc', 'aab', 'bc', 'ac', 'xy', 'zy', 'aaab', 'aab', 'aaaab', 'word', 'words', 'ERROR: x', 'error', 'Error', 'AB', '-', '5', '✖ 2 problems', 'ℹ tests 3', 'ok  \tpkg\t', '? \tx\t', 'PLAY RECAP ***', '  PASS x', 'Tests:  4', '> jest', '[1/4] Resolving packages...', '  ━━━ 1.0/2.0 MB', 'aay', '\u00a0', '\ufeffPASS x'];

t.test('each construct: gated or not as read, and always the regex\'s own answer', async (t) => {
  for (const [re, gated] of HAND) {
    t.equal(leadOf(re) !== null, gated, `${re} ${gated ? 'has' : 'has no'} gate`);
    const test = leadTest(re);
    for (const s of SUBJECTS) t.equal(test(s), re.test(s), `${re} on ${JSON.stringify(s)}`);
  }
});

t.test('a gate refuses a line no match can start with, without running the regex', async (t) => {
  const re = /^PLAY RECAP/;
  let ran = 0;
  const spy = Object.assign(re, { test: (s: string) => (ran++, RegExp.prototype.test.call(re, s)) });
  const test = leadTest(spy);
  t.equal(test('Downloading x'), false);
  t.equal(ran, 0, 'not run on a line starting with D');
  t.equal(test('PLAY RECAP **'), true);
  t.equal(ran, 1);
});

t.test('the same answers as the regex on arbitrary strings', async (t) => {
  const chars = fc.constantFrom(...'abxyAB -5\t\u00a0✖ℹ(PFT?'.split(''));
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 8 }).map((a) => a.join('')), (s) => {
      for (const [re] of HAND) if (leadTest(re)(s) !== re.test(s)) return false;
      return true;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

/** Every `^…` regex literal in lib/distillers (the patterns sniffing and recognising run). */
function distillerPatterns(): RegExp[] {
  const out: RegExp[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts')) {
        const src = readFileSync(p, 'utf8');
        for (const m of src.matchAll(/\/\^(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+\/[a-z]*/g)) {
          try {
            const re = new Function(`return ${m[0]}`)() as RegExp;
            // A global or sticky regex's test moves its lastIndex: not one to compare call by call.
            if (!re.global && !re.sticky) out.push(re);
          } catch {
            /* not a regex literal after all (a comment, a path) */
          }
        }
      }
    }
  };
  walk(path.join(ROOT, 'lib/distillers'));
  return out;
}

t.test('every anchored distiller pattern answers as itself on every corpus line', async (t) => {
  const patterns = distillerPatterns();
  t.ok(patterns.length > 100, `${patterns.length} patterns read`);
  t.ok(patterns.filter((re) => leadOf(re) !== null).length > patterns.length / 2, 'most of them gated');
  const lines = new Set<string>();
  const cases = path.join(ROOT, 'corpus/cases');
  for (const c of readdirSync(cases)) {
    try {
      for (const l of readFileSync(path.join(cases, c, 'output.txt'), 'utf8').split('\n')) lines.add(l);
    } catch {
      /* a case without output */
    }
  }
  let wrong = 0;
  for (const re of patterns) {
    const test = leadTest(re);
    for (const l of lines) {
      if (test(l) !== re.test(l)) {
        wrong++;
        if (wrong < 5) t.fail(`${re} on ${JSON.stringify(l)}`);
      }
    }
  }
  t.equal(wrong, 0, `${patterns.length} patterns × ${lines.size} lines`);
});

t.test('a lead survives the build\'s table (encoded as a string, decoded at run time)', async (t) => {
  for (const re of [...HAND.map(([r]) => r), ...distillerPatterns()]) t.same(decodeLead(encodeLead(leadOf(re))), leadOf(re), String(re));
});
