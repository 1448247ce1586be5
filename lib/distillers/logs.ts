import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import type { Repeats } from './hide.js';
import { programOf, shareMatching, subcommand, textOf } from './shared.js';
import { DPKG_PROGRESS } from './install.js';

/*
 * Server and system logs (nginx, postgres, dpkg, syslog, npm debug logs, `journalctl`,
 * `docker logs`, `kubectl logs`). Lines that share a template (timestamp out, every token
 * with a digit, a `a:b` pair or a URL one placeholder) fold into their first occurrence plus one
 * marker with the count and the range of timestamps. Every ERROR / FATAL / PANIC / WARN /
 * CRIT line and every failure line stays verbatim where it was, and folds never reach
 * across it. Access-log lines with a 4xx/5xx status and dpkg action and final-state lines
 * stay verbatim where they were too (folds of other lines may run past them).
 */

const TIMESTAMP = new RegExp([
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2}| [A-Z]{3,4}\b)?/.source,
  /\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/.source,
  /\[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\]/.source,
  // werkzeug's (Flask's dev server) access lines: `[30/Nov/2026 01:16:28]`
  /\[\d{2}\/[A-Z][a-z]{2}\/\d{4} \d{2}:\d{2}:\d{2}\]/.source,
  /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}/.source,
].join('|'));
const SEVERE = /\b(ERROR|FATAL|PANIC|WARN|WARNING|CRIT|CRITICAL|ALERT|EMERG|SEVERE)\b|\[(error|warn|crit|alert|emerg)\]|\b(error|warn|warning|fatal|panic)\b/i;
const ACCESS_STATUS = /"[A-Z]+ \S+ HTTP\/[\d.]+" ([45]\d\d) /;
/** dpkg.log: what was installed, upgraded or removed, and each package's final state, is the answer; the other status lines fold. */
const DPKG_ACTION = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (install|upgrade|remove|purge|status installed|status not-installed) /;
const DIGITS = /\d+/g;
const isWordCode = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * Pure: the template two log lines share when they say the same thing. Tokens that vary
 * between such lines become `#`: any token with a digit (timestamps, ids, versions,
 * durations), a `a:b` pair (`pkg:arch`, `load:file:…`, URLs) or an inner `/` (relative
 * paths like `node_modules/x`). Absolute request paths keep their shape with digits out
 * (`/api/orders?page=#` is not `/index.html?page=#`). One pass over the characters.
 */
export function logTemplate(text: string): string {
  let key = '';
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c === 32 || c === 9) { i++; continue; }
    let j = i;
    let variable = false;
    let digit = false;
    for (; j < n; j++) {
      c = text.charCodeAt(j);
      if (c === 32 || c === 9) break;
      if (c >= 48 && c <= 57) digit = true;
      else if (c === 58 && j > i && j + 1 < n && isWordCode(text.charCodeAt(j - 1)) && (isWordCode(text.charCodeAt(j + 1)) || text.charCodeAt(j + 1) === 47)) variable = true;
      else if (c === 47 && j > i && text.charCodeAt(i) !== 34) variable = true;
    }
    const first = text.charCodeAt(i);
    const absolute = first === 47 || (first === 34 && text.charCodeAt(i + 1) === 47);
    if (absolute) key += digit ? text.slice(i, j).replace(DIGITS, '#') : text.slice(i, j);
    else key += digit || variable ? '#' : text.slice(i, j);
    key += ' ';
    i = j;
  }
  return key;
}

/** postgres prints an error's context on lines of their own: they belong to the error. */
const PG_CONTEXT = /\] (DETAIL|HINT|STATEMENT|CONTEXT|QUERY|LOCATION):  /;

/**
 * apt's term.log opens and closes each apt run with these: a fold must not carry one run's
 * untimestamped lines into another's (its marker could not show a time range to tell).
 */
const SESSION_EDGE = /^Log (started|ended): \d{4}-\d{2}-\d{2} /;

/** A line that stays verbatim and ends every fold: a severity word, a failure, a signal, an error's context, a session edge. */
function isBarrier(l: Line): boolean {
  const t = textOf(l);
  return l.tier === 'failure' || l.tier === 'signal' || SEVERE.test(t) || PG_CONTEXT.test(t) || SESSION_EDGE.test(t);
}

/** npm's debug log: `<seq> <level> …` lines carry no timestamp. */
const NPM_DEBUG = /^\d+ (silly|verbose|info|http|timing|notice|warn|error) /;

/**
 * A line that stays verbatim where it is but lets folds run past it: 4xx/5xx access
 * lines, dpkg actions, and every line that is not a recognised log record (no timestamp,
 * not an npm debug line): only records fold.
 */
function isPinned(l: Line): boolean {
  const t = textOf(l);
  return ACCESS_STATUS.test(t) || DPKG_ACTION.test(t) || !(TIMESTAMP.test(t) || NPM_DEBUG.test(t));
}

/**
 * apt's term.log records what dpkg printed, without timestamps: its unpack and trigger
 * progress lines (`Unpacking x (1.2) ...`) fold by kind, one kind per dpkg pattern, while
 * `Setting up x`, `Removing x` and the `Log started/ended` lines stay where they were.
 */
function dpkgProgressKey(t: string): string | null {
  for (let i = 0; i < DPKG_PROGRESS.length; i++) if (DPKG_PROGRESS[i].test(t)) return `\0dpkg${i}`;
  return null;
}

const stampOf = (l: Line): string | null => {
  const m = TIMESTAMP.exec(textOf(l));
  return m ? m[0].replace(/^\[|\]$/g, '') : null;
};

/** `\tbuffer usage: …` under a postgres record, `\tat x.y(…)` under a Java one: part of the record above. */
const INDENTED = /^[\t ]+\S/;
const isContinuation = (l: Line): boolean => {
  const t = textOf(l);
  return INDENTED.test(t) && !TIMESTAMP.test(t) && !NPM_DEBUG.test(t);
};

/**
 * The notes of one hidden run, most telling first: how many records, their lines, and the
 * range of their timestamps (left out where the fold would not pay with it). `keyOf` names each hidden line's template (continuation lines included).
 */
function foldNote(hidden: Line[], keyOf: (l: Line) => string | undefined): string[] {
  let first: string | null = null;
  let last: string | null = null;
  let records = 0;
  const templates = new Set<string>();
  for (const l of hidden) {
    if (isContinuation(l)) continue;
    records++;
    templates.add(keyOf(l) ?? '');
    const st = stampOf(l);
    if (st) { first ??= st; last = st; }
  }
  const range = first && last ? (first === last ? `, ${first}` : `, ${first} → ${last}`) : '';
  const like = templates.size === 1 ? 'the one above' : 'those above';
  const what = records === hidden.length ? `${records} more lines like ${like}` : `${records} more records like ${like} (${hidden.length} lines)`;
  // The range is worth its bytes only where the fold still pays with it.
  return range ? [`${what}${range}`, what] : [what];
}

/**
 * A log, declared: records (a timestamped line and the indented lines that continue it) that
 * share a template fold between barriers, the first of each template staying where it was
 * and each contiguous run of later ones behind one marker in its place (the 'repeat' unit).
 * Pinned lines stay and end a run; apt's dpkg progress lines fold by kind.
 */
const LOG_RECORDS: Repeats = {
  unit: 'repeat',
  barrier: isBarrier,
  continues: isContinuation,
  key: (l) => { const t = textOf(l); return dpkgProgressKey(t) ?? (isPinned(l) ? null : logTemplate(t)); },
  note: foldNote,
};

const LOG_FILE = /\.log(\.\d+)?$|^\/var\/log\/|(^|\/)(syslog|messages|kern\.log|auth\.log)$/;
const READERS = new Set(['cat', 'tail', 'head', 'less', 'zcat', 'more']);

function matches(argv: string[]): boolean {
  const p = programOf(argv);
  if (p === 'journalctl') return true;
  if ((p === 'docker' || p === 'kubectl' || p === 'podman') && subcommand(argv) === 'logs') return true;
  if (READERS.has(p)) return argv.slice(1).some((a) => !a.startsWith('-') && LOG_FILE.test(a));
  return false;
}

export default {
  name: 'logs',
  family: 'log',
  matches,
  sniff: (head) => head.length >= 5 && shareMatching(head, TIMESTAMP) >= 0.6,
  lines: () => LOG_RECORDS,
  examples: [
    // corpus/cases/741-nginx-access-log, lines 1-10
    {
      command: 'cat access.log',
      input: `127.0.0.1 - - [29/Nov/2026:22:38:35 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
`,
      output: `127.0.0.1 - - [29/Nov/2026:22:38:35 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.88.1"
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
[omni: 8 more lines like those above, 29/Nov/2026:22:38:36 +0000 — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
