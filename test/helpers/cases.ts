import stripAnsi from 'strip-ansi';
import { loadCorpus, type CorpusCase } from './corpus.js';
import { distill } from './omni.js';
import { MARKER_RE } from '../../lib/kit/marker.js';

/** One real corpus case by its directory name (fails loudly when it is missing). */
export function corpusCase(name: string): CorpusCase {
  const c = loadCorpus().find((x) => x.name === name);
  if (!c) throw new Error(`corpus case ${name} is missing`);
  return c;
}

/** A real case through the pipe door with its own command; the text is ANSI-free. */
export async function distillCase(name: string, command?: string, exitCode?: number) {
  const c = corpusCase(name);
  const r = await distill(c.output, { command: command ?? c.cmd, door: 'pipe', exitCode });
  const text = stripAnsi(r.output.toString('utf8'));
  const markers = text.split('\n').filter((l) => MARKER_RE.test(l));
  return { c, r, text, markers, rawText: c.output.toString('utf8') };
}
