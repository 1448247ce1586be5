// The corpus's must-keep checker and its id allocator. A case's must_keep.txt is derived from
// its output.txt by the keep steps of its row (corpus/rows/), never written by hand, so the
// same steps over the stored output give the same file again (test/corpus-rows.test.ts).
//
// A keep step is one of
//   re(...patterns)  every output line matching one of the regexes (the first that matches
//                    wins), ANSI stripped and trimmed, each once; a named group `k` keeps only
//                    that part. Lines that are not a byte substring of the output (an ANSI
//                    sequence inside) are kept as their ANSI-free pieces.
//   lit(...strings)  exact substrings, as written
//   gitLog()         the short hash and the subject of every commit of a `git log` output
//                    (body lines may fold behind a marker, subjects may not)
//
// The default reading is the one every new case uses. The cases captured before the one
// harness were written by seven scripts with five small variants of the line reader; a row
// names its variant (`dialect`), so the old files regenerate to the byte.

/** @typedef {{ re: string[], flags?: string } | { lit: string[] } | { gitLog: 'strict' | 'loose' }} KeepStep */

export const re = (...patterns) => ({ re: patterns });
export const lit = (...strings) => ({ lit: strings });
export const gitLog = (how = 'strict') => ({ gitLog: how });

const ANSI = {
  // CSI with any final byte, OSC strings, charset selection, keypad modes
  full: /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>]/g,
  csi: /\x1b\[[0-9;?]*[ -/]*[@-~]/g,
  sgr: /\x1b\[[0-9;]*m/g,
  none: null,
};

/**
 * How a keep step reads lines. `default` is the reader of every new row.
 *   lines   'any' splits on \r\n, \n and \r (a progress redraw is a line); 'lf' on \n only
 *   ansi    which escape sequences are stripped before matching
 *   pieces  a kept line with ANSI inside is kept as its ANSI-free pieces
 *   alnum   a kept string needs a letter or digit
 *   invalid a string with an undecodable byte is dropped ('drop') or kept as U+FFFD ('keep')
 *   dedupe  false: a string is kept again each time a line yields it
 *   strip   'blanks': only spaces and tabs are trimmed (a \r stays)
 *   order   'line': each line once, by the first pattern that matches, each string once;
 *           'pattern': pattern by pattern over all lines, duplicates kept (grep -E per regex)
 */
export const DIALECTS = {
  default: { lines: 'any', ansi: 'full', pieces: true, alnum: true, invalid: 'drop', order: 'line' },
  // capture-extra-2/-3 and capture-fresh-1 (keep-re.py)
  plain: { lines: 'any', ansi: 'csi', pieces: false, alnum: false, invalid: 'keep', order: 'line' },
  // capture-fresh-2
  csi: { lines: 'any', ansi: 'csi', pieces: false, alnum: true, invalid: 'drop', order: 'line' },
  // capture-fresh-git
  lf: { lines: 'lf', ansi: 'none', pieces: false, alnum: false, invalid: 'keep', order: 'line' },
  // capture.sh before it dropped repeated strings (case 057)
  dups: { lines: 'any', ansi: 'full', pieces: true, alnum: true, invalid: 'drop', order: 'line', dedupe: false },
  // capture-extra-2's first reader: \n-split lines, only blanks trimmed (case 717 keeps apt's \r)
  blanks: { lines: 'lf', ansi: 'csi', pieces: false, alnum: false, invalid: 'keep', order: 'line', strip: 'blanks' },
  // capture-extra (grep -E per regex)
  grep: { lines: 'lf', ansi: 'sgr', pieces: false, alnum: false, invalid: 'keep', order: 'pattern' },
};

const INVALID = '\uFFFD';
const ALNUM = /[\p{L}\p{N}]/u;
// Python's str.strip(): Unicode white space plus the information separators \x1c-\x1f.
const strip = (s) => s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, '');
const stripBlanks = (s) => s.replace(/^[ \t]+|[ \t]+$/g, '');
const rstrip = (s) => s.replace(/[\s\x1c-\x1f\x85]+$/u, '');

/**
 * A keep pattern is written in Python's syntax (the one the stored rows were captured with):
 * `(?P<k>…)` for the kept group and a leading `(?i)`. JavaScript reads the same pattern with
 * `(?<k>…)` and the `i` flag.
 */
export function compile(pattern) {
  let flags = '';
  let src = pattern;
  if (src.startsWith('(?i)')) { flags += 'i'; src = src.slice(4); }
  src = src.replace(/\(\?P</g, '(?<');
  try { return new RegExp(src, flags + 'u'); } catch { return new RegExp(src, flags); }
}

/** The output's text: undecodable bytes become U+FFFD. */
const decode = (buf) => new TextDecoder('utf-8').decode(buf);

function splitLines(text, how) {
  return how === 'lf' ? text.split('\n') : text.split(/\r\n|\n|\r/);
}

function stepRe(step, text, d) {
  const pats = step.re.map(compile);
  const ansi = ANSI[d.ansi];
  const out = [];
  const seen = new Set();
  const okChars = (s) => (d.invalid === 'keep' || !s.includes(INVALID)) && (!d.alnum || ALNUM.test(s));
  const emit = (s) => {
    s = rstrip(s);
    if (s && okChars(s) && !(d.dedupe !== false && seen.has(s))) { seen.add(s); out.push(s); }
  };
  const lines = splitLines(text, d.lines);
  if (d.order === 'pattern') {
    for (const p of pats) {
      for (const raw of lines) {
        const line = ansi ? raw.replace(ansi, '') : raw;
        const m = p.exec(line);
        if (!m) continue;
        const s = strip(line);
        out.push(s);
      }
    }
    return out;
  }
  for (const raw of lines) {
    const line = ansi ? raw.replace(ansi, '') : raw;
    for (const p of pats) {
      const m = p.exec(line);
      if (!m) continue;
      const s = (d.strip === 'blanks' ? stripBlanks : strip)(m.groups && 'k' in m.groups ? (m.groups.k ?? '') : line);
      if (text.includes(s)) {
        if (d.pieces) emit(s);
        else if (s && okChars(s) && !seen.has(s)) { seen.add(s); out.push(s); }
      } else if (d.pieces && ansi) {
        const kGroup = m.groups && 'k' in m.groups;
        for (const piece of raw.split(ansi)) {
          const q = strip(piece);
          if (kGroup ? s && q && s.includes(q) : q.length >= 2) emit(q);
        }
      }
      break;
    }
  }
  return out;
}

function stepGitLog(how, text) {
  const head = how === 'strict' ? /^commit [0-9a-f]+$/ : /^commit [0-9a-f]+/;
  const out = [];
  let want = false;
  for (const line of text.split('\n')) {
    if (head.test(line)) { out.push(line.split(/[ \t]+/)[1].slice(0, 7)); want = true; continue; }
    if (want && /^ {4}[^ ]/.test(line)) { out.push(line.slice(4)); want = false; }
  }
  return out;
}

/** The must-keep lines a row's keep steps select from an output, in order. */
export function mustKeep(output, steps, dialect = 'default') {
  const d = DIALECTS[dialect];
  if (!d) throw new Error(`unknown keep dialect ${dialect}`);
  const text = decode(output);
  const out = [];
  for (const step of steps ?? []) {
    if ('re' in step) out.push(...stepRe(step, text, d));
    else if ('lit' in step) out.push(...step.lit);
    else if ('gitLog' in step) out.push(...stepGitLog(step.gitLog, text));
  }
  return out;
}

/** must_keep.txt's bytes: one line each, newline-terminated. */
export const mustKeepFile = (lines) => lines.map((s) => `${s}\n`).join('');

/** The lines of a must-keep list that are not a byte substring of the output. */
export function notInOutput(output, lines) {
  return lines.filter((s) => s && !output.includes(Buffer.from(s, 'utf8')));
}

// ---------------------------------------------------------------- ids
/**
 * Case ids are a number and a name: `001-jest-pass`, `1004-rspec-doc-pass`. Ranges are named,
 * so a new family of cases takes the next free number of its range and never collides with
 * another script's. Below 1000 the ranges are the ones the seven old scripts owned (full).
 */
export const RANGES = {
  base: [1, 499], extra: [500, 699], extra2: [700, 799], fresh1: [800, 829], freshGit: [830, 849], fresh2: [850, 899],
  // the host-variant and new-ecosystem cases (issue: session savings)
  ecosystems: [1000, 1999],
  next: [2000, 9999],
};

export const idNumber = (id) => Number(/^(\d+)-/.exec(id)?.[1] ?? NaN);

/** The next free number of a named range, given the ids in use (rows and case folders). */
export function nextId(range, used) {
  const r = RANGES[range];
  if (!r) throw new Error(`unknown id range ${range}`);
  const taken = new Set([...used].map((x) => (typeof x === 'number' ? x : idNumber(x))));
  for (let n = r[0]; n <= r[1]; n++) if (!taken.has(n)) return n;
  throw new Error(`id range ${range} (${r[0]}-${r[1]}) is full`);
}

/** A case folder's name: the number zero-padded to three digits, then the name. */
export const caseId = (n, name) => `${String(n).padStart(3, '0')}-${name}`;
