// The corpus loader, shared by the benches and the tests (test/helpers/corpus.ts re-exports it):
// bench/ never imports test/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusCase {
  name: string;
  dir: string;
  cmd: string;
  output: Buffer;
  exitCode: number;
  kind: string;
  family: string;
  mustKeep: string[];
}

/**
 * The repository: two levels above this file, both as source (bench/corpus.ts) and as the
 * esbuild bundle bench/run.mjs writes (bench/out/*.mjs); the working directory otherwise.
 */
function repoRoot(): string {
  const up = join(dirname(fileURLToPath(import.meta.url)), '..');
  for (const r of [up, join(up, '..'), process.cwd()]) if (existsSync(join(r, 'corpus', 'cases'))) return r;
  return process.cwd();
}

const read = (dir: string, f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');

/** Every case under corpus/cases, in name order. */
export function loadCorpus(root = join(repoRoot(), 'corpus', 'cases')): CorpusCase[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => existsSync(join(root, n, 'output.txt')))
    // By id as a number: four-digit ids come after 999, so every older case keeps its place
    // (and wins a lookup by the name after its id, which newer cases may share).
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => {
      const dir = join(root, name);
      return {
        name,
        dir,
        cmd: read(dir, 'cmd.txt').trim(),
        output: readFileSync(join(dir, 'output.txt')),
        exitCode: Number(read(dir, 'exit_code.txt').trim() || '0'),
        kind: read(dir, 'kind.txt').trim() || 'generic',
        family: read(dir, 'family.txt').trim() || read(dir, 'kind.txt').trim() || 'generic',
        mustKeep: read(dir, 'must_keep.txt').split('\n').map((s) => s.replace(/\r$/, '').trimEnd()).filter((s) => s.length > 0),
      };
    });
}

export const STRUCTURED_KINDS = new Set(['structured', 'binary']);
