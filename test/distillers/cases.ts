import stripAnsi from 'strip-ansi';
import { loadCorpus, type CorpusCase } from '../helpers/corpus.js';
import { distill } from '../helpers/omni.js';
import { MARKER_RE } from '../../lib/kit/marker.js';

/**
 * Corpus cases are numbered by capture order; tests find them by the name after the number
 * (the first in name order), or by the whole id where two captures share a name.
 */
export function corpusCase(name: string): CorpusCase {
  const c = loadCorpus().find((x) => x.name === name || x.name.replace(/^\d+-/, '') === name);
  if (!c) throw new Error(`corpus case *-${name} is missing`);
  return c;
}

export interface Distilled {
  input: string;
  out: string;
  lines: string[];
  markers: string[];
  changed: boolean;
  distiller: string;
}

/** Runs a case through the pipe door (command known, exit code not), as `omni pipe --command` does. */
export async function pipe(c: CorpusCase, command = c.cmd): Promise<Distilled> {
  const r = await distill(c.output, { command, door: 'pipe' });
  const out = stripAnsi(r.output.toString('utf8'));
  const lines = out.split('\n');
  return {
    input: stripAnsi(c.output.toString('utf8')),
    out,
    lines,
    markers: lines.filter((l) => MARKER_RE.test(l)).map((l) => MARKER_RE.exec(l)![1]),
    changed: r.changed,
    distiller: r.distiller,
  };
}

/** Sum of "N <noun>" counts over the markers' notes (`one`: the noun a count of one is said with). */
export function folded(markers: string[], noun: string, one = noun): number {
  let n = 0;
  const re = new RegExp(`(\\d+) (?:${noun}|${one})\\b`);
  for (const m of markers) {
    const x = re.exec(m);
    if (x) n += Number(x[1]);
  }
  return n;
}

/** Input lines matching `re` (ANSI stripped). */
export function count(text: string, re: RegExp): number {
  return text.split('\n').filter((l) => re.test(l)).length;
}

/**
 * Every line of the input that matches `re` is in the output, verbatim. A pattern that
 * matches no input line is reported as missing too: otherwise the check could never fail.
 */
export function keptAll(d: Distilled, re: RegExp): string[] {
  const missing: string[] = [];
  const have = new Set(d.lines);
  let matched = 0;
  for (const l of d.input.split('\n')) {
    if (!re.test(l)) continue;
    matched++;
    if (!have.has(l)) missing.push(l);
  }
  if (matched === 0) missing.push(`(no input line matches ${re})`);
  return missing;
}
