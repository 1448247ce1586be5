import type { Item, Line } from '../kit/types.js';
import type { RunState } from '../kit/stage.js';
import { foldPays, lineByteLength } from '../kit/marker.js';

/** A run still growing past this is cut, so memory stays bounded on endless repeats. */
export const FOLD_MAX_HIDDEN_BYTES = 1 << 20;

const TEMPLATE_VARIABLE = /\d+/g;

/** Digits, hex ids and durations become placeholders: `Downloading a 10%` ~ `Downloading b 95%`. */
export function template(plain: string): string {
  return plain.replace(TEMPLATE_VARIABLE, '#');
}

/**
 * Folds runs of positively recognised noise that share a template: the first and last
 * line of a run stay, the middle becomes one marker. Non-noise lines end a run and are
 * never hidden. The first line of a run goes out at once so a slow producer's lines are
 * not held back.
 */
/**
 * Pure: do two lines differ only in their runs of digits? Same answer as comparing
 * `template()`s, without allocating two new strings per line.
 */
export function sameShape(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  const al = a.length;
  const bl = b.length;
  while (i < al && j < bl) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const da = ca >= 48 && ca <= 57;
    const db = cb >= 48 && cb <= 57;
    if (da && db) {
      while (i < al && a.charCodeAt(i) >= 48 && a.charCodeAt(i) <= 57) i++;
      while (j < bl && b.charCodeAt(j) >= 48 && b.charCodeAt(j) <= 57) j++;
      continue;
    }
    if (ca !== cb) return false;
    i++;
    j++;
  }
  return i === al && j === bl;
}

export class RunFolder {
  private anchor: string | null = null; // the run's first line (or its custom key)
  private hidden: Line[] = [];
  private hiddenBytes = 0;
  private lastBlank = false;

  constructor(
    private run: RunState,
    private readonly noun = 'similar lines',
    /** Extra noise test a family distiller adds (e.g. jest's passing-test lines). */
    private readonly isNoise: (l: Line) => boolean = (l) => l.tier === 'noise',
    /** How lines group into runs; default: same text up to runs of digits. */
    private readonly keyOf?: (l: Line) => string,
  ) {}

  push(l: Line, out: Item[]): void {
    const plain = l.plain ?? l.text;
    // Squeeze blank lines: one survives a run of them. Blank as typed, not blank once its
    // escape codes are gone: a reporter's erase-line sequences redraw the screen, and
    // dropping them would lose bytes no receipt stands for while streaming.
    if (l.text.trim() === '' && l.tier !== 'failure') {
      if (this.lastBlank) {
        this.run.droppedLines++;
        this.run.droppedBytes += lineByteLength(l);
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
    const key = noisy ? (this.keyOf ? this.keyOf(l) : plain) : null;
    const same = key !== null && this.anchor !== null && (this.keyOf ? key === this.anchor : sameShape(key, this.anchor));
    if (noisy && same) {
      this.hidden.push(l);
      this.hiddenBytes += lineByteLength(l);
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
      const bytes = this.hiddenBytes - (last ? lineByteLength(last) : 0);
      const note = `${h.length} ${this.noun} folded`;
      if (foldPays(h.length, bytes, note)) {
        out.push({ kind: 'marker', note, hidden: h });
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
