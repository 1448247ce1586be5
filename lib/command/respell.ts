/**
 * Every reading of a command line that a permission rule might be meant for: the generous half
 * of the permission matcher. A host folds whitespace, removes quotes and backslashes, checks
 * every sub-command and sees through wrappers with their options before it matches a deny or
 * ask rule; a copy of that matcher that misses one respelling turns a denied command into an
 * allowed rewrite. So this errs the other way: it yields MORE forms than any host reads, and a
 * rule that matches any of them counts as matching.
 *
 * For a line it yields, case folded:
 * - the whole line, quotes, backslashes and `$IFS` removed, whitespace folded;
 * - each sub-command, split on `&&`, `||`, `;`, `|`, `&`, newlines, parentheses, braces,
 *   backticks and `$(`, once whether quoted or not (`sh -c "a; b"` runs b too, and simple brace
 *   lists are spelled out: `{npm,test}` runs `npm test`) and once as a shell groups the words
 *   (`BAR="a b" npm test`), each with and without its redirections;
 * - of each, the form without its leading assignments and shell keywords, and every later start
 *   once a wrapper (lib/command/plain-words.ts SHELL_WRAPPERS) leads: `nice -n 5 npm test`
 *   gives `npm test` whatever options `nice` took;
 * - each of those again with the program's directory dropped (`/usr/bin/npm test`).
 *
 * Not modelled, so a rule cannot rely on it: values a shell computes (`$X`, globs in a program
 * path, `$(printf …)`). The pre-hook never rewrites such a line (it is not plain words).
 */
import { SHELL_WRAPPERS } from './plain-words.js';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** `!` negates the command after it; the keywords are wrappers (SHELL_WRAPPERS). */
const LEADERS = new Set(['!']);
const REDIRECT = /^\d*(?:>>?|<<?<?|&>>?|>\||<>)/;

/** Quotes, backslashes and `$IFS` out; `$'…'` and `$"…"` read as their quoted text. */
export function unquote(text: string): string {
  return text
    .replace(/\$(['"])/g, '$1')
    .replace(/\$\{IFS\}|\$IFS\b/g, ' ')
    .replace(/\\\n/g, '')
    .replace(/['"\\]/g, '');
}

/** `{a,b}` as the shell spells it out: `a b` (one level, no nesting). */
function braceLists(text: string): string {
  return text.replace(/([^\s{}]*)\{([^{}\s]*,[^{}\s]*)\}([^\s{}]*)/g, (_m, pre: string, list: string, post: string) =>
    list.split(',').map((x) => `${pre}${x}${post}`).join(' '),
  );
}

function basename(w: string): string {
  const i = w.lastIndexOf('/');
  return i >= 0 && i < w.length - 1 ? w.slice(i + 1) : w;
}

/** Sub-commands of an unquoted text: every operator, group and substitution boundary. */
function segments(text: string): string[] {
  // `2>&1`, `>&2`, `&>f` are redirections, not `&`.
  const t = text.replace(/\d*>&(?:\d+|-)?/g, ' >').replace(/&>/g, ' >');
  return t.split(/&&|\|\||\$\(|[;|&\n\r()`{}]/);
}

/** The words a command starts at: 0, past assignments and keywords, and every word after a wrapper. */
function starts(words: string[]): number[] {
  const out = [0];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (ASSIGNMENT.test(w) || LEADERS.has(w)) {
      out.push(i + 1);
      continue;
    }
    if (SHELL_WRAPPERS.has(basename(w).toLowerCase())) {
      for (let k = i + 1; k < words.length; k++) out.push(k);
    }
    break;
  }
  return out;
}

function dropRedirections(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const m = REDIRECT.exec(words[i]);
    if (!m) {
      out.push(words[i]);
      continue;
    }
    // `> file` names its target in the next word; `>file` in this one.
    if (m[0].length === words[i].length) i++;
  }
  return out;
}

/**
 * The line's sub-commands as a shell groups words: quotes keep their spaces (`BAR="a b" npm`),
 * backslashes escape, `$'…'` reads as its text; an unclosed quote runs to the end. Operators,
 * groups and substitutions end a sub-command, as in `segments`.
 */
function shellSegments(line: string): string[][] {
  const segs: string[][] = [];
  let words: string[] = [];
  let cur = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(cur);
    cur = '';
    inWord = false;
  };
  const endSeg = () => {
    endWord();
    segs.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '$' && (line[i + 1] === "'" || line[i + 1] === '"')) continue;
    if (line.startsWith('${IFS}', i) || line.startsWith('$IFS', i)) {
      endWord();
      i += line[i + 1] === '{' ? 5 : 3;
      continue;
    }
    if (c === "'") {
      let j = line.indexOf("'", i + 1);
      if (j < 0) j = line.length;
      cur += line.slice(i + 1, j);
      inWord = true;
      i = j;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) cur += line[j] === '\\' && j + 1 < line.length ? line[++j] : line[j];
      inWord = true;
      i = j;
      continue;
    }
    if (c === '\\') {
      if (line[i + 1] !== '\n') {
        cur += line[i + 1] ?? '';
        inWord = true;
      }
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      endWord();
      continue;
    }
    if (';&|()`{}\n\r'.includes(c) || (c === '$' && line[i + 1] === '(')) {
      endSeg();
      continue;
    }
    cur += c;
    inWord = true;
  }
  endSeg();
  return segs;
}

/** Every form (above) of a command line, lower case, without duplicates. */
export function commandForms(line: string): string[] {
  const forms = new Set<string>();
  const add = (words: string[]) => {
    if (words.length === 0) return;
    forms.add(words.join(' ').toLowerCase());
    const b = basename(words[0]);
    if (b !== words[0]) forms.add([b, ...words.slice(1)].join(' ').toLowerCase());
  };
  const flat = braceLists(unquote(line));
  add(flat.split(/\s+/).filter(Boolean));
  const readings = [...segments(flat).map((seg) => seg.split(/\s+/).filter(Boolean)), ...shellSegments(line)];
  for (const raw of readings) {
    for (const words of [raw, dropRedirections(raw)]) for (const s of starts(words)) add(words.slice(s));
  }
  return [...forms];
}

/** A rule's text as the forms are spelled: unquoted, whitespace folded, lower case. */
export function ruleForm(text: string): string {
  return unquote(text).split(/\s+/).filter(Boolean).join(' ').toLowerCase();
}
