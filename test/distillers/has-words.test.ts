import t from 'tap';
import fc from 'fast-check';
import { hasWords } from '../../lib/distillers/shared.js';

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
