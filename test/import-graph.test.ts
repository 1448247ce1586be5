/**
 * The folders of lib/ as a graph: an arrow from folder A to folder B when a file in A imports
 * (statically, dynamically or for types) a file in B. Issue 12: the CLI and MCP sit side by
 * side on lib/service/ and never import each other; a door lives in doors/, not hosts/; and no
 * two folders reach each other by any path.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'lib');

/** folder -> folder -> the file arrows behind it ("a.ts -> b.ts"). A file directly in lib/ is folder '.'. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const files = (readdirSync(lib, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  const folderOf = (rel: string) => (rel.includes(path.sep) ? rel.split(path.sep)[0] : '.');
  const g = new Map<string, Map<string, string[]>>();
  for (const rel of files) {
    const src = readFileSync(path.join(lib, rel), 'utf8');
    for (const m of src.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const to = path.relative(lib, path.resolve(path.dirname(path.join(lib, rel)), m[1]));
      if (to.startsWith('..')) continue;
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

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(g: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let i = 0;
  const nodes = new Set([...g.keys(), ...[...g.values()].flatMap((m) => [...m.keys()])]);
  const visit = (v: string) => {
    index.set(v, i);
    low.set(v, i++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v)?.keys() ?? []) {
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
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out;
}

const arrows = (g: Map<string, Map<string, string[]>>, a: string, b: string) => g.get(a)?.get(b) ?? [];

/**
 * Arrows that close a cycle today and that other parts of issue 12 remove (the kit takes
 * pipeline/'s types, stage and marker out from under distillers/; command/ and rules/ are
 * other helpers' files). Listed, not ignored: every other arrow must keep the graph acyclic,
 * and once one of these is gone, delete its line.
 */
const OPEN: Array<[string, string, string]> = [
  ['distillers', 'pipeline', 'the kit (lib/kit/) takes types, stage and marker out of pipeline/'],
  ['command', 'pipeline', 'command/parse.ts reads pipeline/passthrough.ts'],
  ['rules', 'doors', 'rules/load.ts logs through doors/diagnostics.ts'],
];

t.test('lib/ is read: the graph has the folders it should', async (t) => {
  const g = folderGraph();
  t.ok(arrows(g, 'cli', 'store').length > 0, 'cli/ imports store/');
  t.ok(arrows(g, 'cli', 'mcp').length > 0, '`omni mcp` starts the server');
  t.ok(arrows(g, 'mcp', 'service').length > 0, 'mcp/ imports service/');
  t.ok(arrows(g, 'cli', 'service').length > 0, 'cli/ imports service/');
});

t.test('mcp/ never imports cli/: both format what lib/service/ returns', async (t) => {
  const g = folderGraph();
  t.same(arrows(g, 'mcp', 'cli'), []);
  t.same(arrows(g, 'service', 'cli'), [], 'the service knows no front end');
  t.same(arrows(g, 'service', 'mcp'), []);
});

t.test('hosts/ never imports doors/: a door lives in doors/', async (t) => {
  const g = folderGraph();
  t.same(arrows(g, 'hosts', 'doors'), []);
});

t.test('no cycle between folders, apart from the arrows issue 12 is still removing', async (t) => {
  const g = folderGraph();
  for (const [a, b, why] of OPEN) {
    if (arrows(g, a, b).length === 0) t.comment(`${a} -> ${b} is gone (${why}): remove it from OPEN`);
    g.get(a)?.delete(b);
  }
  t.same(cycles(g), []);
});

t.test('the cycle finder finds a cycle', async (t) => {
  const g = new Map([
    ['a', new Map([['b', ['x']]])],
    ['b', new Map([['c', ['y']]])],
    ['c', new Map([['a', ['z']]])],
    ['d', new Map([['a', ['w']]])],
  ]);
  t.same(cycles(g), [['a', 'b', 'c']]);
});
