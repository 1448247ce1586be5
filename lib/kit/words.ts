import { compileNative } from '../base/native-regex.js';

/**
 * Words that may state a failure even where classify found none (`tar: Exiting with failure
 * status due to previous errors` is text to classify). classify's FAILURE list is precise,
 * because a built-in distiller knows its tool and a false failure there costs savings on
 * every run; a rule is a pattern someone else wrote, possibly a broad one, so it also keeps
 * any line with one of these looser words: a death (killed, abort, segfault, core dumped,
 * OOM), a refusal (denied, refused, rejected, conflict), a timeout, an unhandled rejection.
 */
export const MAY_STATE_FAILURE = /error|fail|fatal|panic|exception|traceback|denied|cannot|can't|unable|abort|segfault|segmentation|core dump|not found|no such|killed|\boom|out of memory|refused|rejected|conflict|\btimed? ?outs?\b|deadline exceeded|unhandled|unreachable|\bE(CONN[A-Z]+|TIMEDOUT|HOSTUNREACH|NETUNREACH|ADDRINUSE|NOTFOUND|AI_AGAIN|NOSPC|ACCES|PERM|MFILE|NOENT|PIPE)\b|\bsignal \d|\bsig(kill|term|segv|abrt|bus)\b/i;

/** A warning said in words: what a fold of alike lines never hides either. */
const WARNING_WORD = /warn|deprecat/i;

/** Where a regex source's top-level alternatives start and end (escapes, classes and groups skipped). */
function alternativesOf(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') { i++; while (i < src.length && src[i] !== ']') { if (src[i] === '\\') i++; i++; } }
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) { out.push(src.slice(from, i)); from = i + 1; }
  }
  out.push(src.slice(from));
  return out;
}

/**
 * The same alternation (case-insensitive) as a trie of one branch per first letter:
 * `error|exception|fail` -> `e(?:rror|xception)|f(?:ail)`. V8 tries each alternative of a flat
 * list at every position of the line, so the flat list cost ~50 instructions a character
 * (measured under callgrind on the mixed log's lines), the trie ~30. An alternative that does
 * not start with a plain letter (`\boom`) stays as it is. The same language either way: a
 * `test` says the same (test/kit/words.test.ts holds the two against each other).
 */
export function letterTrie(src: string): string {
  const byFirst = new Map<string, string[]>();
  const rest: string[] = [];
  for (const a of alternativesOf(src)) {
    const first = a[0]?.toLowerCase();
    // A plain letter, not quantified (`e?rror` keeps its `e`).
    if (first && first >= 'a' && first <= 'z' && a.length > 1 && !'?*+{'.includes(a[1])) {
      const g = byFirst.get(first);
      if (g) g.push(a.slice(1)); else byFirst.set(first, [a.slice(1)]);
    } else rest.push(a);
  }
  return [...[...byFirst].map(([c, tails]) => `${c}(?:${tails.join('|')})`), ...rest].join('|');
}

/** MAY_STATE_FAILURE or WARNING_WORD, as one trie: asked of every line a fold may hide. */
export const FAILURE_OR_WARNING = new RegExp(letterTrie(`${MAY_STATE_FAILURE.source}|${WARNING_WORD.source}`), 'i');

let native = false;

/** Does the line hold a word that may state a failure or a warning? */
export function saysFailureOrWarning(t: string): boolean {
  // Asked of every line a fold would hide: compiled to machine code at once (lib/base/native-regex.ts).
  if (!native) {
    compileNative(FAILURE_OR_WARNING);
    native = true;
  }
  return FAILURE_OR_WARNING.test(t);
}
