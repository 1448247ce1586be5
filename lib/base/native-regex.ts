/**
 * A regex V8 meets for the first time is compiled to its bytecode and interpreted; on its
 * second match attempt it is compiled again, to machine code. A regex tried on every line of
 * a run pays both compiles, and for a large alternation (the classify gate's trie of failure
 * words, ~5 KB of source) the bytecode compile costs as much as the machine-code one. V8
 * skips the bytecode when the first subject is long (1000 chars or more): one attempt on such
 * a subject, made here, leaves only the machine-code compile (bench/hook-phases.mjs counts
 * the difference in a hook call's instructions).
 *
 * Only for patterns whose attempt on a run of NULs is linear (literal alternations, words,
 * classes): a pattern that backtracks over a long subject must not be given one.
 */
const LONG = '\0'.repeat(1000);

/** Compiles `re` to machine code now, with its lastIndex as it was; returns it. */
export function compileNative<T extends RegExp>(re: T): T {
  const at = re.lastIndex;
  re.test(LONG);
  re.lastIndex = at;
  return re;
}
