import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// One corpus loader for tests and benches; it lives in bench/ so bench never imports test/.
export { loadCorpus, STRUCTURED_KINDS, type CorpusCase } from '../../bench/corpus.js';


/**
 * Where a fast form of a line test disagrees with the plain form it stands for, over every line
 * of every corpus case's output: the lines read, how many the plain form says yes to, and the
 * first lines they disagree on.
 */
export function disagreements(fast: (line: string) => boolean, plain: (line: string) => boolean): { lines: number; yes: number; bad: string[] } {
  const root = join(import.meta.dirname, '..', '..', 'corpus', 'cases');
  let lines = 0;
  let yes = 0;
  const bad: string[] = [];
  for (const d of readdirSync(root)) {
    const f = join(root, d, 'output.txt');
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      lines++;
      const want = plain(line);
      if (want) yes++;
      if (fast(line) !== want && bad.length < 10) bad.push(line);
    }
  }
  return { lines, yes, bad };
}
