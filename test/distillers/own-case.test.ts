import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/omni.js';
import { DISTILLERS, routeCommand } from '../../lib/distillers/registry.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';

// In the style of ESLint's rule checks: every registered spec has its own corpus case (a case
// whose cmd.txt routes to it) and its own test file (test/distillers/<name>.test.ts, or the
// path the spec declares as `test`) that names it. A new spec without either fails here.
const CASES = join(ROOT, 'corpus', 'cases');

function routedCases(): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const c of readdirSync(CASES)) {
    const p = join(CASES, c, 'cmd.txt');
    if (!existsSync(p)) continue;
    const r = routeCommand(readFileSync(p, 'utf8').trim());
    const k = r.distiller ?? 'none';
    by.set(k, [...(by.get(k) ?? []), c]);
  }
  return by;
}

const testPathOf = (spec: DistillerSpec) => spec.test ?? `test/distillers/${spec.name}.test.ts`;

function missing(specs: readonly DistillerSpec[], by: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (!(by.get(spec.name) ?? []).length) out.push(`${spec.name}: no corpus case whose cmd.txt routes to it`);
    const p = join(ROOT, testPathOf(spec));
    if (!existsSync(p)) out.push(`${spec.name}: no test file ${testPathOf(spec)}`);
    else if (!readFileSync(p, 'utf8').includes(`'${spec.name}'`) && !spec.test?.endsWith(`${spec.name}.test.ts`)) {
      out.push(`${spec.name}: ${testPathOf(spec)} never names '${spec.name}'`);
    }
  }
  return out;
}

const by = routedCases();

t.test('every registered spec has its own corpus case and its own test', async (t) => {
  t.ok(DISTILLERS.length > 20, `${DISTILLERS.length} specs`);
  t.same(missing(DISTILLERS, by), []);
});

t.test('the check fails for a spec without a case or a test', async (t) => {
  const stray: DistillerSpec = { name: 'no-such-tool', family: 'test', create: () => { throw new Error('unused'); } };
  t.same(missing([stray], by), [
    'no-such-tool: no corpus case whose cmd.txt routes to it',
    'no-such-tool: no test file test/distillers/no-such-tool.test.ts',
  ]);
});
