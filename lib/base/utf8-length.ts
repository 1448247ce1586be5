/**
 * The bytes `s` takes as UTF-8, as `Buffer.byteLength(s)` counts them (a lone surrogate as the
 * three bytes of U+FFFD), counted here: for a line-sized string a loop over its chars costs far
 * less than the call into Node, which for a two-byte or a concatenated string first makes a
 * flat copy of it.
 */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) { n += 1; continue; }
    // A surrogate pair is two chars and four bytes; any other char from here on is three bytes.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n += 2; i++; continue; }
    }
    n += 2;
  }
  return n;
}
