import { openStore, getBlob } from '../../lib/store/index.js';
import { formatMarker, HANDLE_PLACEHOLDER, MARKER_RE } from '../../lib/kit/marker.js';

export interface Expanded {
  /** The output with every fold marker replaced by the bytes its handle retrieves. */
  bytes: Buffer;
  /** Fold markers expanded (the whole-output receipt at the end is not one). */
  folds: number;
  /** Folds whose marker line is not smaller than the bytes it stands for. */
  unpaid: string[];
  /** Handles the store did not know. */
  unknown: string[];
}

/**
 * Expands each marker in place with the exact bytes its handle names in the real store
 * under `home` (P1): when every marker stands where its run stood, the result is the
 * input. A marker line's own terminator belongs to the run it replaced. A last-line
 * marker whose bytes are the whole input is the receipt for in-line changes, not a fold.
 */
export function expandInPlace(output: Buffer, raw: Buffer, home: string): Expanded {
  const store = openStore({ home });
  try {
    const parts: Buffer[] = [];
    const res: Expanded = { bytes: Buffer.alloc(0), folds: 0, unpaid: [], unknown: [] };
    const s = output.toString('utf8');
    let at = 0;
    while (at < s.length) {
      const nl = s.indexOf('\n', at);
      const end = nl < 0 ? s.length : nl + 1;
      const line = s.slice(at, end);
      const text = line.replace(/\r?\n$/, '');
      const m = MARKER_RE.exec(text);
      at = end;
      if (!m) { parts.push(Buffer.from(line)); continue; }
      const blob = getBlob(store, m[2]);
      if (!blob) { res.unknown.push(m[2]); parts.push(Buffer.from(line)); continue; }
      if (at >= s.length && blob.equals(raw)) continue;
      res.folds++;
      if (Buffer.byteLength(formatMarker(m[1], HANDLE_PLACEHOLDER)) + 1 >= blob.length) res.unpaid.push(`${m[1]} (${blob.length} B)`);
      parts.push(blob);
    }
    res.bytes = Buffer.concat(parts);
    return res;
  } finally {
    store.close();
  }
}

/**
 * The same check where in-line normalisations (colour, redraws, secrets) make the whole
 * expansion differ from the input: kept lines and fold markers' bytes must be found in
 * the input in output order, each marker's bytes a run of whole lines after the kept
 * lines before it (a kept line found verbatim is matched at its earliest place; one that
 * was normalised, or is blank, is skipped). Returns the notes of markers that are not in place.
 */
export function misplacedFolds(output: Buffer, raw: Buffer, home: string): string[] {
  const store = openStore({ home });
  try {
    const bad: string[] = [];
    let pos = 0;
    const atLine = (at: number) => at === 0 || raw[at - 1] === 10;
    const find = (b: Buffer): number => {
      let at = raw.indexOf(b, pos);
      while (at >= 0 && !atLine(at)) at = raw.indexOf(b, at + 1);
      return at;
    };
    const s = output.toString('utf8');
    let i = 0;
    while (i < s.length) {
      const nl = s.indexOf('\n', i);
      const end = nl < 0 ? s.length : nl + 1;
      const line = s.slice(i, end);
      i = end;
      const m = MARKER_RE.exec(line.replace(/\r?\n$/, ''));
      if (!m) {
        // A blank output line may be a normalised one (a colour-only line): too common to place.
        if (line.trim() === '') continue;
        const at = find(Buffer.from(line));
        if (at >= 0) pos = at + Buffer.byteLength(line);
        continue;
      }
      const blob = getBlob(store, m[2]);
      if (!blob) { bad.push(`${m[1]} (unknown handle)`); continue; }
      if (i >= s.length && blob.equals(raw)) continue;
      const at = find(blob);
      if (at < 0) bad.push(m[1]);
      else pos = at + blob.length;
    }
    return bad;
  } finally {
    store.close();
  }
}
