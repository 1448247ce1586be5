/**
 * The house's arrows, read from lib/'s source (test/helpers/import-graph.ts). Issue 12: the
 * distillers are written against the kit and the pipeline runs them through the registry; the
 * CLI and MCP sit side by side on lib/service/ and never import each other; a door lives in
 * doors/, not hosts/; and no two folders, and no two files, reach each other by any path.
 * Issue 19: one folder per host under hosts/, none reaching into another's, over the shared kit.
 */
import t from 'tap';
import { sep } from 'node:path';
import { cycles, fileGraph, folderArrows, folderGraph, folderOf } from './helpers/import-graph.js';

const files = fileGraph();
const g = folderGraph(files);
const arrows = (a: string, b: string) => g.get(a)?.get(b) ?? [];

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

/** Folders below the doors: a door calls them, none of them calls back up into a door. */
const BELOW_DOORS = ['hosts', 'pipeline', 'kit', 'distillers', 'reread', 'rules', 'command', 'store'];

t.test('no door module is imported by hosts/, pipeline/ or anything else below the doors', async (t) => {
  for (const below of BELOW_DOORS) t.same(arrows(below, 'doors'), [], `${below} -> doors`);
});

t.test('the check sees a door imported from below: a planted arrow from pipeline/ and from hosts/ is found', async (t) => {
  for (const [from, door] of [['pipeline/create.ts', 'doors/post-tool.ts'], ['hosts/claude/adapter.ts', 'doors/hook.ts']]) {
    const planted = new Map(files);
    planted.set(from, [...(files.get(from) ?? []), door]);
    const pg = folderGraph(planted);
    t.same(pg.get(folderOf(from))?.get('doors'), [`${from} -> ${door}`], `${from} -> ${door} is reported`);
  }
});

t.test('no cycle between folders: no arrow is excused', async (t) => {
  t.same(cycles(folderArrows(g)), []);
});

t.test('command/ and store/ are the floor: they import no folder above them', async (t) => {
  // The pass-through prefix rule lives in command/ (the pipeline, the doors and the hosts read
  // it there), and the diagnostics log in store/ beside omniHome (rules/ and the doors log there).
  for (const above of ['pipeline', 'kit', 'distillers', 'doors', 'cli', 'mcp', 'hosts', 'rules', 'service']) {
    t.same(arrows('command', above), [], `command -> ${above}`);
    t.same(arrows('store', above), [], `store -> ${above}`);
  }
  t.same(arrows('rules', 'doors'), [], 'rules -> doors');
});

t.test('base/ is the floor under every folder: general utilities that import no folder of omni', async (t) => {
  const folders = new Set([...files.keys()].map(folderOf));
  t.ok(folders.has('base'), 'lib/base exists');
  for (const above of folders) if (above !== 'base') t.same(arrows('base', above), [], `base -> ${above}`);
  t.ok(arrows('store', 'base').length > 0, 'store/ imports base/');
});

/** The host a file of lib/ belongs to (`hosts/<host>/…`), or null. kit/ is no host. */
const hostOf = (rel: string): string | null => {
  const parts = rel.split(sep);
  return parts[0] === 'hosts' && parts.length > 2 && parts[1] !== 'kit' ? parts[1] : null;
};
/** The hosts/ files that list the hosts (adapters, installers, log readers): the only neutral files that name one. */
const HOST_LISTS = ['hosts/registry.ts', 'hosts/installers.ts', 'hosts/logs.ts'].map((f) => f.split('/').join(sep));

/** Arrows that break the host folders' rules: host -> another host, kit or a neutral file -> a host, cli/ -> a host. */
function hostArrows(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    for (const to of deps) {
      const a = hostOf(from);
      const b = hostOf(to);
      if (!b || a === b) continue;
      if (a) out.push(`${from} -> ${to} (a host folder imports another host's)`);
      else if (folderOf(from) === 'hosts' && !HOST_LISTS.includes(from)) out.push(`${from} -> ${to} (only the host lists name a host)`);
      else if (folderOf(from) === 'cli') out.push(`${from} -> ${to} (cli/ reaches hosts through their lists)`);
    }
  }
  return out;
}

t.test('one folder per host: each holds its adapter and its install, and ships a log reader where discover reads it', async (t) => {
  const hosts = [...new Set([...files.keys()].map(hostOf).filter((h): h is string => h !== null))].sort();
  t.same(hosts, ['claude', 'codex', 'cursor', 'gemini', 'pi']);
  for (const h of hosts) {
    t.ok(files.has(['hosts', h, 'adapter.ts'].join(sep)), `${h}/adapter.ts`);
    t.ok(files.has(['hosts', h, 'install.ts'].join(sep)), `${h}/install.ts`);
  }
  for (const h of ['claude', 'codex', 'gemini']) t.ok((files.get('hosts/logs.ts'.split('/').join(sep)) ?? []).includes(['hosts', h, 'log.ts'].join(sep)), `hosts/logs.ts lists ${h}/log.ts`);
});

t.test('no host folder imports another host\'s; the kit and the neutral files import none; cli/ reaches a host only through the lists', async (t) => {
  t.same(hostArrows(files), []);
});

t.test('the host check sees a planted arrow of each kind', async (t) => {
  const planted = (from: string, to: string) => {
    const g2 = new Map(files);
    g2.set(from, [...(files.get(from) ?? []), to]);
    return hostArrows(g2);
  };
  const j = (f: string) => f.split('/').join(sep);
  t.match(planted(j('hosts/codex/adapter.ts'), j('hosts/claude/adapter.ts')), [/another host's/]);
  t.match(planted(j('hosts/kit/status.ts'), j('hosts/gemini/install.ts')), [/only the host lists/]);
  t.match(planted(j('cli/doctor.ts'), j('hosts/claude/install.ts')), [/through their lists/]);
  t.same(planted(j('hosts/codex/log.ts'), j('hosts/kit/config-file.ts')), [], 'a host may import the kit');
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
