import t from 'tap';
import fc from 'fast-check';
import { LiteralDfa } from '../../lib/base/literal-dfa.js';
import { Prefilter } from '../../lib/pipeline/prefilter.js';
import { gateTables } from '../../lib/pipeline/classify.js';
import { disagreements } from '../helpers/corpus.js';

/*
 * The automaton stands in for the gate's regexes once a stream is long enough: every answer
 * must be the regexes' own, on any line, or classify would judge a line differently in a long
 * run than in a short one. Checked against the regexes themselves (lists', each spec's own,
 * redact's kind of case-insensitive list), on lines built from their own literals with the case
 * flipped, cut short, run together and mixed with non-ASCII and lone surrogates.
 */

const TABLES = [['lists', gateTables().lists] as const, ...Object.entries(gateTables().own)];
/** Each gate's regexes as the Prefilter compiles them, plus a case-insensitive list like redact's pre-check. */
const SETS: Array<[string, RegExp[]]> = [
  ...TABLES.filter(([, tb]) => tb.res.length).map(([name, tb]) => [name, tb.res.map((s) => new RegExp(s))] as [string, RegExp[]]),
  ['case-insensitive', [/p(?:ass|wd|ypi-)|t(?:oken)|s(?:ecret|k[-_]|g\.|ig=)|x(?:ox[abeoprs]-)|h(?:v[sbr]\.|ooks\.slack)/i, /%|[0123456789](?:[GKM])/]],
];

const truth = (res: RegExp[], s: string) => res.reduce((b, re, k) => (re.test(s) ? b | (1 << k) : b), 0);

/** The literal words a regex's source spells (letters, digits and the punctuation between them). */
function wordsOf(res: RegExp[]): string[] {
  const out = new Set<string>();
  for (const re of res) for (const w of re.source.replace(/\\(.)/g, '$1').split(/[|()?:[\]]+/)) if (w) out.add(w);
  return [...out];
}

const flip = (s: string, mask: number) => [...s].map((c, k) => (mask >> (k % 30)) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c).join('');

for (const [name, res] of SETS) {
  t.test(`${name}: the automaton says what its regexes say`, async (t) => {
    const dfa = LiteralDfa.of(res);
    t.ok(dfa, 'the regexes are literal alternations it reads');
    if (!dfa) return;
    // Pieces: fragments of the sources' words (whole, cut short, case flipped), the atoms the
    // regexes match (fast-check generates them), and characters no atom holds.
    const words = wordsOf(res);
    const piece = fc.oneof(
      fc.constantFrom(...words),
      fc.tuple(fc.constantFrom(...words), fc.nat(), fc.integer()).map(([w, cut, mask]) => flip(w.slice(0, 1 + (cut % w.length)), mask)),
      ...res.map((re) => fc.stringMatching(new RegExp(re.source, re.flags.replace('i', '')))),
      fc.constantFrom(' ', '  ', ':', '-', '_', '.', '1', '0', '%', '\t', 'é', 'É', 'ſ', 'K', 'ı', 'İ', '✓', '\ud83d', '\ude00', '😀', '\u00a0', '\uffff', '\0'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    await fc.assert(fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
      const line = parts.join('');
      const want = truth(res, line);
      const got = dfa.scan(line);
      if (got !== want) throw new Error(`${JSON.stringify(line)}: automaton ${got}, regexes ${want}`);
    }), { numRuns: 4000, seed: 20 });
    t.pass('4000 generated lines agree');
  });
}

t.test('on every corpus line, each gate with its automaton gives the bits it gives with its regexes', async (t) => {
  for (const [name, tb] of TABLES) {
    const withDfa = new Prefilter(tb, 0);
    const withRegex = new Prefilter(tb, Infinity);
    const { lines, bad } = disagreements((l) => withDfa.bitsOf(l) === withRegex.bitsOf(l), () => true);
    t.ok(lines > 10000, `${name}: ${lines} corpus lines`);
    t.same(bad, [], `${name}: the same bits on every line`);
  }
});

t.test('what is not a literal alternation is not read (the caller keeps its regexes)', async (t) => {
  for (const re of [/a+/, /ab?/, /\d/, /\bx/, /[a-z]/, /[^a]/, /^a/, /a$/, /a./, /x/u, /x/m, /é/i, /(a)/, /(?=a)/, /a|/, /a{2}/])
    t.equal(LiteralDfa.of([re]), null, `${re}`);
  t.ok(LiteralDfa.of([/a|b(?:c|d)|[ef]\.|\(/, /x/i]), 'literals, groups, classes, escapes');
});

t.test('a move into a state already found and the table starting over give the same answers', async (t) => {
  // Many atoms that share no prefix: long lines visit more states than the table keeps.
  const words = Array.from({ length: 300 }, (_, k) => `w${k.toString(36)}x${(k * 7919).toString(36)}`);
  const re = new RegExp(words.join('|'));
  const dfa = LiteralDfa.of([re, /zz/])!;
  await fc.assert(fc.property(fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom(...words).map((w) => w.slice(0, -1)), fc.constantFrom('w', 'x', 'z', ' ')), { maxLength: 400 }), (parts) => {
    const line = parts.join('');
    return dfa.scan(line) === truth([re, /zz/], line);
  }), { numRuns: 300, seed: 3 });
  t.pass('agree');
});
