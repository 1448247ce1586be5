/**
 * The one pass-through decision, for every door (pipe, exec, the hook doors, Pi's extension)
 * and for the pre-hook's refusal to rewrite. A run is passed through, byte for byte and never
 * distilled, when either
 *
 * 1. omni's own environment has `OMNI_PASSTHROUGH=1` (exactly "1"), or
 * 2. the command line sets it for the command it runs: `OMNI_PASSTHROUGH=1` is among the
 *    leading environment assignments of the line, before its first command word, in the
 *    shell's own reading of them:
 *      `OMNI_PASSTHROUGH=1 npm install`, `CI=1 OMNI_PASSTHROUGH=1 npm install`,
 *      `OMNI_PASSTHROUGH='1' make`, `env OMNI_PASSTHROUGH=1 npm install`,
 *      `env -i CI=1 OMNI_PASSTHROUGH=1 make`, `FOO=x env OMNI_PASSTHROUGH=1 make`.
 *    The value must be exactly 1 once quotes are removed; the last assignment wins
 *    (`OMNI_PASSTHROUGH=1 OMNI_PASSTHROUGH=0 make` is distilled), and `env -i` or
 *    `env -u OMNI_PASSTHROUGH` after it cancels it, as they do for the command.
 *    Not a request: the word anywhere else (`echo OMNI_PASSTHROUGH=1`, `cd x && OMNI_PASSTHROUGH=1
 *    make`), a value with an expansion (`OMNI_PASSTHROUGH=$X make`), or assignments that end
 *    at an operator instead of a command (`OMNI_PASSTHROUGH=1; make`: a shell variable, which
 *    the command does not get).
 *
 * Why the command line counts at all: in the hook doors omni never sees the command's
 * environment, only the line the agent typed; reading the same line in every door is what
 * gives the same command the same answer. The pre-hook leaves such a line alone, so the
 * post-hook (which then sees it as typed) decides exactly as exec would have.
 *
 * Pure and cheap (a substring test before any scanning): the hook calls it on every payload.
 */

const NAME = 'OMNI_PASSTHROUGH';

/** The decision: omni's environment, then the command line's own prefix. */
export function passthroughRequested(command: string | null | undefined, env?: NodeJS.ProcessEnv): boolean {
  if (env?.OMNI_PASSTHROUGH === '1') return true;
  return typeof command === 'string' && commandRequestsPassthrough(command);
}

/** Rule 2 alone: the command line's leading assignments set OMNI_PASSTHROUGH=1. */
export function commandRequestsPassthrough(command: string): boolean {
  if (!command.includes(NAME)) return false;
  let value: string | null = null;
  let afterEnv = false;
  const words = leadingWords(command);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === null) return false; // an operator, or a word the scan cannot read: no command follows
    const eq = w.text.indexOf('=');
    if (eq > 0 && !w.quotedName && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.text.slice(0, eq))) {
      if (w.text.slice(0, eq) === NAME) value = w.expands ? null : w.text.slice(eq + 1);
      continue;
    }
    if (afterEnv && w.text.startsWith('-') && !w.quotedName) {
      // env's own options: -i clears the environment, -u NAME unsets one; -C takes a directory.
      const o = w.text;
      if (o === '-i' || o === '-' || o === '--ignore-environment') value = null;
      else if (o === '-u' || o === '--unset') { if (words[i + 1]?.text === NAME) value = null; i++; }
      else if (o === `-u${NAME}` || o === `--unset=${NAME}`) value = null;
      else if (o === '-C' || o === '--chdir') i++;
      else if (o === '-S' || o.startsWith('--split-string') || o.startsWith('-S')) return value === '1';
      continue;
    }
    if (!w.quotedName && (w.text === 'env' || w.text.endsWith('/env'))) {
      afterEnv = true;
      continue;
    }
    // The first command word: the prefix is complete.
    return value === '1';
  }
  return false;
}

interface Word {
  /** The word with quotes removed. */
  text: string;
  /** The word starts with a quote or escape (so `'A=1'` is a command word, not an assignment). */
  quotedName: boolean;
  /** The word has an unquoted or double-quoted `$` or a backtick: its value is not literal. */
  expands: boolean;
}

/**
 * The leading words of a command line, up to the first unquoted operator (returned as null) or
 * the end. Enough of the POSIX rules for assignment prefixes: single and double quotes,
 * backslash escapes; anything else ends the scan (null).
 */
function leadingWords(line: string): (Word | null)[] {
  const out: (Word | null)[] = [];
  let i = 0;
  const n = line.length;
  while (out.length < 64) {
    while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= n) break;
    let text = '';
    let expands = false;
    const first = line[i];
    const quotedName = first === "'" || first === '"' || first === '\\';
    for (; i < n; i++) {
      const c = line[i];
      if (c === ' ' || c === '\t') break;
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) { out.push(null); return out; }
        text += line.slice(i + 1, end);
        i = end;
        continue;
      }
      if (c === '"') {
        let j = i + 1;
        for (; j < n && line[j] !== '"'; j++) {
          if (line[j] === '\\' && j + 1 < n && '"\\$`'.includes(line[j + 1])) { text += line[++j]; continue; }
          if (line[j] === '$' || line[j] === '`') expands = true;
          text += line[j];
        }
        if (j >= n) { out.push(null); return out; }
        i = j;
        continue;
      }
      if (c === '\\') {
        if (i + 1 < n && line[i + 1] !== '\n') text += line[++i];
        continue;
      }
      if (c === '$' || c === '`') expands = true;
      if (c === ';' || c === '&' || c === '|' || c === '<' || c === '>' || c === '(' || c === ')' || c === '\n' || c === '\r') {
        if (text !== '') out.push({ text, quotedName, expands });
        out.push(null);
        return out;
      }
      text += c;
    }
    out.push({ text, quotedName, expands });
  }
  return out;
}

/**
 * OMNI_MASK=all: secret values are masked in what passes through too (reads, a failing
 * command's output, structured text), not only in output omni distils. Binary and invalid UTF-8
 * never are. Read from omni's own environment only: a command line cannot turn masking off.
 */
export function maskAllRequested(env: NodeJS.ProcessEnv): boolean {
  return env.OMNI_MASK === 'all';
}
