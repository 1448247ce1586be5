import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIB, fileGraph } from '../helpers/import-graph.js';
import { DISTILLERS, routeCommand } from '../../lib/distillers/registry.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';
import { tempHome } from '../helpers/omni.js';

// In the style of ESLint's rule checks: one way to hide lines (issue 12). A distiller
// declares what its tool's lines are (its spec's `lines`, in lib/kit/units.ts's terms) and the
// one engine (lib/distillers/engine.ts) turns the declaration into the stage. No distiller file
// builds a stage of its own or reaches into the engine; a spec is a declaration and nothing else.
const ENGINE = new Set(['distillers/hide.ts', 'distillers/engine.ts']);

/** What a spec may say (lib/kit/spec.ts): no `create`, no `test`, nothing that is not a declaration. */
const DECLARED = new Set(['name', 'family', 'producers', 'runners', 'scripts', 'matches', 'runs', 'answer', 'rewrite', 'detect', 'sniff', 'lines', 'delegate', 'failures', 'signals', 'examples']);

/** Why this spec is not a declaration. */
function notDeclared(spec: DistillerSpec): string[] {
  const out: string[] = [];
  for (const k of Object.keys(spec)) if (!DECLARED.has(k)) out.push(`${spec.name}: ${k} is not a declaration`);
  if (!spec.lines === !spec.delegate) out.push(`${spec.name}: declares ${spec.lines ? 'both lines and delegate' : 'neither lines nor delegate'}`);
  if (spec.detect && spec.sniff) out.push(`${spec.name}: declares both detect and sniff`);
  return out;
}

/** A spec property set after its literal (`X.test = …`): the spec is no longer one declaration. */
const SET_AFTER = new RegExp(`^\\s*[A-Za-z_$][\\w$]*\\.(${[...DECLARED, 'create', 'test'].join('|')})\\s*=(?!=)`, 'm');

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
  // The engine's stage is the registry's to build, from a declaration.
  if (file !== 'distillers/registry.ts' && /\bstageFor\b/.test(src)) out.push(`${file} builds a stage with stageFor`);
  if (SET_AFTER.test(src)) out.push(`${file} sets a spec property after its declaration: ${SET_AFTER.exec(src)![0].trim()}`);
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

t.test('every registered spec, and a rule of one\'s own, is a declaration, frozen once written', async (t) => {
  t.same(DISTILLERS.flatMap(notDeclared), []);
  t.same(DISTILLERS.filter((s) => !Object.isFrozen(s)).map((s) => s.name), [], 'the registry freezes each spec');
  t.ok(Object.isFrozen(DISTILLERS), 'and the list');
  const home = tempHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'rules.json'), JSON.stringify({ rules: [{ name: 'quiet-tar', match: { program: 'tar' }, hide: ['^x '] }] }));
  const r = routeCommand('tar -xvf a.tar', { home, cwd: home });
  t.ok(r.spec, `a rule owns it: ${r.reason}`);
  if (r.spec) t.same(notDeclared(r.spec), [], 'the rule spec is a declaration too');
});

t.test('the declaration check fails for a spec with a mechanism or a property set after it', async (t) => {
  const made = { name: 'made', family: 'test', examples: [], create: () => null } as unknown as DistillerSpec;
  t.same(notDeclared(made), ['made: create is not a declaration', 'made: declares neither lines nor delegate']);
  t.same(offences('distillers/late.ts', [], "export const LATE = { name: 'late' };\nLATE.test = 'test/x.test.ts';\n"), [
    "distillers/late.ts sets a spec property after its declaration: LATE.test =",
  ]);
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

t.test('a declaration is all it takes: the engine hides each recognised run in its place, never a failure line', async (t) => {
  const { RunState } = await import('../../lib/kit/stage.js');
  const { stageFor, onlyWhere } = await import('../../lib/distillers/hide.js');
  type L = import('../../lib/kit/types.js').Line;
  type I = import('../../lib/kit/types.js').Item;
  const dots = '.'.repeat(60); // two such lines pay for a marker
  const lines: L[] = ['start', `progress 1 of 40 ${dots}`, `progress 2 of 40 ${dots}`, 'error: progress 3 failed', 'progress 4', 'progress 5', 'done'].map(
    (text, index) => ({ kind: 'line', text, plain: text, eol: '\n', tier: text.startsWith('error') ? 'failure' : 'text', index, end: 0 }),
  );
  const stage = stageFor(new RunState(), onlyWhere((l) => /^(error: )?progress /.test(l.plain ?? l.text), (h) => `${h.length} progress lines hidden`));
  const out: I[] = [];
  stage.on('data', (b: { items: I[] }) => out.push(...b.items));
  stage.end({ items: lines, end: 0 });
  await new Promise((r) => stage.on('end', r));
  const shown = out.map((it) => (it.kind === 'line' ? it.text : `[${it.note}: ${it.hidden.map((h) => h.index).join(',')}]`));
  // The failure line reads like progress and stays; the run after it is too small to pay for a marker, so it stays too.
  t.same(shown, ['start', '[2 progress lines hidden: 1,2]', 'error: progress 3 failed', 'progress 4', 'progress 5', 'done']);
});
