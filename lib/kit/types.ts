/**
 * The shapes that flow between pipeline stages.
 *
 * Stages exchange *batches*: every chunk on an object-mode stream is an `Item[]`.
 * One stream object per line costs ~100x `cat` (measured by bench/throughput.mjs); one array
 * per chunk costs ~20x.
 */

/**
 * `failure`: states a failure (error, failed test, panic, traceback, error location,
 *            non-zero verdict). Never dropped, never folded.
 * `signal`:  verdicts, summaries, warnings, changed state. Kept.
 * `noise`:   positively recognised as noise by a pattern. The only tier a stage may drop.
 * `text`:    recognised as nothing in particular. Kept.
 */
export type Tier = 'failure' | 'signal' | 'noise' | 'text';

/** One input line. `text` is decoded UTF-8 with its terminator removed. */
export interface Line {
  kind: 'line';
  /** Visible text: after a carriage-return redraw fold, before any ANSI stripping. */
  text: string;
  /** The exact original bytes of this line's terminator: '\n', '\r\n' or '' (last line). */
  eol: string;
  /** The exact original text when a redraw fold changed `text` (so archives stay exact). */
  raw?: string;
  /**
   * The exact bytes of a line that is not valid UTF-8 (its terminator excluded): `text` is then
   * a lossy decoding, read for its shape only. Such a line is never hidden or changed: render
   * sends these bytes (lib/kit/marker.ts `mustStay`).
   */
  bytes?: Buffer;
  /** `text` without ANSI colour; set by classify, what render prints by default. */
  plain?: string;
  /**
   * Set by classify: the length of the stream prefix `plain` starts with (turbo's `@web:test: `,
   * `pnpm -r`'s `packages/web test: `, valgrind's `==123== `, lib/kit/prefix.ts), absent for
   * none. The line is judged by what follows it; it goes out whole.
   */
  prefix?: number;
  /** Set by the classify stage. */
  tier: Tier;
  /** What render prints instead of `text` (e.g. ANSI stripped). Undefined = `text`. */
  out?: string;
  /** Set by the redact stage when `out` hides a secret value. */
  redacted?: boolean;
  /**
   * Set by the redact stage on a line (shown or hidden in a marker) that carried a secret: its
   * exact text (`raw ?? text`) with the secret values masked. Render sends it wherever it would
   * send the line as it came; the archive keeps the exact bytes.
   */
  masked?: string;
  /** 0-based index of the line in the whole input. */
  index: number;
  /** Byte offset just past this line (terminator included) in the raw input. */
  end: number;
  /**
   * The line's bytes as it came, terminator included (`lineByteLength`), when frame cut it
   * from the input: asked by every stage that counts bytes, so it is not re-encoded each time.
   */
  size?: number;
}

/**
 * A synthetic line standing for `hidden` input lines. Render archives the hidden lines'
 * exact bytes first and only then prints the marker with the handle; if the archive
 * write fails, render prints the hidden lines verbatim instead: nothing hidden without its bytes kept.
 */
export interface Marker {
  kind: 'marker';
  /** What happened, e.g. "478 similar lines folded". The handle is appended by render. */
  note: string;
  /** The input lines this marker replaces, in order. */
  hidden: Line[];
}

export type Item = Line | Marker;

/**
 * One chunk on every object-mode stream between stages.
 * `end` is the raw byte offset the batch accounts for: render uses it to copy exact
 * bytes from the spool when the run is passed through.
 */
export interface Batch {
  items: Item[];
  end: number;
}

/** Where removed bytes go before a marker may name them. */
export interface Archive {
  /** Stores the exact bytes; returns the handle, or null when the write failed. */
  put(data: Buffer): string | null;
  /** The same for several blocks in one write (one SQLite transaction). */
  putMany?(data: Buffer[]): Array<string | null>;
}

/** Why a run is passed through byte for byte. */
export type PassReason = 'json' | 'ndjson' | 'yaml' | 'csv' | 'tsv' | 'binary' | 'invalid-utf8' | 'passthrough' | 'error';

export type Door = 'exec' | 'pipe' | 'hook';

/**
 * What a stage may know about the run: the door's description of it, fixed before the pipeline
 * is built and never written after (lib/pipeline/describe.ts adds what the door resolved: the
 * route and the hold window). What the run writes to (the archive, the ledger) and how it ended
 * (the exit code) are not part of it: createPipeline takes them apart.
 */
export interface PipelineContext {
  readonly door: Door;
  /** The command line as the user typed it, if known. */
  readonly command?: string;
  /** 'claude', 'codex', … when called from a host hook. */
  readonly host?: string;
  /** Reader scope for the ledger: session_id/agent_id. */
  readonly sessionId?: string;
  readonly agentId?: string;
  /** Working directory (project scope for the ledger and the project's rules). */
  readonly cwd?: string;
  /** The tool that produced the payload in the hook door ('Bash', 'Read'). */
  readonly tool?: string;
  /**
   * OMNI_MASK=all: secrets are masked in reads, failing exits and passthrough text too (by
   * default only output omni distils is masked; those pass byte for byte).
   */
  readonly maskAll?: boolean;
}
