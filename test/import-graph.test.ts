import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './helpers/omni.js';

// The house's arrows, read from the source: every `import … from '…'` and `export … from '…'`
// between files of lib/. The distillers are written against the kit; the pipeline runs them
// through the registry; nothing points back up.
const LIB = join(ROOT, 'lib');
const IMPORT_RE = /^\s*(?:import|export)\s[^'";]*?\sfrom\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]/gm;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (n.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** file (relative to lib/) -> the lib files it imports. */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of files(LIB)) {
    const src = readFileSync(f, 'utf8');
    const deps: string[] = [];
    for (const m of src.matchAll(IMPORT_RE)) {
      const spec = (m[1] ?? m[2])!;
      const target = resolve(dirname(f), spec).replace(/\.js$/, '.ts');
      if (target.startsWith(LIB)) deps.push(relative(LIB, target));
    }
    g.set(relative(LIB, f), deps);
  }
  return g;
}

const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** Strongly connected components of size > 1 (Tarjan), each as a sorted list of nodes. */
function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), on = new Set<string>();
  const stack: string[] = [], out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1 || (g.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const g = graph();

t.test('the parser sees the imports (the graph is not empty)', async (t) => {
  t.ok(g.size > 50, `${g.size} files`);
  t.ok((g.get('pipeline/distill.ts') ?? []).includes('distillers/registry.ts'), 'the pipeline imports the registry');
  t.ok((g.get('distillers/fold.ts') ?? []).includes('kit/marker.ts'), 'a distiller imports the kit');
});

t.test('distillers import the kit, never the pipeline', async (t) => {
  const bad = [...g].flatMap(([f, deps]) => (folderOf(f) === 'distillers' ? deps.filter((d) => folderOf(d) === 'pipeline').map((d) => `${f} -> ${d}`) : []));
  t.same(bad, []);
});

t.test('the kit imports nothing above it', async (t) => {
  const above = new Set(['pipeline', 'distillers', 'doors', 'cli', 'mcp', 'hosts', 'rules', 'store']);
  const bad = [...g].flatMap(([f, deps]) => (folderOf(f) === 'kit' ? deps.filter((d) => above.has(folderOf(d))).map((d) => `${f} -> ${d}`) : []));
  t.same(bad, []);
});

t.test('no circle between pipeline/, kit/ and distillers/', async (t) => {
  const three = new Set(['pipeline', 'kit', 'distillers']);
  const folders = new Map<string, Set<string>>();
  for (const [f, deps] of g) {
    const a = folderOf(f);
    if (!three.has(a)) continue;
    for (const d of deps) {
      const b = folderOf(d);
      if (three.has(b) && b !== a) (folders.get(a) ?? folders.set(a, new Set()).get(a)!).add(b);
    }
  }
  const fg = new Map([...folders].map(([k, v]) => [k, [...v]]));
  t.same(cycles(fg), [], JSON.stringify(Object.fromEntries(fg)));
});

// Circles owned by other work (issue 12: the cli/mcp service). Listed so a new circle fails.
const KNOWN_FILE_CIRCLES = (c: string[]) => c.every((f) => folderOf(f) === 'cli' || folderOf(f) === 'mcp');

t.test('no file-level import circle in lib/, besides the known cli/mcp one', async (t) => {
  const found = cycles(g).filter((c) => !KNOWN_FILE_CIRCLES(c));
  t.same(found, []);
});

t.test('the cycle finder finds a planted circle', async (t) => {
  const planted = new Map(g);
  planted.set('kit/marker.ts', [...(g.get('kit/marker.ts') ?? []), 'distillers/fold.ts']);
  t.ok(cycles(planted).some((c) => c.includes('kit/marker.ts') && c.includes('distillers/fold.ts')));
});
