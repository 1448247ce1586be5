import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './omni.js';

/** The house's arrows, read from the source: every static, dynamic and type import between files of lib/. */
export const LIB = path.join(ROOT, 'lib');
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** file (relative to lib/) -> the lib files it imports. */
export function fileGraph(): Map<string, string[]> {
  const files = (readdirSync(LIB, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).sort();
  const g = new Map<string, string[]>();
  for (const rel of files) {
    const src = readFileSync(path.join(LIB, rel), 'utf8');
    const deps: string[] = [];
    for (const m of src.matchAll(IMPORT_RE)) {
      const to = path.relative(LIB, path.resolve(path.dirname(path.join(LIB, rel)), m[1])).replace(/\.js$/, '.ts');
      if (!to.startsWith('..')) deps.push(to);
    }
    g.set(rel, deps);
  }
  return g;
}

/** A file directly in lib/ is folder '.'. */
export const folderOf = (rel: string): string => (rel.includes(path.sep) ? rel.split(path.sep)[0] : '.');

/** folder -> folder -> the file arrows behind it ("a.ts -> b.ts"). */
export function folderGraph(files = fileGraph()): Map<string, Map<string, string[]>> {
  const g = new Map<string, Map<string, string[]>>();
  for (const [rel, deps] of files) {
    for (const to of deps) {
      const a = folderOf(rel);
      const b = folderOf(to);
      if (a === b) continue;
      if (!g.has(a)) g.set(a, new Map());
      const out = g.get(a)!;
      if (!out.has(b)) out.set(b, []);
      out.get(b)!.push(`${rel} -> ${to}`);
    }
  }
  return g;
}

/** Strongly connected components that are circles (Tarjan), each a sorted list of nodes. */
export function cycles(g: Map<string, Iterable<string>>): string[][] {
  const adj = new Map([...g].map(([k, v]) => [k, [...v]] as const));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let i = 0;
  const nodes = new Set([...adj.keys(), ...[...adj.values()].flat()]);
  const visit = (v: string) => {
    index.set(v, i);
    low.set(v, i++);
    stack.push(v);
    on.add(v);
    for (const w of adj.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (adj.get(v) ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** For a folder graph: its arrows as folder -> folders. */
export const folderArrows = (g: Map<string, Map<string, string[]>>): Map<string, string[]> =>
  new Map([...g].map(([k, v]) => [k, [...v.keys()]]));
