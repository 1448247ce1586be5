import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/omni.js';
import { DISTILLERS } from '../../lib/distillers/registry.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';
import { readersOf } from './readers.js';

// In the style of ESLint's rule checks: a distiller is one declaration under one name. Its
// spec is the default export of lib/distillers/<name>.ts, its test is
// test/distillers/<name>.test.ts (and names it), and a corpus case's cmd.txt routes to it (or,
// where the command names no tool, the case's output names it by its lines). A
// new spec without any of these, or a file that is neither a spec nor one of the few files
// the specs are written with, fails here.
const CASES = join(ROOT, 'corpus', 'cases');
const LIB = join(ROOT, 'lib', 'distillers');
const TESTS = join(ROOT, 'test', 'distillers');

/** lib/distillers files that are not a spec: the engine, the declaration API, the registry, shared helpers. */
const NOT_SPECS = new Set(['engine.ts', 'hide.ts', 'registry.ts', 'mix.ts', 'runner.ts', 'shared.ts', 'tails.ts', 'rule.ts']);
/** test/distillers files that test no one spec: the architecture and routing tests. */
const NOT_SPEC_TESTS = new Set(['mix.test.ts', 'one-way.test.ts', 'own-case.test.ts', 'routing-pairs.test.ts', 'routing.test.ts', 'runners.test.ts', 'placement.test.ts', 'examples.test.ts']);

function routedCases(): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const c of readdirSync(CASES)) {
    const p = join(CASES, c, 'cmd.txt');
    if (!existsSync(p)) continue;
    for (const k of readersOf(readFileSync(p, 'utf8').trim(), readFileSync(join(CASES, c, 'output.txt'), 'utf8'))) by.set(k, [...(by.get(k) ?? []), c]);
  }
  return by;
}

/** What a spec is missing: its case, its test (naming it), its file. `defaults`: file name -> the default export. */
function missing(specs: readonly DistillerSpec[], by: Map<string, string[]>, defaults: Map<string, unknown>): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (!(by.get(spec.name) ?? []).length) out.push(`${spec.name}: no corpus case whose cmd.txt routes to it`);
    const test = join(TESTS, `${spec.name}.test.ts`);
    if (!existsSync(test)) out.push(`${spec.name}: no test file test/distillers/${spec.name}.test.ts`);
    else if (!readFileSync(test, 'utf8').includes(`'${spec.name}'`)) out.push(`${spec.name}: test/distillers/${spec.name}.test.ts never names '${spec.name}'`);
    if (defaults.get(`${spec.name}.ts`) !== spec) out.push(`${spec.name}: is not the default export of lib/distillers/${spec.name}.ts`);
  }
  return out;
}

const by = routedCases();
const defaults = new Map<string, unknown>();
for (const f of readdirSync(LIB).filter((f) => f.endsWith('.ts') && !NOT_SPECS.has(f))) {
  defaults.set(f, (await import(join(LIB, f))).default);
}

t.test('every registered spec has its own file, corpus case and test, under its name', async (t) => {
  t.ok(DISTILLERS.length > 20, `${DISTILLERS.length} specs`);
  t.same(missing(DISTILLERS, by, defaults), []);
});

t.test('every file is a registered spec or one of the files specs are written with', async (t) => {
  const registered = new Set(DISTILLERS.map((s) => `${s.name}.ts`));
  t.same([...defaults.keys()].filter((f) => !registered.has(f)), [], 'lib/distillers: a spec file the registry does not list');
  const tests = readdirSync(TESTS).filter((f) => f.endsWith('.test.ts') && !NOT_SPEC_TESTS.has(f));
  t.same(tests.filter((f) => !registered.has(f.replace(/\.test\.ts$/, '.ts'))), [], 'test/distillers: a test named for no spec');
});

t.test('the check fails for a spec without a case, a test or a file of its name', async (t) => {
  const stray: DistillerSpec = { name: 'no-such-tool', family: 'test', lines: () => ({}), examples: [] };
  t.same(missing([stray], by, defaults), [
    'no-such-tool: no corpus case whose cmd.txt routes to it',
    'no-such-tool: no test file test/distillers/no-such-tool.test.ts',
    'no-such-tool: is not the default export of lib/distillers/no-such-tool.ts',
  ]);
  const jest = DISTILLERS.find((s) => s.name === 'jest')!;
  t.same(missing([{ ...jest }], by, defaults), ['jest: is not the default export of lib/distillers/jest.ts'], 'a copy under the same name is not the file\'s spec');
});
