// The hook's boot reads the hot-path bundle as a one-byte string when it is pure ASCII (a copy
// of the file's bytes), instead of validating UTF-8 and widening 330 KB into a two-byte string
// on every call. scripts/ascii-bundle.mjs makes it so at build: what esbuild leaves non-ASCII
// (regex literals, comments) is escaped, and the rest of the program must not change.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/omni.js';

const { asciiOnly } = (await import(new URL('../../scripts/ascii-bundle.mjs', import.meta.url).href)) as { asciiOnly: (text: string, name?: string) => string };

t.test('the built hot-path bundle is pure ASCII', async (t) => {
  const bytes = readFileSync(join(ROOT, 'dist', 'omni-core.cjs'));
  const at = bytes.findIndex((b) => b > 0x7f);
  t.equal(at, -1, at < 0 ? 'no byte over 0x7f' : `a byte over 0x7f at ${at}: ${bytes.subarray(Math.max(0, at - 40), at + 20).toString('utf8')}`);
});

t.test('regex literals keep what they match, comments keep their text, the rest is refused', async (t) => {
  const src = [
    '// a comment with \u2014 and \u2026',
    ' * a doc line with \u2713',
    'const a = /^\\s*(not ok|\u2717|\u00d7)\\s/;',
    'const b = [/[\u2588\u2591]{3}/, /\u{1f600}/u, /[\u{1f600}]/u, /\\\u2713x/, /\\\\\u2713/];',
    'const c = (p) => /^\u2139 (tests|pass) \\d+$/.test(p);',
  ].join('\n');
  const out = asciiOnly(src);
  t.notMatch(out, /[^\x00-\x7f]/, 'all ASCII');
  t.equal(out.split('\n').length, src.split('\n').length, 'the same lines');
  const evalLine = (s: string, n: number) => new Function(`${s.split('\n')[n]}; return ${['', '', 'a', 'b', 'c'][n]};`)();
  const samples = ['not ok x', '\u2717 y', '\u00d7 z', '\u2588\u2591\u2588', '\u{1f600}', '\ud83d', '\u2713x', '\\\u2713', 'x', '\u2139 tests 3', '\u2139 tests x'];
  const a0 = evalLine(src, 2) as RegExp, a1 = evalLine(out, 2) as RegExp;
  const b0 = evalLine(src, 3) as RegExp[], b1 = evalLine(out, 3) as RegExp[];
  const c0 = evalLine(src, 4) as (p: string) => boolean, c1 = evalLine(out, 4) as (p: string) => boolean;
  for (const s of samples) {
    t.equal(a1.test(s), a0.test(s), `a on ${JSON.stringify(s)}`);
    b0.forEach((re, k) => t.equal(b1[k].test(s), re.test(s), `b[${k}] ${re} on ${JSON.stringify(s)}`));
    t.equal(c1(s), c0(s), `c on ${JSON.stringify(s)}`);
  }
  t.throws(() => asciiOnly('const s = String.raw`\u2713`;'), /outside a comment or regex literal/, 'a raw template is not rewritten');
  t.throws(() => asciiOnly('const s = "\u2713";'), /outside a comment or regex literal/, 'nor a string (esbuild escapes those itself)');
  t.equal(asciiOnly('const x = 1;\n'), 'const x = 1;\n', 'ASCII text is left as it is');
});
