/**
 * The house's arrows, read from lib/'s source (test/helpers/import-graph.ts). Issue 12: the
 * distillers are written against the kit and the pipeline runs them through the registry; the
 * CLI and MCP sit side by side on lib/service/ and never import each other; a door lives in
 * doors/, not hosts/; and no two folders, and no two files, reach each other by any path.
 */
import t from 'tap';
import { cycles, fileGraph, folderArrows, folderGraph, folderOf } from './helpers/import-graph.js';

const files = fileGraph();
const g = folderGraph(files);
const arrows = (a: string, b: string) => g.get(a)?.get(b) ?? [];

/**
 * Arrows that close a folder cycle today and that later work removes. Listed, not ignored:
 * every other arrow must keep the graph acyclic, and once one of these is gone, delete its line.
 */
const OPEN: Array<[string, string, string]> = [
  ['command', 'pipeline', 'command/parse.ts reads pipeline/passthrough.ts'],
  ['rules', 'doors', 'rules/load.ts logs through doors/diagnostics.ts'],
];

t.test('lib/ is read: the graph has the files and folders it should', async (t) => {
  t.ok(files.size > 50, `${files.size} files`);
  t.ok((files.get('pipeline/distill.ts') ?? []).includes('distillers/registry.ts'), 'the pipeline imports the registry');
  t.ok((files.get('distillers/engine.ts') ?? []).includes('kit/marker.ts'), 'a distiller imports the kit');
  t.ok(arrows('cli', 'store').length > 0, 'cli/ imports store/');
  t.ok(arrows('cli', 'mcp').length > 0, '`omni mcp` starts the server');
  t.ok(arrows('mcp', 'service').length > 0, 'mcp/ imports service/');
  t.ok(arrows('cli', 'service').length > 0, 'cli/ imports service/');
});

t.test('distillers import the kit, never the pipeline', async (t) => {
  t.same(arrows('distillers', 'pipeline'), []);
});

t.test('the kit imports nothing above it', async (t) => {
  for (const above of ['pipeline', 'distillers', 'doors', 'cli', 'mcp', 'hosts', 'rules', 'store']) t.same(arrows('kit', above), [], `kit -> ${above}`);
});

t.test('mcp/ never imports cli/: both format what lib/service/ returns', async (t) => {
  t.same(arrows('mcp', 'cli'), []);
  t.same(arrows('service', 'cli'), [], 'the service knows no front end');
  t.same(arrows('service', 'mcp'), []);
});

t.test('hosts/ never imports doors/: a door lives in doors/', async (t) => {
  t.same(arrows('hosts', 'doors'), []);
});

t.test('no cycle between folders, apart from the arrows still listed as open', async (t) => {
  const fg = folderArrows(g);
  for (const [a, b, why] of OPEN) {
    if (arrows(a, b).length === 0) t.comment(`${a} -> ${b} is gone (${why}): remove it from OPEN`);
    fg.set(a, (fg.get(a) ?? []).filter((x) => x !== b));
  }
  t.same(cycles(fg), []);
});

t.test('no file-level import circle in lib/', async (t) => {
  t.same(cycles(files), []);
});

t.test('the cycle finder finds a cycle, and a planted file circle', async (t) => {
  t.same(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), [['a', 'b', 'c']]);
  const planted = new Map(files);
  planted.set('kit/marker.ts', [...(files.get('kit/marker.ts') ?? []), 'distillers/engine.ts']);
  t.ok(cycles(planted).some((c) => c.includes('kit/marker.ts') && c.includes('distillers/engine.ts')));
  t.equal(folderOf('kit/marker.ts'), 'kit');
});
