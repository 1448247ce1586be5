import type { Item, Line } from '../pipeline/types.js';
import type { RunState } from '../pipeline/stage.js';

/** A fold must hide at least this many lines… */
export const FOLD_MIN_HIDDEN_LINES = 3;
/** …and this many bytes (a marker costs ~60–80), or the lines stay. */
export const FOLD_MIN_HIDDEN_BYTES = 160;
/** A run still growing past this is cut, so memory stays bounded on endless repeats. */
export const FOLD_MAX_HIDDEN_BYTES = 1 << 20;

/** Digits, hex ids and durations become placeholders: `Downloading a 10%` ~ `Downloading b 95%`. */
export function template(plain: string): string {
  return plain
    .replace(/\b[0-9a-f]{7,64}\b/gi, 'H')
    .replace(/\d+(\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Folds runs of positively recognised noise that share a template: the first and last
 * line of a run stay, the middle becomes one marker. Non-noise lines end a run and are
 * never hidden. The first line of a run goes out at once so a slow producer's lines are
 * not held back.
 */
export class RunFolder {
  private anchor: string | null = null; // template of the run's first line
  private hidden: Line[] = [];
  private hiddenBytes = 0;
  private lastBlank = false;

  constructor(
    private run: RunState,
    private readonly noun = 'similar lines',
    /** Extra noise test a family distiller adds (e.g. jest's passing-test lines). */
    private readonly isNoise: (l: Line) => boolean = (l) => l.tier === 'noise',
    /** How lines group into runs; default: template of the visible text. */
    private readonly keyOf: (l: Line) => string = (l) => template(l.plain ?? l.text),
  ) {}

  push(l: Line, out: Item[]): void {
    const plain = l.plain ?? l.text;
    // Squeeze blank lines: one survives a run of them.
    if (plain.trim() === '' && l.tier !== 'failure') {
      if (this.lastBlank) {
        this.run.droppedLines++;
        this.run.droppedBytes += Buffer.byteLength(l.raw ?? l.text) + l.eol.length;
        return;
      }
      this.close(out);
      this.lastBlank = true;
      this.anchor = null;
      out.push(l);
      return;
    }
    this.lastBlank = false;
    const noisy = l.tier !== 'failure' && l.tier !== 'signal' && this.isNoise(l);
    const key = noisy ? this.keyOf(l) : null;
    if (noisy && key === this.anchor) {
      this.hidden.push(l);
      this.hiddenBytes += plain.length + l.eol.length;
      if (this.hiddenBytes >= FOLD_MAX_HIDDEN_BYTES) this.close(out, true);
      return;
    }
    this.close(out);
    this.anchor = noisy ? key : null;
    out.push(l);
  }

  /** Ends the current run: its middle becomes a marker, its last line stays. */
  close(out: Item[], keepRunning = false): void {
    const h = this.hidden;
    if (h.length) {
      const last = keepRunning ? null : h.pop()!;
      const bytes = this.hiddenBytes - (last ? (last.plain ?? last.text).length + last.eol.length : 0);
      if (h.length >= FOLD_MIN_HIDDEN_LINES && bytes >= FOLD_MIN_HIDDEN_BYTES) {
        out.push({ kind: 'marker', note: `${h.length} ${this.noun} folded`, hidden: h });
      } else {
        for (const x of h) out.push(x);
      }
      if (last) out.push(last);
    }
    this.hidden = [];
    this.hiddenBytes = 0;
    if (!keepRunning) this.anchor = null;
  }
}
