import type { Line } from '../kit/types.js';
import type { Hit } from '../kit/units.js';
import { analyzeCommand, basename, peelWrappers } from '../command/parse.js';
import { unversioned } from '../command/runners.js';
import { KEEPING_TAILS } from './tails.js';

/**
 * Pure helpers the distillers share: a line's text, a note's plural, a command's program and
 * subcommand. How lines are hidden is not here: that is declared (hide.ts) and done by the one
 * engine (engine.ts).
 */

/** What a line reads as: its text without ANSI colour (classify sets `plain`). */
export const textOf = (l: Line): string => l.plain ?? l.text;

/**
 * "400 passing tests, 8 passing suites folded": what a run of recognised lines is, counted by
 * each hit's noun (its `one` for a count of one); "N lines folded" when no hit names a noun.
 * A lead-in is part of what it leads (`=== RUN x` of the test `--- PASS: x` closes), so where
 * the run holds at least as many lines it leads as lead-ins, the lead-ins go uncounted: "6
 * passing tests" says what was hidden, and a marker that names fewer kinds costs fewer bytes
 * (a small package's tests then fold at all). Lead-ins left without what they lead are named.
 */
export function countsNote(hits: ReadonlyArray<Hit | undefined>): string {
  let leads = 0;
  for (const h of hits) if (h?.lead && h.noun) leads++;
  const leadsCounted = leads * 2 > hits.length;
  const counts = new Map<string, { c: number; one: string }>();
  for (const h of hits) {
    if (!h?.noun || (h.lead && !leadsCounted)) continue;
    const k = counts.get(h.noun);
    if (k) k.c++;
    else counts.set(h.noun, { c: 1, one: h.one ?? h.noun });
  }
  if (!counts.size) return `${plural(hits.length, 'line')} folded`;
  const parts: string[] = [];
  for (const [noun, { c, one }] of counts) parts.push(`${c} ${c === 1 ? one : noun}`);
  return `${parts.join(', ')} folded`;
}

/** `n thing` / `n things`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Global options with a value, skipped to find the subcommand: git's, and apt's `-o
 * Dir::State::Lists=…` (`apt-get -o X=Y update` is an update).
 */
const VALUE_OPTS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '-o']);

/** The subcommand of `tool [global options] sub …` (git, npm, kubectl, docker, terraform). */
export function subcommand(argv: string[]): string {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTS.has(a)) { i++; continue; }
    if (a.startsWith('-')) continue;
    return a;
  }
  return '';
}

/** argv[0] without its directory or an npx-style `@version` (`yarn@1.22.22` is yarn). */
export function programOf(argv: string[]): string {
  return unversioned(argv[0] ?? '');
}

/** Share of non-blank head lines matching `re`, a regex or its test (for sniffing). */
export function shareMatching(head: Line[], re: RegExp | ((t: string) => boolean)): number {
  const test = typeof re === 'function' ? re : (t: string) => re.test(t);
  let n = 0;
  let hit = 0;
  for (const l of head) {
    const t = textOf(l);
    if (!t.trim()) continue;
    n++;
    if (test(t)) hit++;
  }
  return n ? hit / n : 0;
}

/**
 * The argv of the producer that owns a command line's output, as the registry routes it.
 * Distillers get it as `create`'s route; this is for readers outside the pipeline (`omni rules`).
 */
export function producerArgv(command: string | undefined): string[] {
  if (!command) return [];
  const a = analyzeCommand(command);
  if (!a.tail) return a.argv;
  const tail = peelWrappers(a.tail);
  // A keeping tail (`| head`) leaves the producer its output; any other tail owns it.
  return KEEPING_TAILS.has(basename(tail[0] ?? '')) ? a.argv : tail;
}

export { MAY_STATE_FAILURE, saysFailureOrWarning } from '../kit/words.js';

/**
 * A line in a progress or probe shape that states a warning or an error after its words
 * (`checking consistency... docs/x.rst: WARNING: …`, a tool's message glued to its status line)
 * is an answer, not progress; a line merely naming one (`checking for strerror_r... yes`, `-- Performing
 * Test FLAG_SUPPORTED_Werror`) is not.
 */
export const STATES_WARNING_OR_ERROR = /\b(?:warning|error)\b:/i;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHexLetter = (c: number): boolean => (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isWord = (c: number): boolean => isDigit(c) || isLetter(c) || c === 95;
const UUID_AT = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])/y;
/** Shortest run of hex digits read as an id (a short git hash, a cache key, a pointer without 0x). */
const HEX_ID_MIN = 7;

/**
 * Where the variable token that starts at `i` ends, or -1 when none does: a run of digits, an
 * `0x…` address, a uuid, or a hex id (a word of at least HEX_ID_MIN hex digits with a digit and
 * a letter in it: `2c36ec44705b58f9`, `3f2a9c0`). Words are never variable.
 */
function variableEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  const atWord = i === 0 || !isWord(s.charCodeAt(i - 1));
  if (atWord && (isDigit(c) || isHexLetter(c))) {
    if (c === 48 && (s.charCodeAt(i + 1) | 32) === 120) {
      let j = i + 2;
      while (j < s.length && (isDigit(s.charCodeAt(j)) || isHexLetter(s.charCodeAt(j)))) j++;
      if (j > i + 2) return j;
    }
    // A uuid has its first '-' after eight hex digits: without one there, no regex call (this
    // runs at every word start of every line compared).
    if (s.charCodeAt(i + 8) === 45) {
      UUID_AT.lastIndex = i;
      if (UUID_AT.test(s)) return UUID_AT.lastIndex;
    }
    let j = i;
    let digit = false;
    let letter = false;
    for (; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (isDigit(d)) digit = true;
      else if (isHexLetter(d)) letter = true;
      else break;
    }
    if (j - i >= HEX_ID_MIN && digit && letter && (j === s.length || !isWord(s.charCodeAt(j)))) return j;
  }
  if (!isDigit(c)) return -1;
  // Digits glued to a word's letters are part of a name (`file9.txt`, `mod12.js`, `gw0`): two
  // lines that differ there name different things, and a list of names is an answer. One
  // letter alone before them is a separator's (`v1.2.3`, ISO's `T16:42`, `1920x1080`).
  let d = i;
  while (d > 0 && isDigit(s.charCodeAt(d - 1))) d--;
  if (d > 1 && isLetter(s.charCodeAt(d - 1)) && isLetter(s.charCodeAt(d - 2))) return -1;
  let j = i + 1;
  for (;;) {
    while (j < s.length && isDigit(s.charCodeAt(j))) j++;
    // `4.24`, `1.2.3`: one number.
    if (s.charCodeAt(j) === 46 && isDigit(s.charCodeAt(j + 1))) { j++; continue; }
    break;
  }
  // A size or a duration: its unit goes with it (`250K` ~ `4.24M`, `3ms` ~ `1.2s`).
  // Only a char a unit starts with is worth the regex call (most numbers have none).
  if (j >= s.length || !UNIT_FIRST.includes(s[j])) return j;
  UNIT_AT.lastIndex = j;
  return UNIT_AT.test(s) ? UNIT_AT.lastIndex : j;
}

/** The unit a number may carry, glued to it and ending the word. */
const UNIT_AT = /(?:[KMGT]i?B?|[kmµun]?s|B|min|h)(?![A-Za-z0-9_])/y;
/** Every char UNIT_AT can start with. */
const UNIT_FIRST = 'KMGTkmµunsBh';
const isSpace = (c: number): boolean => c === 32 || c === 9;

/**
 * Pure: do two lines share one template: the same text but for numbers (with their unit),
 * hex ids, addresses and uuids, and the width of blank runs (`by 0x1091C4: build (tree.c:10)` ~
 * `by 0x10919E: build (tree.c:9)`)? Lines that differ in any word, path or punctuation do not.
 */
export function sameTemplate(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    // Columns padded to a number's width: a run of blanks is one blank.
    if (isSpace(a.charCodeAt(i)) && isSpace(b.charCodeAt(j))) {
      while (i < a.length && isSpace(a.charCodeAt(i))) i++;
      while (j < b.length && isSpace(b.charCodeAt(j))) j++;
      continue;
    }
    // A char that no variable token can start at (not a digit, nor a hex letter at a word's
    // start: most chars of a line) is compared as it is, without asking variableEnd, which
    // would say -1 there.
    const c = a.charCodeAt(i);
    if (isDigit(c) || (isHexLetter(c) && (i === 0 || !isWord(a.charCodeAt(i - 1))))) {
      const ea = variableEnd(a, i);
      if (ea >= 0) {
        const eb = variableEnd(b, j);
        if (eb >= 0) { i = ea; j = eb; continue; }
      }
    }
    if (c !== b.charCodeAt(j)) return false;
    i++;
    j++;
  }
  return i === a.length && j === b.length;
}

/**
 * Where the id or number that `ID_OR_NUMBER` (/\b(0x)?[0-9a-f]{7,}\b|\d+/gi) would match at
 * `i` ends, or -1 when it matches none there: a word of seven or more hex digits (after an
 * optional `0x`) standing alone, else a run of digits.
 */
function idOrNumberEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  const hex = isDigit(c) || isHexLetter(c);
  if (hex && (i === 0 || !isWord(s.charCodeAt(i - 1)))) {
    // With its `0x` first, then without: the regex tries `(0x)?` both ways.
    for (let from = c === 48 && (s.charCodeAt(i + 1) | 32) === 120 ? i + 2 : i; ; from = i) {
      let j = from;
      while (j < s.length && (isDigit(s.charCodeAt(j)) || isHexLetter(s.charCodeAt(j)))) j++;
      if (j - from >= HEX_ID_MIN && (j === s.length || !isWord(s.charCodeAt(j)))) return j;
      if (from === i) break;
    }
  }
  if (!isDigit(c)) return -1;
  let j = i + 1;
  while (j < s.length && isDigit(s.charCodeAt(j))) j++;
  return j;
}

/**
 * Pure: does the line say something besides its numbers and ids: two letters side by side once
 * every id and number is blanked out (`t.replace(ID_OR_NUMBER, ' ')` holds /[A-Za-z]{2}/)? A
 * line that is only values (`seq`, `git rev-list`, a column of hashes) has no template to tell
 * its lines apart by: each is an answer. One pass, no string built: it is asked of every line a
 * fold may hide.
 */
export function hasWords(t: string): boolean {
  let letter = false; // the char before `i` is a letter that no id or number took
  for (let i = 0; i < t.length; ) {
    const c = t.charCodeAt(i);
    // Neither a digit nor a hex letter: no id or number starts here.
    const e = isDigit(c) || isHexLetter(c) ? idOrNumberEnd(t, i) : -1;
    if (e >= 0) { letter = false; i = e; continue; }
    if (isLetter(c)) {
      if (letter) return true;
      letter = true;
    } else letter = false;
    i++;
  }
  return false;
}

/** A line longer than this is not quoted in a marker: the marker says "the one above" instead. */
const QUOTE_MAX = 160;
/** Control characters a marker line must not carry (a tab is fine). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/**
 * The line a fold's marker quotes: the shortest of `lines` (what the others look like, at the
 * least cost) as the reader would have seen it, ANSI colour aside; null when none can be quoted
 * (too long, a control character, or text that reads as a marker).
 */
export function quoteOf(lines: readonly Line[]): string | null {
  let q: string | null = null;
  for (const l of lines) {
    const t = textOf(l);
    if (t.length <= QUOTE_MAX && (q === null || t.length < q.length) && t.indexOf('[omni:') < 0 && !CONTROL.test(t) && l.bytes === undefined) q = t;
  }
  return q;
}

/**
 * What a compiler's line is to the diagnostic it belongs to: a warning's headline, an error's,
 * a line that goes on saying the same diagnostic without being its excerpt (a `note:` or
 * `help:` headline, a ` --> file:line:col` location), a line of the source excerpt under a
 * headline (source lines, carets and labels, fix-its, `= note:` lines), or none of these.
 */
export type DiagnosticPart = 'warning' | 'error' | 'sub' | 'excerpt' | null;

/**
 * Reads a compiler's lines in order and says which are the source excerpt of a WARNING: the
 * first line of each contiguous excerpt ('opens', so a marker can count excerpts) and the lines
 * that continue it ('continues'). A note or a location goes on with the headline above it, so a
 * note's excerpt is its warning's or its error's; anything else ends the diagnostic. An error's
 * excerpt is never one: what a failure shows stays whole. Nor, once an error was seen, is a
 * later warning's: the build is failing (a door that does not know the exit code still
 * distils it), and a warning beside an error often explains it (an implicit declaration, then
 * an undefined reference). `partOf` is the compiler's own reading of one line (gcc's and
 * rustc's headlines differ, their excerpts' gutters do not).
 */
export function warningExcerpts(partOf: (plain: string) => DiagnosticPart): (plain: string) => 'opens' | 'continues' | null {
  let under: 'warning' | 'error' | null = null;
  let inExcerpt = false;
  let failing = false;
  return (p) => {
    const part = partOf(p);
    if (part === 'excerpt') {
      if (under !== 'warning' || failing) return null;
      const first = !inExcerpt;
      inExcerpt = true;
      return first ? 'opens' : 'continues';
    }
    inExcerpt = false;
    if (part === 'error') failing = true;
    if (part === 'warning' || part === 'error') under = part;
    else if (part !== 'sub') under = null;
    return null;
  };
}

/** What a linter's headline line is: a warning's (its excerpt may fold), an error's (it stays whole), or no headline. */
export type HeadlineOf = (plain: string) => 'warning' | 'error' | null;

/**
 * Reads a linter's lines in order and says which are the gutterless excerpt of a WARNING: the
 * source line as it is, right after the headline ('source'), then the caret line under it
 * ('carets'): rubocop's formatters, flake8's `--show-source`. Such a source line is told only
 * by where it stands, so a recogniser hides it only once the caret line has come (Hit.section);
 * what is under an error, or comes after one, is never an excerpt (`warningExcerpts`).
 */
export function gutterlessExcerpts(headline: HeadlineOf, carets: RegExp): (plain: string) => 'source' | 'carets' | null {
  let prev: 'headline' | 'source' | null = null;
  let shape: 'source' | 'carets' | null = null;
  const excerpt = warningExcerpts((p) => {
    const was = prev;
    prev = shape = null;
    const h = headline(p);
    if (h) {
      prev = 'headline';
      return h;
    }
    if (was === 'headline') prev = shape = 'source';
    else if (was === 'source' && carets.test(p)) shape = 'carets';
    return shape ? 'excerpt' : null;
  });
  return (p) => (excerpt(p) ? shape : null);
}
