/**
 * lib/ is read by people: no function there runs over 100 lines (a door's walk, the run's
 * description, render's states, a distiller's unit, the ledger's fold, the command tokenizer,
 * a host's installer). Counted from the source with TypeScript's parser: every function, method,
 * arrow and constructor, from its first line to its last.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './helpers/omni.js';

const MAX_LINES = 100;
const EDGES = [
  ...readdirSync(join(ROOT, 'lib', 'doors')).filter((f) => f.endsWith('.ts')).map((f) => `lib/doors/${f}`),
  ...['create', 'run', 'describe', 'distill', 'render', 'render-output', 'final-gate', 'receipt-budget', 'ledger-edge'].map((f) => `lib/pipeline/${f}.ts`),
  'lib/cli/discover.ts',
  'lib/mcp/hook-tool.ts',
  'lib/hosts/model-view.ts',
  'lib/hosts/claude/view.ts',
  ...['claude', 'codex', 'gemini'].map((h) => `lib/hosts/${h}/log.ts`),
  'lib/hosts/session-log.ts',
];

/** Every function in `source` longer than `max` lines: `name (n lines)`. */
export function longFunctions(file: string, source: string, max = MAX_LINES): string[] {
  const src = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = src.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
      const n = last - first + 1;
      const name = (node.name && ts.isIdentifier(node.name) ? node.name.text : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : '') || '(anonymous)';
      if (n > max) out.push(`${file}:${first + 1} ${name} (${n} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

t.test(`no function in the doors and the pipeline's edges runs over ${MAX_LINES} lines`, async (t) => {
  t.ok(EDGES.length > 20, `${EDGES.length} files`);
  t.same(EDGES.flatMap((f) => longFunctions(f, readFileSync(join(ROOT, f), 'utf8'))), []);
});

t.test(`no function anywhere in lib/ runs over ${MAX_LINES} lines`, async (t) => {
  const files = (readdirSync(join(ROOT, 'lib'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `lib/${f.split('\\').join('/')}`);
  t.ok(files.length > 150, `${files.length} files`);
  t.same(files.flatMap((f) => longFunctions(f, readFileSync(join(ROOT, f), 'utf8'))), []);
});

t.test('the count finds a long function', async (t) => {
  const body = Array.from({ length: MAX_LINES }, (_, i) => `  const x${i} = ${i};`).join('\n');
  t.same(longFunctions('x.ts', `function long() {\n${body}\n}\nconst short = () => 1;\n`), [`x.ts:1 long (${MAX_LINES + 2} lines)`]);
});
