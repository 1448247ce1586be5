import type { Item, Line } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';
import { foldPays, lineByteLength } from '../kit/marker.js';
import { saysFailureOrWarning } from '../kit/words.js';

/** Collapse steps in only when distill saved less than this share of a batch. */
export const COLLAPSE_TRIGGER_RATIO = 0.3;

/**
 * collapse: the fallback. When the distiller saved too little on a batch, runs of
 * positively recognised noise lines that are not alike (so distill could not fold them)
 * become first line, marker, last line. It reads only input lines: markers from earlier
 * stages pass through and end a run; failure and signal lines, and noise holding a word of a
 * failure or a warning, are never touched.
 */
export function collapse(run: RunState) {
  return batchStage(run, (batch, push) => {
    // A read (cat, head, a host's Read) is delivered as it is: its lines are the answer.
    if (run.passthrough || run.distiller === 'read') return push(batch);
    let rawLen = 0;
    let outLen = 0;
    for (const it of batch.items) {
      if (it.kind === 'line') {
        const n = (it.raw ?? it.text).length + it.eol.length;
        rawLen += n;
        outLen += (it.out ?? it.plain ?? it.text).length + it.eol.length;
      } else {
        for (const h of it.hidden) rawLen += (h.raw ?? h.text).length + h.eol.length;
        outLen += 80;
      }
    }
    if (rawLen === 0 || 1 - outLen / rawLen >= COLLAPSE_TRIGGER_RATIO) return push(batch);
    const out: Item[] = [];
    let runLines: Line[] = [];
    const close = () => {
      // First and last stay; the middle folds when it pays for its marker (`foldPays`).
      if (runLines.length > 2) {
        const middle = runLines.slice(1, -1);
        const bytes = middle.reduce((s, l) => s + lineByteLength(l), 0);
        const note = `${middle.length} noise lines collapsed`;
        if (foldPays(middle.length, bytes, note)) {
          out.push(runLines[0], { kind: 'marker', note, hidden: middle }, runLines[runLines.length - 1]);
          runLines = [];
          return;
        }
      }
      for (const l of runLines) out.push(l);
      runLines = [];
    };
    for (const it of batch.items) {
      if (it.kind === 'line' && it.tier === 'noise' && it.bytes === undefined && (it.plain ?? it.text).trim() !== '' && !saysFailureOrWarning(it.plain ?? it.text)) runLines.push(it);
      else { close(); out.push(it); }
    }
    close();
    push({ items: out, end: batch.end });
  });
}
