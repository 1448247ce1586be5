import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import type { Repeats } from './hide.js';
import { plural, programOf, quoteOf, shareMatching, subcommand, textOf } from './shared.js';
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

/** Time zones a stamp may name after its time; a level word (`INFO`) is none of them. */
const ZONE = /UTC|GMT|CES?T|EES?T|WES?T|BST|IST|MSK|[ECMP][SD]T|AK[SD]T|HST|JST|KST|HKT|SGT|AES?[SD]T|AC[SD]T|AW[SD]T|NZ[SD]T/.source;

/**
 * The server timestamp forms (the match is what a marker's range quotes, so it is the stamp
 * and nothing after it).
 */
const TIMESTAMP = new RegExp([
  // ISO 8601 and its log variants: `2026-12-01 16:42:09,123`, `2026-12-01T16:42:09.123+00:00`
  // (journald's short-iso too), a zone name after it.
  `\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2}| (?:${ZONE})\\b)?`,
  // nginx's error log and Go's standard `log`: `2026/12/01 16:42:09`, with log.Lmicroseconds
  // `2026/12/01 16:42:09.123456`
  /\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?/.source,
  // common and combined access logs (nginx, Apache): `[01/Dec/2026:16:42:09 +0000]`
  /\[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\]/.source,
  // werkzeug's (Flask's dev server) access lines: `[30/Nov/2026 01:16:28]`
  /\[\d{2}\/[A-Z][a-z]{2}\/\d{4} \d{2}:\d{2}:\d{2}\]/.source,
  // Apache's error log: `[Tue Dec 01 16:42:09.123456 2026]`
  /\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}(?:\.\d+)? \d{4}\]/.source,
  // syslog and journald's short form: `Dec  1 16:42:09`, `Dec 01 16:42:09`
  /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}/.source,
  // redis: `24688:M 01 Dec 2026 16:42:20.521`
  /\b\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}(?:\.\d+)?/.source,
  // Java's java.util.logging and Tomcat: `01-Dec-2026 16:42:09.123`
  /\b\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}:\d{2}(?:[.,]\d+)?/.source,
  // a time of day opening the line (logback's and many Java loggers' default): `16:42:09.123 [main] INFO`
  /^\d{2}:\d{2}:\d{2}[.,]\d{3}\b/.source,
  // …or bracketed (pino-pretty's default): `[16:42:09.123] INFO (4242): …`
  /^\[\d{2}:\d{2}:\d{2}[.,]\d{3}\]/.source,
  // klog (Kubernetes and much of Go): `I1201 16:42:09.123456   4242 file.go:12] …`, the
  // severity letter before the month and day (the stamp quoted is the date and time)
  /(?<=^[IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d{6}(?= +\d+ \S+:\d+\] )/.source,
  // zerolog's console writer, its default stamp a kitchen clock: `4:42PM INF …`
  /^\d{1,2}:\d{2}[AP]M(?= (?:TRC|DBG|INF|WRN|ERR|FTL|PNC|\?\?\?) )/.source,
].join('|'));
/**
 * TIMESTAMP's answer, with the regex run only on a line that has a colon: every form above
 * has one (a clock's `16:42`), and a sniff of a run that is no log (a progress log, a build)
 * then never compiles the ~760-char pattern.
 */
const stamped = (t: string): boolean => t.includes(':') && TIMESTAMP.test(t);
const SEVERE = /\b(ERROR|FATAL|PANIC|WARN|WARNING|CRIT|CRITICAL|ALERT|EMERG|SEVERE)\b|\[(error|warn|crit|alert|emerg)\]|\b(error|warn|warning|fatal|panic)\b/i;
/**
 * Severities a record names in a letter or three rather than a word: klog's `W`/`E`/`F` before
 * its date, zerolog's `WRN`/`ERR`/`FTL`/`PNC` after its clock.
 */
const SEVERE_CODE = /^[WEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} |^\d{1,2}:\d{2}[AP]M (?:WRN|ERR|FTL|PNC) /;
const ACCESS_STATUS = /"[A-Z]+ \S+ HTTP\/[\d.]+" ([45]\d\d) /;
/** The same in a logfmt record (slog, logrus): `status=503` among `status=302`s is no repeat. */
const LOGFMT_STATUS = /(?:^|\s)(?:status|status_code|http_status)=([45]\d\d)(?=\s|$)/;
/** dpkg.log: what was installed, upgraded or removed, and each package's final state, is the answer; the other status lines fold. */
const DPKG_ACTION = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (install|upgrade|remove|purge|status installed|status not-installed) /;
const DIGITS = /\d+/g;
/** Python logging's default `%(levelname)s:%(name)s:` prefix. */
const LEVEL_LOGGER = /(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.\-]*:/y;
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
    // Python logging's `LEVEL:logger:` prefix is glued to the message's first word: that word
    // stays a word (`INFO:root:decoded` is not `INFO:root:wrote`).
    LEVEL_LOGGER.lastIndex = i;
    if (LEVEL_LOGGER.test(text)) {
      key += text.slice(i, LEVEL_LOGGER.lastIndex);
      i = LEVEL_LOGGER.lastIndex;
      if (i < n && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) continue;
      key += ' ';
      continue;
    }
    let j = i;
    while (j < n && text.charCodeAt(j) !== 32 && text.charCodeAt(j) !== 9) j++;
    key += tokenTemplate(text.slice(i, j)) + ' ';
    i = j;
  }
  return key;
}

/**
 * A source location (`main.go:42:`, Go's `log.Lshortfile`; slog's `source=/src/main.go:42`
 * after its key): the file is which code logged, a word; only the line number varies.
 */
const SOURCE_AT = /^((?:[\w.\-]*\/)*[\w\-]+\.(?:go|py|rb|js|mjs|cjs|ts|tsx|jsx|java|kt|scala|c|cc|cpp|cxx|h|hpp|rs|php|cs|ex|exs|swift|lua|pl)):\d+(?::\d+)?(:?)$/;
/**
 * A path segment of letters and digits with a digit in it (`/l/g8`, `/users/u123`, `/v2/`) is an
 * id as a whole: `/g8` and `/k2` are one shape, `/ga` and `/healthz` are words of their own.
 */
const ID_SEGMENT = /(?<=\/)[\w-]*\d[\w-]*(?=[/?#&;"]|$)/g;
/** `key=value` (logfmt: Go's log/slog TextHandler, logrus, zap's logfmt): the key is a word. */
const LOGFMT_KEY = /^[A-Za-z_][\w.\-]*=(?=.)/;

/**
 * One space-free token's part of a template: a digit, a `a:b` pair or an inner `/` make it `#`;
 * an absolute path keeps its shape with its ids and digits out; a source location keeps its file; a
 * logfmt pair keeps its key and templates its value (`path=/healthz` is not `path=/metrics`,
 * `id=41` is `id=42`).
 */
function tokenTemplate(tok: string): string {
  const src = SOURCE_AT.exec(tok);
  if (src) return `${src[1]}:#${src[2]}`;
  const kv = LOGFMT_KEY.exec(tok);
  if (kv) return kv[0] + tokenTemplate(tok.slice(kv[0].length));
  const n = tok.length;
  let variable = false;
  let digit = false;
  for (let j = 0; j < n; j++) {
    const c = tok.charCodeAt(j);
    if (c >= 48 && c <= 57) digit = true;
    else if (c === 58 && j > 0 && j + 1 < n && isWordCode(tok.charCodeAt(j - 1)) && (isWordCode(tok.charCodeAt(j + 1)) || tok.charCodeAt(j + 1) === 47)) variable = true;
    else if (c === 47 && j > 0 && tok.charCodeAt(0) !== 34) variable = true;
  }
  const first = tok.charCodeAt(0);
  const absolute = first === 47 || (first === 34 && tok.charCodeAt(1) === 47);
  if (absolute) return digit ? tok.replace(ID_SEGMENT, '#').replace(DIGITS, '#') : tok;
  return digit || variable ? '#' : tok;
}

/** postgres prints an error's context on lines of their own: they belong to the error. */
const PG_CONTEXT = /\] (DETAIL|HINT|STATEMENT|CONTEXT|QUERY|LOCATION):  /;

/**
 * apt's term.log opens and closes each apt run with these: a fold must not carry one run's
 * untimestamped lines into another's (its marker could not show a time range to tell).
 */
const SESSION_EDGE = /^Log (started|ended): \d{4}-\d{2}-\d{2} /;

/**
 * redis's log line: `pid:role DD Mon YYYY HH:MM:SS.mmm <level> message`, the level a symbol:
 * `.` debug, `-` verbose, `*` notice, `#` warning.
 */
const REDIS_LEVEL = /^\d+:[XCSM] \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}\.\d+ ([.\-*#]) /;
/** nginx's error log at level notice: start-up, signals, workers starting and exiting. */
const NGINX_NOTICE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \[notice\] /;

/** npm's debug log: `<seq> <level> …` lines carry no timestamp. */
const NPM_DEBUG = /^\d+ (silly|verbose|info|http|timing|notice|warn|error) /;
const DEPRECATED = /\bdeprecat/i;

/**
 * A line that stays verbatim and ends every fold: a severity word, a failure, an error's
 * context, a session edge, and a signal that is not a log record. A record (a timestamped or
 * npm debug line) at no severity that classify calls a signal only for a count in its message
 * (`parse X: 82 lines, 0 skipped`, `merged 3 files changed`) is a record like its neighbours:
 * it folds with the records of its own template, the first of them staying, and does not cut
 * a worker's cycle into runs too short to fold. A deprecation stays a barrier.
 */
function isBarrier(l: Line): boolean {
  const t = textOf(l);
  if (l.tier === 'failure' || SEVERE.test(t) || SEVERE_CODE.test(t) || PG_CONTEXT.test(t) || SESSION_EDGE.test(t) || REDIS_LEVEL.exec(t)?.[1] === '#') return true;
  return l.tier === 'signal' && (!(TIMESTAMP.test(t) || NPM_DEBUG.test(t)) || DEPRECATED.test(t));
}

/**
 * A line that stays verbatim where it is but lets folds run past it: 4xx/5xx access lines
 * (and logfmt records with a 4xx/5xx `status=`),
 * dpkg actions, a server's notices (redis's `*`, nginx's `[notice]`: it started, saved, was
 * signalled, stopped), and every line that is not a recognised log record (no timestamp, not
 * an npm debug line): only records fold.
 */
function isPinned(l: Line): boolean {
  const t = textOf(l);
  return ACCESS_STATUS.test(t) || LOGFMT_STATUS.test(t) || DPKG_ACTION.test(t) || NGINX_NOTICE.test(t) || REDIS_LEVEL.exec(t)?.[1] === '*' || !(TIMESTAMP.test(t) || NPM_DEBUG.test(t));
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
 * The notes of one hidden run, most telling first: how many records (and lines), one of them
 * quoted as it is, and the range of their timestamps; shorter forms after it, for a fold that
 * would not pay with the quote or the range. Where the line above the marker is a record of
 * the one template hidden, "like the one above" says it in fewer bytes, and truly; the quote is
 * for a run whose template's first record stands further up. `keyOf` names each line's template.
 */
function foldNote(hidden: Line[], keyOf: (l: Line) => string | undefined, above?: Line): string[] {
  let first: string | null = null;
  let last: string | null = null;
  const heads: Line[] = [];
  const templates = new Set<string>();
  for (const l of hidden) {
    if (isContinuation(l)) continue;
    heads.push(l);
    templates.add(keyOf(l) ?? '');
    const st = stampOf(l);
    if (st) { first ??= st; last = st; }
  }
  const records = heads.length;
  const range = first && last ? (first === last ? `, ${first}` : `, ${first} → ${last}`) : '';
  const q = quoteOf(heads);
  const kinds = templates.size;
  const count = records === hidden.length ? `${plural(records, 'more line')}` : `${plural(records, 'more record')} (${hidden.length} lines)`;
  const quoted = q === null ? null : `${count} like "${q}"`;
  const plain = `${count} like ${kinds === 1 ? 'the one above' : 'those above'}`;
  const notes: string[] = [];
  // Several kinds interleaved (dpkg's status steps, a worker's paired lines): each kind's first
  // record stays in this stretch above, so "like those above" is true at a third of the bytes.
  const plainIsTrue = kinds > 1 || (heads.length > 0 && above !== undefined && keyOf(above) === keyOf(heads[0]));
  if (plainIsTrue) {
    if (range) notes.push(`${plain}${range}`);
    notes.push(plain);
  } else if (quoted) {
    // "like the one above" would be false here (the line above is another template): a real
    // line quoted, or no note at all, so a run whose quote does not pay stays as it came.
    if (range) notes.push(`${quoted}${range}`);
    notes.push(quoted);
  }
  return notes;
}

/**
 * A record's template: its first line's, and each line that continues it (a record whose
 * traceback or detail lines differ from another's is not like it). Pinned lines: none.
 */
function recordKey(record: readonly Line[]): string | null {
  const t = textOf(record[0]);
  const dpkg = dpkgProgressKey(t);
  if (dpkg !== null) return dpkg;
  if (isPinned(record[0])) return null;
  let key = logTemplate(t);
  for (let i = 1; i < record.length; i++) key += '\n' + logTemplate(textOf(record[i]));
  return key;
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
  key: recordKey,
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
  sniff: (head) => head.length >= 5 && shareMatching(head, stamped) >= 0.6,
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
[omni: 7 more lines like those above, 29/Nov/2026:22:38:36 +0000 — omni retrieve <handle>]
127.0.0.1 - - [29/Nov/2026:22:38:36 +0000] "GET /api/health HTTP/1.1" 200 12 "-" "curl/7.88.1"
`,
    },
  ],
} satisfies DistillerSpec;
