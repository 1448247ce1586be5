import stripAnsi from 'strip-ansi';
import type { Line, Tier } from './types.js';
import { batchStage, type RunState } from './stage.js';

/*
 * Tier patterns. Order matters: failure is checked first and nothing overrides it.
 * A count of zero ("0 failed", "0 errors", "failures: 0") is a verdict, not a failure.
 */
const ZERO_COUNT = /\b0 (failed|failures?|errors?|failing)\b|\b(failed|failures?|errors?)[:=]\s*0\b/i;
export const FAILURE: RegExp[] = [
  /\b[1-9]\d* (failed|failures?|errors?|failing|broken)\b/i,
  /(^|\s)(error|ERROR|Error|FATAL|fatal|PANIC|panic|Exception|Traceback|FAILED|FAIL|Failed|failed)(\[[A-Z0-9]+\])?(:|\s*$|\s+\S)/,
  /^\s*(not ok|✗|✕|×|✖|●)\s/,
  /^\s*[-\w./\\]+\.[A-Za-z]{1,5}[:(]\d+(:\d+|,\d+)?\)?:?\s*(error|fatal error|Error)\b/,
  /\b(AssertionError|TypeError|ReferenceError|SyntaxError|RangeError|ValueError|KeyError|IndexError|AttributeError|ImportError|ModuleNotFoundError|NullPointerException|Segmentation fault|core dumped|Abort(ed)? trap|undefined reference|cannot find|not found|No such file or directory|Permission denied|command not found)\b/,
  /^npm (ERR!|error)/,
  /\bexit(ed)? (with )?(code|status) [1-9]\d*/i,
  /\*\*\* \[.*\] Error \d+/,
  /^thread '.*' panicked at/,
  /^E\s{2,}\S/,
  /^\s*at .*\(.*:\d+:\d+\)\s*$/,
  // Test-runner counters: node --test `# fail 3` / `ℹ fail 3`, bun ` 2 fail`.
  /^\s*(#|ℹ)\s*fail [1-9]\d*\s*$/,
  /^\s*[1-9]\d* fail\s*$/,
];
export const SIGNAL: RegExp[] = [
  /\b(warn(ing)?|WARN(ING)?|deprecated|DEPRECATED)\b/,
  /\b\d+ (passed|passing|tests?|suites?|pending|skipped|todo|total|packages?|files? changed|insertions?|deletions?)\b/i,
  /\b(Tests?|Suites?|Test Suites|Snapshots|Time|Duration|Ran|Summary|Result|test result)\s*:/,
  /^\s*(ok|PASS|passed|SUCCESS|BUILD SUCCESSFUL|Done|Finished|Compiled|Built|added|removed|changed|updated|up to date)\b/i,
  /^\s*(modified|deleted|new file|renamed|both modified):/,
  // Test-runner counters: node --test `# pass 400` / `ℹ tests 400`, bun ` 500 pass`.
  /^\s*(#|ℹ)\s*(tests|suites|pass|fail|cancelled|skipped|todo) \d+\s*$/,
  /^\s*\d+ (pass|fail)\s*$/,
];
export const NOISE: RegExp[] = [
  // Progress bars, percentages, spinners.
  /^\s*[\[(|]?[#=>\-.\s█░▓▒■□▇▆▅▄▃▂▁⣿]{8,}[\])|]?\s*\d{1,3}(\.\d+)?\s?%/,
  /^\s*\d{1,3}(\.\d+)?\s?%\s*(\||$)/,
  /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⣾⣽⣻⢿⡿⣟⣯⣷]\s/,
  // Transfers and fetches.
  /^\s*(Downloading|Downloaded|Fetching|Fetched|Resolving|Receiving objects|Resolving deltas|Unpacking objects|Counting objects|Compressing objects|Enumerating objects|Writing objects|Get:\d+|Hit:\d+|Ign:\d+|Progress|Preparing to unpack|Selecting previously unselected|Reading database)\b/,
  /^remote: (Counting|Compressing|Enumerating|Total)\b/,
];

/*
 * Cheap gates in front of the pattern lists. On a typical log most lines contain none of
 * the words the lists need. The stems are written as a trie (one alternative per first
 * character), which V8 rejects at a position after one compare where a flat list of forty
 * alternatives tries each (measured on the mixed log's lines: ~170 ns a line against
 * ~300). mayMatter says what the flat regex it replaced said, no more (a line it lets
 * through may still match a SIGNAL word the lists know case-insensitively), and never stops
 * a failure; noiseCandidates never skips a NOISE pattern that matches.
 * test/pipeline/classify-gate.test.ts checks both on the corpus and on fuzzed lines.
 */

/**
 * Stems every FAILURE or SIGNAL pattern needs (`rr`, `ail`, `Trace`, `denied`, `3 passed`,
 * …), or one of their anchored words at the line's start.
 */
const MAY_MATTER = new RegExp([
  /r(?:r|esult)|R(?:R|an |esult)|a(?:il|tal|nic|rn)|A(?:IL|TAL|NIC|RN)|x(?:cept|it)|T(?:race|est|ime)/.source,
  /n(?:ot ok|defined ref|not find)|o(?: such file|t found)|bort|e(?:gment|precat)|EPRECAT|d(?:umped|enied)|\*\*\*/.source,
  /S(?:uite|napshots|ummary)|Duration|[✗✕×✖●]|\d (?:pass|fail|test|suite|pend|skip|todo|total|pack|file|inser|delet)/.source,
  /^\s*(?:(?:#|ℹ)\s*(?:tests|suites|pass|cancelled|skipped|todo) \d|at |E\s|ok|PASS|[Pp]assed|SUCCESS|BUILD|Done|Finished|Compiled|Built|added|removed|changed|updated|up to date|modified|deleted|new file|renamed|both modified)/.source,
].join('|'));

/** True when some FAILURE or SIGNAL pattern might match. A line with none skips both lists. */
export function mayMatter(s: string): boolean {
  return MAY_MATTER.test(s);
}

/*
 * The NOISE patterns are all anchored: which of them can match is decided by the line's
 * first non-space character. Returns the patterns to try, or null for none.
 */
const NOISE_BAR = [0]; // a bar run: [ ( | # = > - . ] ) or block glyphs; all spaces then digits
const NOISE_DIGIT = [0, 1];
const NOISE_SPINNER = [2];
const NOISE_WORD = [3];
const NOISE_REMOTE = [3, 4];
const NOISE_ALL = [0, 1, 2, 3, 4];
const BAR_GLYPHS = '[(|#=>-.])█░▓▒■□▇▆▅▄▃▂▁⣿';
const SPINNER_GLYPHS = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⣾⣽⣻⢿⡿⣟⣯⣷';
/** First letters of the transfer words (Downloading, Fetched, Get:, Resolving, …). */
const TRANSFER_FIRST = 'DFRUCEWGHIPS';

export function noiseCandidates(s: string): number[] | null {
  let i = 0;
  let c = s.charCodeAt(0);
  while (c === 32 || c === 9 || c === 10 || c === 11 || c === 12 || c === 13) c = s.charCodeAt(++i);
  if (i === s.length) return null;
  if (c >= 48 && c <= 57) return NOISE_DIGIT;
  if (c === 114 /* r */) return i === 0 ? NOISE_REMOTE : null;
  if (c < 128) {
    if (TRANSFER_FIRST.indexOf(s[i]) >= 0) return NOISE_WORD;
    return BAR_GLYPHS.indexOf(s[i]) >= 0 ? NOISE_BAR : null;
  }
  if (BAR_GLYPHS.indexOf(s[i]) >= 0) return NOISE_BAR;
  if (SPINNER_GLYPHS.indexOf(s[i]) >= 0) return NOISE_SPINNER;
  // A space \s knows beyond ASCII (U+00A0, U+3000, …): let every pattern judge.
  return /\s/.test(s[i]) ? NOISE_ALL : null;
}

/**
 * pip's `WARNING: Retrying (Retry(total=N, …)) after connection broken by '…Failed to
 * establish a new connection…'` is a warning that it will try again, not a failure: the
 * failure, if it comes, is pip's own `ERROR:` line.
 */
const PIP_RETRY_WARNING = 'WARNING: Retrying (Retry(total=';
/** apt-get update's closing summary (`Fetched 9422 kB in 2s (5404 kB/s)`): a verdict, not a transfer line. */
const APT_FETCHED_SUMMARY = /^Fetched [\d.,]+ [kMG]?B in [\dhms ]+ \([\d.,]+ [kMG]?B\/s\)\s*$/;

/** Pure: the tier of one line given its visible text and the previous line's. */
export function classifyLine(plain: string, prevPlain: string | null): Tier {
  if (plain.charCodeAt(0) === 87 /* W */ && plain.startsWith(PIP_RETRY_WARNING)) return 'signal';
  if (plain.charCodeAt(0) === 70 /* F */ && APT_FETCHED_SUMMARY.test(plain)) return 'signal';
  const matters = mayMatter(plain);
  if (!matters) {
    // no failure or signal pattern can match
  } else if (!ZERO_COUNT.test(plain)) {
    for (const re of FAILURE) if (re.test(plain)) return 'failure';
  } else {
    // "Tests: 1 failed, 0 errors" still states a failure.
    if (/\b[1-9]\d* (failed|failures?|errors?|failing)\b/i.test(plain)) return 'failure';
  }
  if (matters) for (const re of SIGNAL) if (re.test(plain)) return 'signal';
  if (plain.trim() === '') return 'noise';
  const tries = noiseCandidates(plain);
  if (tries !== null) for (const k of tries) if (NOISE[k].test(plain)) return 'noise';
  if (prevPlain !== null && plain === prevPlain) return 'noise';
  return 'text';
}

/** SGR colour sequences, the ANSI a log is full of: strip-ansi's CSI match at an ESC `[`. */
const SGR = /\x1b\[[0-9;]*m/g;
/** Bytes that may start one of strip-ansi's other sequences (ESC, and the C1 introducers). */
const OTHER_ANSI = /[\x1b\x90\x98\x9b\x9d\x9e\x9f]/;

/**
 * A line's text without ANSI codes: what strip-ansi gives. Colour is the common case and
 * a one-literal regex removes it; only when something else is left does strip-ansi's
 * long pattern run, on the original text. (Its matches never span an ESC, so the SGR
 * runs removed first are exactly the ones it would remove.)
 */
export function stripColour(t: string): string {
  const s = t.replace(SGR, '');
  return OTHER_ANSI.test(s) ? stripAnsi(t) : s;
}

/** Fast pre-check: most lines contain none of the characters our patterns need. */
export function plainOf(line: Line): string {
  if (line.plain !== undefined) return line.plain;
  const t = line.text;
  line.plain = t.indexOf('\x1b') >= 0 ? stripColour(t) : t.indexOf('\x9b') >= 0 ? stripAnsi(t) : t;
  return line.plain;
}

/**
 * classify: gives every line its tier and its ANSI-free text. A pure function of the
 * line and its predecessor (repeats are noise), applied batch by batch.
 */
export function classify(run: RunState) {
  let prev: string | null = null;
  return batchStage(run, (batch, push) => {
    for (const it of batch.items) {
      if (it.kind !== 'line') continue;
      const p = plainOf(it);
      it.tier = classifyLine(p, prev);
      if (it.tier === 'failure') run.failureLines++;
      prev = p;
    }
    push(batch);
  });
}
