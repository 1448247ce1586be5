// `node bench/mcp-tools.mjs`: the bytes of omni's MCP offer on each model request, read from the
// request bodies the real Claude Code CLI (the pinned 2.1.332) sent to the loopback stand-in
// (test/real-host/standin.ts): the `tools` entries named mcp__omni__*, the lines naming them in
// the host's deferred-tool list, and omni's instructions section (test/real-host/offer-bytes.ts).
//
// Three installs by the real `omni init --claude`: the default (the server offers the model
// nothing), `--mcp-tools` (the CLI's default tool search: names only), and `--mcp-tools` with
// ENABLE_TOOL_SEARCH=false (whole definitions). Also what `omni stats` counted per request for
// the same session, which must be the same figure. The descriptions name the project directory,
// so the whole-definition figure moves with its length (here a temp dir like /tmp/omni-real-host-XXXXXX/proj).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const out = path.resolve('bench/out');
mkdirSync(out, { recursive: true });
if (!process.argv.includes('--no-build')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const entry = path.join(out, 'mcp-tools-entry.ts');
writeFileSync(entry, [
  `export { runClaude, claudeBin, omniBin } from '${path.resolve('test/real-host/harness.ts')}';`,
  `export { offerBytes, mainRequests } from '${path.resolve('test/real-host/offer-bytes.ts')}';`,
  `export { INSTRUCTIONS } from '${path.resolve('lib/mcp/server.ts')}';`,
].join('\n'));
const bundle = path.join(out, 'mcp-tools-lib.mjs');
await build({
  entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
  external: ['better-sqlite3'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { runClaude, claudeBin, omniBin, offerBytes, mainRequests, INSTRUCTIONS } = await import(bundle);

const NOISE = `for i in $(seq 1 400); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "added 400 packages in 3s"`;
const script = [...Array.from({ length: 3 }, (_, i) => ({ tool: 'Bash', input: { command: NOISE, description: `call ${i}` } })), { text: 'done' }];
const CONFIGS = [
  { name: 'omni init --claude (default)', args: ['--claude'], env: {} },
  { name: 'omni init --claude --mcp-tools', args: ['--claude', '--mcp-tools'], env: {} },
  { name: '--mcp-tools, ENABLE_TOOL_SEARCH=false', args: ['--claude', '--mcp-tools'], env: { ENABLE_TOOL_SEARCH: 'false' } },
];
console.log(`CLI ${claudeBin()}`);
const rows = [];
for (const c of CONFIGS) {
  const run = await runClaude({ script, withOmni: true, tag: 'bench', initEnv: { OMNI_CLAUDE_BIN: claudeBin() }, initArgs: c.args, env: c.env });
  try {
    if (run.exitCode !== 0) throw new Error(`${c.name}: the CLI exited ${run.exitCode}: ${run.stderr.slice(0, 300)}`);
    const reqs = mainRequests(run.requests);
    const per = reqs.map((r) => offerBytes(r.body, INSTRUCTIONS));
    const body = reqs.map((r) => Buffer.byteLength(JSON.stringify(r.body)));
    const st = spawnSync(process.execPath, [omniBin(), 'stats', '--json', '--since', 'all'], { env: { PATH: process.env.PATH, HOME: run.home, OMNI_HOME: path.join(run.dir, 'omni-home') }, encoding: 'utf8' });
    const cost = JSON.parse(st.stdout).cost;
    const p = per[0];
    rows.push([c.name, String(reqs.length), String(p.tools), String(p.names), String(p.instructions), String(p.total), per.every((x) => x.total === p.total) ? 'yes' : 'no', cost.requests ? String(cost.bytes / cost.requests) : '0', String(Math.round(body.reduce((a, b) => a + b, 0) / body.length))]);
  } finally {
    run.cleanup();
  }
}
const head = ['install', 'requests', 'tools B', 'names B', 'instructions B', 'omni B/request', 'same on every request', 'omni stats B/request', 'mean request body B'];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => '| ' + r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join(' | ') + ' |';
console.log('\nomni\'s MCP offer on each model request of the session:\n');
console.log(line(head));
console.log('|' + w.map((n, i) => (i === 0 ? '-'.repeat(n + 2) : '-'.repeat(n + 1) + ':')).join('|') + '|');
for (const r of rows) console.log(line(r));
