// Makes a bundle pure ASCII, so the hook's boot (lib/boot/code-cache.cjs) reads it as a one-byte
// string: a copy of the file's bytes, where UTF-8 would first be validated and then widened
// into a two-byte string (~7M instructions for the 330 KB hot-path bundle, ~2 ms per call).
//
// esbuild's default charset already escapes strings, templates and identifiers; it leaves
// regex literals (escaping would change their `.source`) and comments as written. Here each
// non-ASCII code unit left in one of those two places becomes `\uXXXX`: in a comment that is
// text, and in a regex literal it is the same character to match, with or without the `u` or
// `v` flag (an astral character is its two surrogate escapes, which a `u` pattern reads as one
// code point). Only `.source` differs, and nothing on the hot path reads it. A non-ASCII
// character anywhere else (a String.raw template, say) stops the build: escaping it there could
// change what the program does.
import { readFileSync, writeFileSync } from 'node:fs';

/** Spans [from, to) of the regex literals on one line of esbuild's output. */
function regexSpans(line) {
  const spans = [];
  // A `/` that starts a regex follows an operator, an opening bracket, `=>` or a keyword.
  const start = /(?:^|[=(,:[!&|?{};>+\-*%~^]|\breturn|\btypeof|\bcase|\bin|\bof|\bvoid|\bdelete|\bnew|\bthrow)\s*\//g;
  let m;
  while ((m = start.exec(line))) {
    const from = m.index + m[0].length - 1;
    let i = from + 1;
    let inClass = false;
    for (; i < line.length; i++) {
      const c = line[i];
      if (c === '\\') { i++; continue; }
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
    }
    if (i >= line.length) continue;
    spans.push([from, i + 1]);
    start.lastIndex = i + 1;
  }
  return spans;
}

const isComment = (line) => /^\s*(\/\/|\/\*|\*)/.test(line);

/** The text with every non-ASCII code unit escaped; throws when one is outside a comment or regex literal. */
export function asciiOnly(text, name = 'bundle') {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (!/[^\x00-\x7f]/.test(line)) continue;
    const comment = isComment(line);
    const spans = comment ? [] : regexSpans(line);
    let out = '';
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (code < 0x80) { out += line[i]; continue; }
      if (!comment && !spans.some(([a, b]) => i > a && i < b - 1)) {
        throw new Error(`${name}:${n + 1}: non-ASCII character outside a comment or regex literal: ${line.trim().slice(0, 120)}`);
      }
      // `\✓` (an identity escape) is the character itself: its backslash goes with it.
      let k = i;
      while (k > 0 && line[k - 1] === '\\') k--;
      if (!comment && (i - k) % 2 === 1) out = out.slice(0, -1);
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    }
    lines[n] = out;
  }
  return lines.join('\n');
}

export function asciiFile(file) {
  writeFileSync(file, asciiOnly(readFileSync(file, 'utf8'), file));
}
