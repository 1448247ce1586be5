import type { Item, Line } from '../pipeline/types.js';
import { batchStage, type RunState } from '../pipeline/stage.js';
import { FOLD_MIN_HIDDEN_BYTES } from './fold.js';
import { analyzeCommand, peelWrappers } from '../command/parse.js';

/** What a family distiller does with each line; `out` receives what stays. */
export interface LineHandler {
  line(l: Line, out: Item[]): void;
  /** End of a batch: flush what the handler held for it (markers go at the batch's end). */
  batchEnd?(out: Item[]): void;
}

/**
 * The stage shape every family distiller shares: lines go through `h.line`, markers from
 * earlier stages pass untouched, `h.batchEnd` flushes per batch. In passthrough the batch
 * is forwarded as it is.
 */
export function lineDistiller(run: RunState, h: LineHandler) {
  return batchStage(run, (batch, push) => {
    if (run.passthrough) return push(batch);
    const out: Item[] = [];
    for (const it of batch.items) {
      if (it.kind === 'line') h.line(it, out);
      else out.push(it);
    }
    h.batchEnd?.(out);
    push({ items: out, end: batch.end });
  });
}

/** A distiller that recognises nothing and changes nothing (enumerations, reads). */
export function identity(run: RunState) {
  return lineDistiller(run, { line: (l, out) => { out.push(l); } });
}

export const textOf = (l: Line): string => l.plain ?? l.text;
const bytesOf = (l: Line): number => Buffer.byteLength(l.raw ?? l.text) + l.eol.length;
/** Order of an item in the input: a marker sits where its last hidden line was. */
const orderOf = (it: Item): number => (it.kind === 'line' ? it.index : it.hidden[it.hidden.length - 1]?.index ?? 0);

/**
 * Lines a family recognised as removable in one batch, hidden behind ONE marker at the
 * batch's end. Lines it condensed (`line.out`) are tracked too: when the marker would cost
 * more than it saves, every hidden line is put back in input order and every condensed
 * line gets its original text again, so a small output comes back unchanged.
 */
export class BatchHider {
  private hidden: Line[] = [];
  private condensed: Line[] = [];
  private bytes = 0;

  /** Hides a line; refuses (returns false) for a failure line, which must stay. */
  hide(l: Line): boolean {
    if (l.tier === 'failure') return false;
    this.hidden.push(l);
    this.bytes += bytesOf(l);
    return true;
  }

  /** Prints `text` instead of the line (the whole raw output is archived by render). */
  condense(l: Line, text: string): void {
    if (l.out !== undefined) return;
    l.out = text;
    this.condensed.push(l);
  }

  /**
   * A blank line right after another blank in the output (hiding lines between two blank
   * lines leaves a pair) is hidden too; returns true when it was.
   */
  squeezeBlank(l: Line, out: Item[]): boolean {
    if (textOf(l).trim() !== '') return false;
    const prev = out[out.length - 1];
    if (!prev || prev.kind !== 'line' || textOf(prev).trim() !== '') return false;
    return this.hide(l);
  }

  get count(): number {
    return this.hidden.length;
  }

  /** Appends the batch's marker (or puts the lines back) and starts over. */
  flush(out: Item[], note: (hidden: Line[]) => string, minBytes = FOLD_MIN_HIDDEN_BYTES): void {
    const h = this.hidden;
    if (h.length && this.bytes >= minBytes) {
      out.push({ kind: 'marker', note: note(h), hidden: h });
    } else if (h.length) {
      for (const l of this.condensed) l.out = undefined;
      const all: Item[] = [...out, ...h].sort((a, b) => orderOf(a) - orderOf(b));
      out.length = 0;
      for (const it of all) out.push(it);
    }
    this.hidden = [];
    this.condensed = [];
    this.bytes = 0;
  }
}

/**
 * The common family shape: lines a family's patterns recognise as removable (never a
 * failure line) go behind one marker per batch; so does a blank line left doubled by them.
 */
export function hideRecognised(run: RunState, isRemovable: (text: string) => boolean, noun: string) {
  const hider = new BatchHider();
  return lineDistiller(run, {
    line(l, out) {
      if ((isRemovable(textOf(l)) && hider.hide(l)) || hider.squeezeBlank(l, out)) return;
      out.push(l);
    },
    batchEnd(out) {
      hider.flush(out, (h) => `${plural(h.length, noun)} hidden`);
    },
  });
}

/** `n thing` / `n things`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Git-style global options with a value, skipped to find the subcommand. */
const VALUE_OPTS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

/** The subcommand of `tool [global options] sub …` (git, npm, kubectl, docker, terraform). */
export function subcommand(argv: string[]): string {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTS.has(a)) { i++; continue; }
    if (a.startsWith('-')) continue;
    return a;
  }
  return '';
}

/** argv[0] without its directory or an npx-style `@version` (`yarn@1.22.22` is yarn). */
export function programOf(argv: string[]): string {
  const p = argv[0] ?? '';
  return p.slice(p.lastIndexOf('/') + 1).replace(/(.)@[^@/]*$/, '$1');
}

/** Share of non-blank head lines matching `re` (for sniffing). */
export function shareMatching(head: Line[], re: RegExp): number {
  let n = 0;
  let hit = 0;
  for (const l of head) {
    const t = textOf(l);
    if (!t.trim()) continue;
    n++;
    if (re.test(t)) hit++;
  }
  return n ? hit / n : 0;
}

/** The argv of the producer that owns a command line's output (as the registry routes it). */
export function producerArgv(command: string | undefined): string[] {
  if (!command) return [];
  const a = analyzeCommand(command);
  if (!a.tail) return a.argv;
  const tail = peelWrappers(a.tail);
  // `| head`/`| tail` keep the producer; any other tail the registry routed to owns it.
  return /^(head|tail|cat|less|more)$/.test(programOf(tail)) ? a.argv : tail;
}
