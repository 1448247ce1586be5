import stripAnsi from 'strip-ansi';
import type { Line, Tier } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';
import { derivePrefilter, Prefilter, type PrefilterTables } from './prefilter.js';
import type { DistillerSpec } from '../kit/spec.js';
import { DISTILLERS } from '../distillers/registry.js';
import { bodyOf, Prefixes } from '../kit/prefix.js';
import { isBlank } from '../base/blank.js';

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
  // A process that died or ran out of something, said without the word error: the shell's
  // `Killed`, the kernel's `Out of memory: Killed process`, `OOMKilled`, a runtime's abort,
  // an unhandled rejection, a child killed by a signal.
  /(^|:\s*|\s)Killed(\s|$)|\b(killed|terminated) by signal\b|\bOOM(Killed)?\b|\b[Oo]ut of memory\b|^\s*Aborted\b|\bBus error\b|\bIllegal instruction\b|\b[Uu]nhandled ?[Pp]romise ?[Rr]ejection|\bunhandledRejection\b|\bhas overflowed its stack\b/,
  // Git refusing: a merge conflict, a push the remote rejected. The network refusing or timing
  // out: errno names (`connect ECONNREFUSED 127.0.0.1:5432`), `Connection refused`, `Timed out`,
  // a deadline exceeded, ctest's `***Timeout`.
  /^CONFLICT \(|^\s*! \[(remote )?rejected\]|\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EADDRINUSE|ENOTFOUND|EAI_AGAIN|ENOSPC|EACCES|EPERM|EMFILE)\b|\b[Cc]onnection (refused|reset|timed out)\b|\b[Tt]imed out\b|\bdeadline exceeded\b|\*\*\*Timeout\b/,
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
  // wget's dot progress: `  4950K .......... .......... .......... 62% 123M 0s`.
  /^\s*\d+[KMG] (\.{1,10} ?){1,8}\s+\d{1,3}%/,
  // Transfers and fetches.
  /^\s*(Downloading|Downloaded|Fetching|Fetched|Resolving|Receiving objects|Resolving deltas|Unpacking objects|Counting objects|Compressing objects|Enumerating objects|Writing objects|Get:\d+|Hit:\d+|Ign:\d+|Progress|Preparing to unpack|Selecting previously unselected|Reading database)\b/,
  /^remote: (Counting|Compressing|Enumerating|Total)\b/,
];

/**
 * Verdicts that read like something else, whoever owns the run: signals before any list is
 * asked. apt-get's closing `Fetched 9422 kB in 2s (5404 kB/s)` is a summary, not a transfer
 * line (NOISE's `Fetched`); it is here, not among install's own lines, because apt's output
 * reaches runs install does not own: `sudo apt-get …`, a script or a Makefile that runs apt.
 */
export const VERDICTS: RegExp[] = [
  /^Fetched [\d.,]+ [kMG]?B in [\dhms ]+ \([\d.,]+ [kMG]?B\/s\)\s*$/,
];

/** "Tests: 1 failed, 0 errors" still states a failure: tried when ZERO_COUNT matched. */
const COUNTED_FAILURE = /\b[1-9]\d* (failed|failures?|errors?|failing)\b/i;

/*
 * The gate in front of the pattern lists, derived from them (./prefilter.ts): it says which
 * patterns may match a line, from the literals each pattern's own source requires (a
 * first-char table for the anchored ones, one trie regex per list for the rest). On a typical
 * log most lines need no pattern at all. Nothing here is kept in step
 * by hand: a pattern added to a list is in the gate the next time the module loads.
 * test/pipeline/classify-gate.test.ts checks that no line a pattern matches is ever stopped.
 */

/** One bit per pattern; past 30 patterns the rest share the last bit (still sound, only slower). */
const bit = (k: number) => (k < 30 ? 1 << k : 1 << 30);
const lists: Array<[RegExp[], number, string]> = [];
let nextBit = 0;
/** `group`: the lists whose unanchored atoms one regex looks for (failure and signal, as one). */
const bitsOf = (list: RegExp[], group: string) => { const first = nextBit; nextBit += list.length; lists.push([list, first, group]); return list.map((_, k) => bit(first + k)); };
const VERDICT_BITS = bitsOf(VERDICTS, 'matters');
const FAILURE_BITS = bitsOf(FAILURE, 'matters');
const COUNTED_BIT = bitsOf([COUNTED_FAILURE], 'matters')[0];
const SIGNAL_BITS = bitsOf(SIGNAL, 'matters');
const NOISE_BITS = bitsOf(NOISE, 'noise');
const or = (xs: number[]) => xs.reduce((a, b) => a | b, 0);
const ANY_VERDICT = or(VERDICT_BITS);
const ANY_FAILURE = or(FAILURE_BITS) | COUNTED_BIT;
const ANY_SIGNAL = or(SIGNAL_BITS);
const ANY_NOISE = or(NOISE_BITS);
let gate: Prefilter | null = null;

/** Every pattern the gate covers, with its bit and group: the lists as they are now. */
export function gatedPatterns(): Array<{ re: RegExp; bit: number; group?: string }> {
  const patterns: Array<{ re: RegExp; bit: number; group?: string }> = [];
  for (const [list, first, group] of lists) list.forEach((re, k) => patterns.push({ re, bit: bit(first + k), group }));
  return patterns;
}

/**
 * A spec's own lines (DistillerSpec `failures`, then `signals`), each with its bit in the
 * spec's own gate: they apply only to a run the spec owns, so each spec's gate is its own.
 */
export function ownPatterns(spec: Pick<DistillerSpec, 'failures' | 'signals'>): Array<{ re: RegExp; bit: number; group?: string }> {
  return [...(spec.failures ?? []), ...(spec.signals ?? [])].map((re, k) => ({ re, bit: bit(k), group: 'own' }));
}

/** The gate tables: the lists', and each registered spec's own (by name) for the specs that declare lines. */
export interface GateTables {
  lists: PrefilterTables;
  own: Record<string, PrefilterTables>;
}

/** The tables the build derived from these same lists and specs (scripts/build.mjs); absent unbundled. */
declare const __OMNI_GATE_TABLES__: GateTables | undefined;

/** Derives every table from the patterns themselves. */
function deriveTables(): GateTables {
  const own: Record<string, PrefilterTables> = {};
  for (const spec of DISTILLERS) if (spec.failures?.length || spec.signals?.length) own[spec.name] = derivePrefilter(ownPatterns(spec));
  return { lists: derivePrefilter(gatedPatterns()), own };
}

let tables: GateTables | null = null;

/** What the build derived from the lists and the specs, else derived here on first use. */
export function gateTables(): GateTables {
  return typeof __OMNI_GATE_TABLES__ === 'object' ? __OMNI_GATE_TABLES__ : (tables ??= deriveTables());
}

/** The gate, built on first use. */
function prefilter(): Prefilter {
  return (gate ??= new Prefilter(gateTables().lists));
}

/** Which patterns may match `s` (the bits above); a clear bit proves its pattern cannot. */
export function gateBits(s: string): number {
  return (gate ?? prefilter()).bitsOf(s);
}

/** True when some VERDICTS, FAILURE or SIGNAL pattern may match. A line with none skips those lists. */
export function mayMatter(s: string): boolean {
  return (gateBits(s) & (ANY_VERDICT | ANY_FAILURE | ANY_SIGNAL)) !== 0;
}

/** The NOISE patterns that may match, by index, or null for none. */
export function noiseCandidates(s: string): number[] | null {
  const b = gateBits(s) & ANY_NOISE;
  if (!b) return null;
  const out: number[] = [];
  NOISE_BITS.forEach((x, k) => { if (b & x) out.push(k); });
  return out;
}

/**
 * The lines of the spec that owns a run (its `failures` and `signals`) behind their own
 * gate: asked before classify's lists, for that run only.
 */
export class OwnLines {
  private readonly gate: Prefilter;
  private readonly failures: readonly RegExp[];
  private readonly signals: readonly RegExp[];

  constructor(spec: DistillerSpec) {
    this.failures = spec.failures ?? [];
    this.signals = spec.signals ?? [];
    this.gate = new Prefilter(gateTables().own[spec.name] ?? derivePrefilter(ownPatterns(spec)));
  }

  /** 'failure' or 'signal' when one of the spec's own lines is this one, else null. */
  tierOf(plain: string): Tier | null {
    const bits = this.gate.bitsOf(plain);
    if (!bits) return null;
    const f = this.failures.length;
    for (let k = 0; k < f; k++) if (bits & bit(k) && this.failures[k].test(plain)) return 'failure';
    for (let k = 0; k < this.signals.length; k++) if (bits & bit(f + k) && this.signals[k].test(plain)) return 'signal';
    return null;
  }
}

/** What classify asks of a run's own lines: one spec's, or several specs' together. */
export interface OwnTier {
  tierOf(plain: string): Tier | null;
}

const ownLinesOf = new WeakMap<DistillerSpec, OwnLines | null>();

/**
 * The own lines of several specs that may each have printed a line (a chain's producers): a
 * line one of them calls a failure is a failure, else one any calls a signal is a signal, but
 * only where the shared lists do not call it a failure or every spec calls it a signal. A
 * line another producer may have printed is read by that producer's lines too: pip's own
 * reading of its retry warning (`… Failed to establish a new connection …`, a signal that
 * folds) does not make it less than a failure in `pip install x && npx jest`, where jest's
 * reading, the shared lists', says failure.
 */
export function ownLinesOfAll(specs: readonly DistillerSpec[]): OwnTier | null {
  const all = specs.map(ownLines).filter((o): o is OwnLines => o !== null);
  if (specs.length <= 1 || !all.length) return all[0] ?? null;
  return {
    tierOf(plain) {
      let signals = 0;
      for (const o of all) {
        const x = o.tierOf(plain);
        if (x === 'failure') return x;
        if (x === 'signal') signals++;
      }
      if (!signals) return null;
      return signals < specs.length && classifyLine(plain, null) === 'failure' ? 'failure' : 'signal';
    },
  };
}

/** The own lines of the spec that owns a run, or null when it declares none. Built once per spec. */
export function ownLines(spec: DistillerSpec | null | undefined): OwnLines | null {
  if (!spec) return null;
  let o = ownLinesOf.get(spec);
  if (o === undefined) ownLinesOf.set(spec, (o = spec.failures?.length || spec.signals?.length ? new OwnLines(spec) : null));
  return o;
}

/**
 * Pure: the tier of one line given its visible text, the previous line's and the lines of the
 * spec that owns the run (`own`: its failures and signals come first).
 */
export function classifyLine(plain: string, prevPlain: string | null, own: OwnTier | null = null): Tier {
  if (own) {
    const t = own.tierOf(plain);
    if (t) return t;
  }
  const bits = gateBits(plain);
  if (bits & ANY_VERDICT) for (let k = 0; k < VERDICTS.length; k++) if (bits & VERDICT_BITS[k] && VERDICTS[k].test(plain)) return 'signal';
  if (bits & ANY_FAILURE) {
    if (!ZERO_COUNT.test(plain)) {
      for (let k = 0; k < FAILURE.length; k++) if (bits & FAILURE_BITS[k] && FAILURE[k].test(plain)) return 'failure';
    } else if (bits & COUNTED_BIT && COUNTED_FAILURE.test(plain)) return 'failure';
  }
  if (bits & ANY_SIGNAL) for (let k = 0; k < SIGNAL.length; k++) if (bits & SIGNAL_BITS[k] && SIGNAL[k].test(plain)) return 'signal';
  if (isBlank(plain)) return 'noise';
  if (bits & ANY_NOISE) for (let k = 0; k < NOISE.length; k++) if (bits & NOISE_BITS[k] && NOISE[k].test(plain)) return 'noise';
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

/** Who owns the run, as classify asks it (lib/pipeline/distill.ts Owner). */
export interface RunOwner {
  /** The spec that owns the run, or null while no command chose one and no line was seen. */
  readonly spec: DistillerSpec | null;
  /** The built-in spec of the tool that printed the output: its own lines are taken in. */
  readonly tool: DistillerSpec | null;
  /** Chooses by these first lines when no command did (their plain text is set). */
  choose(head: readonly Line[]): void;
  /** Each batch before it is classified: a mixed run's tools may join (lib/distillers/mix.ts). */
  observe?(lines: readonly Line[]): void;
  /** A mixed run's own lines at line `index` (every tool's that may have printed it), or null. */
  ownAt?(index: number): OwnTier | null;
  /** Several tools may have printed the run: `ownAt` says whose lines apply. */
  readonly mix?: unknown;
}

/**
 * classify: gives every line its tier and its ANSI-free text. A pure function of the
 * line, its predecessor (repeats are noise) and the lines of the spec that owns the run,
 * applied batch by batch. Without a command the owner is chosen by the first batch's lines.
 */
export function classify(run: RunState, owner?: RunOwner) {
  let prev: string | null = null;
  let own: OwnTier | null | undefined = owner ? undefined : null;
  const mixed = !!owner?.mix;
  const prefixes = new Prefixes();
  return batchStage(run, (batch, push) => {
    // Plain text and stream prefix first: choosing the owner and its tools read what follows a prefix.
    for (const it of batch.items) if (it.kind === 'line') prefixes.mark(it, plainOf(it));
    if (own === undefined) {
      if (!owner!.spec) owner!.choose(batch.items.filter((i): i is Line => i.kind === 'line'));
      own = mixed ? null : ownLines(owner!.tool);
    }
    if (mixed) owner!.observe!(batch.items.filter((i): i is Line => i.kind === 'line'));
    for (const it of batch.items) {
      if (it.kind !== 'line') continue;
      const p = plainOf(it);
      // A prefixed line is judged by what its producer printed; a repeat is the whole line again.
      const body = it.prefix ? bodyOf(it) : p;
      it.tier = classifyLine(body, p === prev ? body : null, mixed ? owner!.ownAt!(it.index) : own);
      if (it.tier === 'failure') run.failureLines++;
      prev = p;
    }
    push(batch);
  });
}
