/**
 * A rule's patterns run on V8's linear-time regexp engine (lib/rules/linear.ts): the
 * catastrophic `^(a+)+$` is accepted and compiled for it; what that engine cannot run
 * (back-references, look-arounds, counted repetition above 16, `\p{…}`) and an overlong
 * pattern are errors naming the file, the rule, the field and the pattern; and on patterns and
 * lines nobody chose, the linear engine answers as the backtracking one does.
 */
import t from 'tap';
import fc from 'fast-check';
import { validateRules, MAX_PATTERN_CHARS } from '../../lib/rules/schema.js';
import { compileLinear, linearEngine } from '../../lib/rules/linear.js';
import { CORPUS_LINES } from '../helpers/generators.js';
import { runs, SEED } from '../helpers/property.js';
import { TAR_RULE } from './project.js';

const FILE = '/p/.omni/rules.json';
const errorsOf = (rule: Record<string, unknown>) => validateRules({ rules: [{ ...TAR_RULE, ...rule }] }, FILE).errors;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const named = (field: string, why: RegExp, pattern: string) =>
  new RegExp(`^${esc(FILE)}: rule "tar-members" \\(rules\\[0\\]\\): field ${esc(field)}: ${why.source} \\(pattern ${esc(JSON.stringify(pattern))}\\)$`);

t.test('a pattern the linear engine cannot run is an error naming the file, the rule, the field and the pattern', async (t) => {
  t.match(errorsOf({ hide: ['^(a)\\1$'] }), [named('hide[0]', /a back-reference \(\\1, \\k<name>\) cannot run in linear time/, '^(a)\\1$')]);
  t.match(errorsOf({ hide: ['ok'], keep: ['^(?!x)y', '(?<=v)1'] }), [named('keep[0]', /a look-around .* cannot run in linear time/, '^(?!x)y'), named('keep[1]', /a look-around .*/, '(?<=v)1')]);
  t.match(errorsOf({ hide: ['^[0-9a-f]{40}$'] }), [named('hide[0]', /counted repetition \{40\} repeats more than 16 times, which cannot run in linear time: write \+ or \*, or split it into pieces of \{16\} or fewer/, '^[0-9a-f]{40}$')]);
  t.match(errorsOf({ hide: ['x{2,100}'] }), [/field hide\[0\]: counted repetition \{2,100\}/]);
  t.match(errorsOf({ hide: ['(?:ab{4}){5}'] }), [/field hide\[0\]: it cannot run in linear time \(nested counted repetitions multiply/]);
  t.match(errorsOf({ hide: ['(unclosed'] }), [/field hide\[0\]: invalid regular expression: .* \(pattern "\(unclosed"\)$/]);
  const long = 'a'.repeat(MAX_PATTERN_CHARS + 1);
  t.match(errorsOf({ hide: [long] }), [new RegExp(`field hide\\[0\\]: pattern "a{80}…" is ${MAX_PATTERN_CHARS + 1} characters, over the ${MAX_PATTERN_CHARS} a pattern may have`)]);
  t.same(errorsOf({ hide: ['^[0-9a-f]{16}[0-9a-f]{16}[0-9a-f]{8}$', '^(a+)+$', '\\bdone\\b', '[Ee]rror-free'] }), [], 'split repetition, nested plus, \\b and spelt-out case are fine');
});

t.test('the catastrophic pattern is accepted and runs on the linear engine', async (t) => {
  const { rules, errors } = validateRules({ rules: [{ ...TAR_RULE, hide: ['^(a+)+$'] }] }, FILE);
  t.same(errors, []);
  const re = rules[0].hide[0];
  t.ok(re.flags.includes('l'), `compiled with the linear engine's flag (flags "${re.flags}")`);
  // Only on that engine: on a backtracking one this line takes 2^40 steps.
  if (re.flags.includes('l')) {
    t.equal(re.test('a'.repeat(40) + 'b'), false);
    t.equal(re.test('a'.repeat(100_000)), true);
    t.equal(re.test('a'.repeat(100_000) + 'b'), false, 'and a 100 KB line is no worse');
  }
  t.equal(linearEngine(), true, 'this Node has the engine');
});

// Differential: patterns from a small grammar (classes, alternation, groups, quantifiers,
// anchors, \b) and short and real lines. A group only takes a bounded quantifier and the
// nesting stays shallow, so the backtracking side (the reference) finishes on every pair.
const atom = fc.constantFrom('a', 'b', ' ', '.', '-', '\\w', '\\d', '\\s', '\\S', '[ab]', '[^a ]', '\\.', '\\b', 'x');
const quant = fc.constantFrom('', '', '*', '+', '?', '{0,2}', '{1,3}', '*?');
const bounded = fc.constantFrom('', '', '?', '{0,2}', '{1,2}');
const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  term: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'pattern' },
    { weight: 4, arbitrary: fc.tuple(atom, quant).map(([a, q]) => (a === '\\b' ? a : a + q)) },
    { weight: 1, arbitrary: fc.tuple(tie('seq'), tie('seq'), bounded).map(([x, y, q]) => `(?:${x}|${y})${q}`) },
    { weight: 1, arbitrary: fc.tuple(tie('seq'), bounded).map(([x, q]) => `(${x})${q}`) },
  ),
  seq: fc.array(tie('term'), { minLength: 1, maxLength: 3 }).map((xs) => (xs as string[]).join('')),
})).seq.chain((p) => fc.tuple(fc.boolean(), fc.boolean()).map(([a, z]) => `${a ? '^' : ''}${p}${z ? '$' : ''}`));
const shortLine = fc.stringMatching(/^[ab .\-x1]{0,12}$/);
const realLine = fc.constantFrom(...CORPUS_LINES.filter((l) => l.length <= 40).slice(0, 3000));

t.test('the linear engine answers as the backtracking one does', async (t) => {
  let compared = 0;
  fc.assert(fc.property(pattern, fc.array(fc.oneof(shortLine, realLine), { minLength: 1, maxLength: 8 }), (src, lines) => {
    const linear = compileLinear(src);
    if (typeof linear === 'string') return; // refused (counted repetition can nest past 16): not a rule
    const back = new RegExp(src);
    for (const l of lines) {
      compared++;
      if (linear.test(l) !== back.test(l)) throw new Error(`/${src}/ on ${JSON.stringify(l)}: linear ${linear.test(l)}, backtracking ${back.test(l)}`);
    }
  }), { seed: SEED, numRuns: runs(2000) });
  t.ok(compared > 5000, `${compared} pattern-line pairs agree`);
});
