/** Whitespace as `String.prototype.trim` and `\s` read it (WhiteSpace and LineTerminator). */
const SPACE = /\s/;

/**
 * `s.trim() === ''` without building the trimmed copy: asked of every line, and almost every
 * line answers at its first char.
 */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128 || !SPACE.test(s[i])) return false;
  }
  return true;
}
