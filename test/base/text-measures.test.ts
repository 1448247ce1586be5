import t from 'tap';
import { isBlank } from '../../lib/base/blank.js';
import { utf8Length } from '../../lib/base/utf8-length.js';

/** Chars at every edge the two measures read: ASCII, two- and three-byte UTF-8, surrogates alone and paired, every kind of space. */
const POOL = ['a', ' ', '\t', '\n', '\v', '\f', '\r', '\x7f', '\x80', '\xa0', 'é', '\u07ff', '\u0800', '✓', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\uffff', '\ud83d\ude00', '\ud83d', '\ude00', '0', 'x'];

/** Deterministic strings of up to 8 chars drawn from POOL. */
function* strings(count: number): Generator<string> {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let k = 0; k < count; k++) {
    let s = '';
    for (let n = next() % 9; n > 0; n--) s += POOL[next() % POOL.length];
    yield s;
  }
}

t.test('isBlank answers as `s.trim() === ""` does', async (t) => {
  let wrong = 0;
  for (const s of strings(50_000)) if (isBlank(s) !== (s.trim() === '')) wrong++;
  for (const c of POOL) if (isBlank(c) !== (c.trim() === '')) wrong++;
  t.equal(wrong, 0);
  t.ok(isBlank(''), 'empty is blank');
  t.notOk(isBlank(' \u200b '), 'a zero-width space is not whitespace to trim');
});

t.test('utf8Length counts what Buffer.byteLength counts, lone surrogates included', async (t) => {
  let wrong = 0;
  for (const s of strings(50_000)) if (utf8Length(s) !== Buffer.byteLength(s)) wrong++;
  t.equal(wrong, 0);
  t.equal(utf8Length('\ud83d\ude00'), 4, 'a pair is four bytes');
  t.equal(utf8Length('\ud83d'), 3, 'a lone high surrogate is U+FFFD, three bytes');
  t.equal(utf8Length('\ude00\ud83d'), 6, 'a pair in the wrong order is two lone ones');
});
