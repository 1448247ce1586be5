import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIB, fileGraph } from '../helpers/import-graph.js';
import { DISTILLERS, routeCommand } from '../../lib/distillers/registry.js';
import { isDeclared } from '../../lib/distillers/hide.js';
import { tempHome } from '../helpers/omni.js';

// In the style of ESLint's rule checks: one way to hide lines (issue 12). A distiller
// declares what its tool's lines are (lib/distillers/hide.ts) and the one engine
// (lib/distillers/engine.ts) turns the declaration into the stage. No distiller file builds a
// stage of its own or reaches into the engine; every registered spec's `create` is `hiding(…)`.
const ENGINE = new Set(['distillers/hide.ts', 'distillers/engine.ts']);

/** Why this distiller file breaks the one way, from its imports and its source. */
function offences(file: string, deps: readonly string[], src: string): string[] {
  const out: string[] = [];
  if (ENGINE.has(file)) return out;
  if (deps.includes('distillers/engine.ts')) out.push(`${file} imports the engine (declare in hide.ts terms instead)`);
  // A stage of its own: the kit's factory, or a Transform built by hand.
  if (/\bbatchStage\b/.test(src)) out.push(`${file} builds a stage with batchStage`);
  if (/\bnew Transform\b|import\s*\{[^}]*\bTransform\b[^}]*\}\s*from\s*'node:stream'/.test(src.replace(/import type[^;]*;/g, ''))) out.push(`${file} builds a Transform`);
  // The hiders that were distiller-facing before the engine took them in.
  for (const name of ['RunHider', 'BatchHider', 'RunFolder', 'lineDistiller', 'hideRecognised', 'recognisedInPlace', 'recognising(']) {
    if (src.includes(name)) out.push(`${file} names ${name.replace('(', '')}`);
  }
  return out;
}

const files = fileGraph();
const distillerFiles = readdirSync(join(LIB, 'distillers')).filter((f) => f.endsWith('.ts')).map((f) => `distillers/${f}`);

t.test('no distiller file builds a stage or reaches into the engine: it declares', async (t) => {
  t.ok(distillerFiles.length > 20, `${distillerFiles.length} distiller files`);
  const bad: string[] = [];
  for (const f of distillerFiles) bad.push(...offences(f, files.get(f) ?? [], readFileSync(join(LIB, f), 'utf8')));
  t.same(bad, []);
  const engineUsers = [...files].filter(([, deps]) => deps.includes('distillers/engine.ts')).map(([f]) => f);
  t.same(engineUsers, ['distillers/hide.ts'], 'only the declaration API imports the engine');
});

t.test('every registered spec, and a rule of one\'s own, is made by hiding(…)', async (t) => {
  const notDeclared = DISTILLERS.filter((s) => !isDeclared(s.create)).map((s) => s.name);
  t.same(notDeclared, []);
  const home = tempHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'rules.json'), JSON.stringify({ rules: [{ name: 'quiet-tar', match: { program: 'tar' }, hide: ['^x '] }] }));
  const r = routeCommand('tar -xvf a.tar', { home, cwd: home });
  t.ok(r.spec, `a rule owns it: ${r.reason}`);
  if (r.spec) t.ok(isDeclared(r.spec.create), 'the rule spec is a declaration too');
});

t.test('the check fails for a distiller that builds its own hider', async (t) => {
  const planted = [
    "import { batchStage } from '../kit/stage.js';",
    "import { stageOf } from './engine.js';",
    'const h = new RunHider((x) => `${x.length} hidden`);',
  ].join('\n');
  t.same(offences('distillers/planted.ts', ['kit/stage.ts', 'distillers/engine.ts'], planted), [
    'distillers/planted.ts imports the engine (declare in hide.ts terms instead)',
    'distillers/planted.ts builds a stage with batchStage',
    'distillers/planted.ts names RunHider',
  ]);
  t.same(offences('distillers/hide.ts', ['distillers/engine.ts'], planted), [], 'the engine files are the engine');
});
