// `OMNI_LIBS=/tmp/libs node bench/libs.mjs`: would a well-kept library do better than omni's
// hand-written code? Measures shell-quote (against the tokenizer in lib/command/parse.ts) and
// tapjs's tap-parser (against the TAP recogniser in lib/distillers/tap.ts) on the corpus:
// correctness first (same routing / same classification), then start-up and CPU.
//
// The libraries are NOT dependencies of omni. Install them into a scratch dir first:
//   npm install --prefix /tmp/libs shell-quote tap-parser
// and point OMNI_LIBS at it. Run from the repository root. Not a pass/fail test.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const LIBS = process.env.OMNI_LIBS;
if (!LIBS || !existsSync(join(LIBS, 'node_modules', 'shell-quote')) || !existsSync(join(LIBS, 'node_modules', 'tap-parser'))) {
  console.error('set OMNI_LIBS to a dir holding shell-quote and tap-parser:\n  npm install --prefix /tmp/libs shell-quote tap-parser\n  OMNI_LIBS=/tmp/libs node bench/libs.mjs');
  process.exit(2);
}
const ROOT = process.cwd();
const req = createRequire(join(resolve(LIBS), 'node_modules', 'x.js'));
const out = join(ROOT, 'bench', 'out');
mkdirSync(out, { recursive: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const banner = { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" };

// ---------------------------------------------------------------------------------------------
// shell-quote

/** shell-quote's parse, mapped onto parse.ts's tokens (the analysis after it is shared). */
const SHIM = `
import { parse } from ${JSON.stringify(req.resolve('shell-quote'))};
import * as real from ${JSON.stringify(join(ROOT, 'lib/command/parse.ts'))};
export * from ${JSON.stringify(join(ROOT, 'lib/command/parse.ts'))};
export function sqTokenize(line) {
  // Keep $VAR as text: shell-quote would otherwise expand it from an env (undefined: '').
  const parts = parse(line, (k) => '$' + k);
  const tokens = [];
  let subshell = /\\$\\(|\`/.test(line);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (typeof p === 'string') {
      const next = parts[i + 1];
      // A bare number before a redirect is taken for a descriptor: shell-quote does not say
      // whether it touched the operator ('2>x' and '2 >x' parse the same).
      if (/^\\d+$/.test(p) && next && typeof next === 'object' && ['>', '>>', '<', '>&'].includes(next.op)) {
        if (next.op === '>&' && p === '2' && parts[i + 2] === '1') { tokens.push({ op: '2>&1' }); i += 2; continue; }
        if (next.op === '>' && p === '2') { tokens.push({ op: '2>' }); i += 1; continue; }
        continue;
      }
      tokens.push({ word: p });
      continue;
    }
    if ('comment' in p) break;
    if (p.op === 'glob') { tokens.push({ word: p.pattern }); continue; }
    if (p.op === '(' || p.op === ')' || p.op === '<(') { subshell = true; continue; }
    if (p.op === '<<' || p.op === '<<<') { subshell = true; tokens.push({ op: '<' }); continue; }
    if (p.op === ';;') { tokens.push({ op: ';' }); continue; }
    if (p.op === '>&') {
      const n = parts[i + 1];
      if (typeof n === 'string' && /^(\\d+|-)$/.test(n)) { tokens.push({ op: '>&' }); i++; } else tokens.push({ op: '&>' });
      continue;
    }
    tokens.push({ op: p.op });
  }
  return { tokens, malformed: false, subshell };
}
export function analyzeCommand(command) {
  const trimmed = command.trim();
  return real.analyzeTokens(trimmed, sqTokenize(trimmed));
}
`;

async function bundle(name, entry, swapParse) {
  const plugins = swapParse ? [{
    name: 'swap-parse',
    setup(b) {
      b.onResolve({ filter: /command\/parse\.js$/ }, () => ({ path: join(out, 'libs-sq-shim.mjs') }));
      b.onLoad({ filter: /libs-sq-shim\.mjs$/ }, () => ({ contents: SHIM, loader: 'js', resolveDir: ROOT }));
    },
  }] : [];
  const outfile = join(out, `${name}.mjs`);
  await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, outfile, bundle: true, platform: 'node', format: 'esm',
    target: 'node20', external: ['better-sqlite3'], logLevel: 'error', plugins, banner,
  });
  return import(pathToFileURL(outfile).href + `?${Date.now()}`);
}

const ROUTE_ENTRY = `
export { routeCommand } from './lib/distillers/registry.js';
export { analyzeCommand } from './lib/command/parse.js';
`;
const hand = await bundle('libs-route-hand', ROUTE_ENTRY, false);
const sq = await bundle('libs-route-sq', ROUTE_ENTRY, true);

const commands = [];
for (const d of readdirSync('corpus/cases').sort()) {
  const f = join('corpus/cases', d, 'cmd.txt');
  if (existsSync(f)) commands.push(readFileSync(f, 'utf8').trim());
}
const corpusN = commands.length;
// Every string literal in the routing and parse tests (a superset of their commands).
for (const f of ['test/distillers/routing.test.ts', 'test/command/parse.test.ts']) {
  if (!existsSync(f)) continue;
  for (const m of readFileSync(f, 'utf8').matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)) {
    const s = (m[1] ?? m[2]).replace(/\\(.)/g, '$1');
    if (s.trim()) commands.push(s);
  }
}
const fields = (a) => JSON.stringify([a.argv, a.tail, a.segments, a.malformed, a.hasSubshell, a.hasRedirect, a.hasUnquotedPipe, a.hasSequence, a.hasBackground]);
const routeDiff = [];
let analysisDiff = 0, corpusRouteDiff = 0;
for (const [k, c] of commands.entries()) {
  const a = hand.routeCommand(c), b = sq.routeCommand(c);
  if ((a.distiller !== b.distiller || a.rewrite !== b.rewrite) && k < corpusN) corpusRouteDiff++;
  if (a.distiller !== b.distiller || a.rewrite !== b.rewrite) routeDiff.push(`${JSON.stringify(c)}: hand ${a.distiller}/${a.rewrite ? 'rewrite' : 'no-rewrite'}, shell-quote ${b.distiller}/${b.rewrite ? 'rewrite' : 'no-rewrite'}`);
  if (fields(hand.analyzeCommand(c)) !== fields(sq.analyzeCommand(c))) analysisDiff++;
}
console.log('## shell-quote vs lib/command/parse.ts\n');
console.log(`commands: ${corpusN} corpus cmd.txt + ${commands.length - corpusN} strings from the routing/parse tests`);
console.log(`routing (distiller + rewrite) differs on ${routeDiff.length} (${corpusRouteDiff} of them corpus commands); analysis fields (argv, tail, segments, flags) differ on ${analysisDiff}`);
console.log('(null = passed through: the hand tokenizer reports unbalanced quotes, shell-quote accepts them)');
for (const d of routeDiff.slice(0, 25)) console.log(`  ${d}`);

function cpu(fn, reps) {
  const ts = [];
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) for (const c of commands) fn(c);
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(ts);
}
const reps = 50;
const handMs = cpu(hand.analyzeCommand, reps), sqMs = cpu(sq.analyzeCommand, reps);
const perCall = (ms) => ((ms * 1000) / (reps * commands.length)).toFixed(2);
console.log(`analyzeCommand CPU: hand ${perCall(handMs)} µs/command, shell-quote ${perCall(sqMs)} µs/command (${(sqMs / handMs).toFixed(2)}×)`);

/** Median ms a fresh node spends in require(spec), timed inside it (the hook pays this per call). */
function startup(spec) {
  const ts = [];
  for (let r = 0; r < 11; r++) {
    const code = `const t=process.hrtime.bigint();${spec ? `require(${JSON.stringify(spec)});` : ''}process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
    const p = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(String(p.stderr));
    ts.push(Number(p.stdout));
  }
  return median(ts);
}
const base = startup(null);
const sqStart = startup(req.resolve('shell-quote'));
console.log(`start-up: require('shell-quote') costs ${(sqStart - base).toFixed(2)} ms in a fresh node (the hand tokenizer is already in the bundle: 0)`);

// ---------------------------------------------------------------------------------------------
// tap-parser

const rec = await bundle('libs-tap-hand', `export { tapRecogniser } from './lib/distillers/tap.ts';`, false);
const { Parser } = await import(pathToFileURL(req.resolve('tap-parser')).href);
const tapCases = readdirSync('corpus/cases').sort().filter((d) => {
  const f = join('corpus/cases', d, 'output.txt');
  return existsSync(f) && /^TAP version \d+$/m.test(readFileSync(f, 'utf8'));
});
const strip = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** The recogniser's classification: passing TAP results, detail lines, subtest lead-ins. */
function handCounts(text, topLevel) {
  const r = rec.tapRecogniser({ topLevel });
  const n = { ok: 0, detail: 0, lead: 0 };
  for (const l of text.split('\n')) {
    const h = r.see({}, strip(l));
    if (!h) continue;
    if (h.noun === 'passing TAP results') n.ok++;
    else if (h.lead) n.lead++;
    else n.detail++;
  }
  return n;
}
/** tap-parser's: passing non-skip/todo asserts (nested, or any for node:test), YAML lines, subtests. */
function parserCounts(text, topLevel) {
  const n = { ok: 0, detail: 0, lead: 0 };
  const watch = (p, depth) => {
    p.on('assert', (a) => { if (a.ok && !a.todo && !a.skip && (depth > 0 || topLevel)) n.ok++; });
    p.on('child', (c) => { n.lead++; watch(c, depth + 1); });
    p.on('plan', () => { if (depth > 0) n.detail++; });
  };
  const p = new Parser();
  watch(p, 0);
  p.end(text);
  return n;
}
console.log('\n## tap-parser vs lib/distillers/tap.ts\n');
let same = 0;
const rows = [];
for (const d of tapCases) {
  const text = strip(readFileSync(join('corpus/cases', d, 'output.txt'), 'utf8'));
  const topLevel = /duration_ms:/.test(text);
  const a = handCounts(text, topLevel), b = parserCounts(text, topLevel);
  if (a.ok === b.ok) same++;
  rows.push(`  ${d}: passing results hand ${a.ok}, tap-parser ${b.ok}`);
}
console.log(`${tapCases.length} TAP corpus cases; passing-result count agrees on ${same}`);
for (const r of rows) console.log(r);
const tapText = tapCases.map((d) => strip(readFileSync(join('corpus/cases', d, 'output.txt'), 'utf8')));
const bytes = tapText.reduce((s, t) => s + t.length, 0);
const time = (fn) => {
  const ts = [];
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) for (const t of tapText) fn(t);
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(ts);
};
const hMs = time((t) => handCounts(t, false)), pMs = time((t) => parserCounts(t, false));
const mbps = (ms) => ((bytes * 20) / 1e6 / (ms / 1000)).toFixed(1);
console.log(`CPU over the TAP cases: recogniser ${mbps(hMs)} MB/s, tap-parser ${mbps(pMs)} MB/s (${(pMs / hMs).toFixed(1)}× the CPU)`);
const tpStart = startup(req.resolve('tap-parser'));
console.log(`start-up: require('tap-parser') costs ${(tpStart - base).toFixed(2)} ms in a fresh node (the recogniser: 0, it is in the bundle)`);
