// `node bench/host-overhead.mjs [--calls 20] [--rounds 3]`: what omni costs per tool call in
// the real Claude Code CLI (the pinned 2.1.332), by transport.
//
// Each round runs the same script three times, interleaved: no omni, omni's command hooks as
// `omni init` installs them (OMNI_CLAUDE_TRANSPORT=command), and omni's mcp_tool handlers
// (OMNI_CLAUDE_TRANSPORT=mcp_tool). The script is N Bash calls of a 400-line noisy output that
// omni distils, played by the loopback stand-in (test/real-host/standin.ts). A call's span is the
// time from the stand-in's request that asked for the call to the next request, which carries
// its result: the tool, the CLI's own work and every hook (PreToolUse and PostToolUse). Overhead
// is a span minus the no-omni median for the same step, pooled over rounds; the first call
// (which can wait for the MCP server to connect) is reported apart. Medians and p95.
//
// Where a call's time goes, from the CLI's own debug log (the harness always writes one): for
// mcp_tool, from "mcp_tool calling" to "Successfully parsed" (the handler's round trip as the CLI
// sees it); for command hooks, the duration the CLI prints for each hook process. With --trace,
// the mcp_tool runs also set OMNI_HOOK_TRACE, and omni's server logs each tools/call's time from
// the request read to the answer written: the round trip minus that is the CLI's and the pipe's.
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CALLS = arg('calls', 20);
const TRACE = process.argv.includes('--trace');
const ROUNDS = arg('rounds', 3);

const out = path.resolve('bench/out');
mkdirSync(out, { recursive: true });
if (!process.argv.includes('--no-build')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const harnessFile = path.join(out, 'real-host-harness.mjs');
await build({
  entryPoints: ['test/real-host/harness.ts'], outfile: harnessFile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { runClaude, claudeBin } = await import(harnessFile);

const NOISE = `for i in $(seq 1 400); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "added 400 packages in 3s"`;
const script = [...Array.from({ length: CALLS }, (_, i) => ({ tool: 'Bash', input: { command: NOISE, description: `call ${i}` } })), { text: 'done' }];

/** Per step k, ms from the request that got step k's tool_use to the next one (which carries its result). */
function spans(run) {
  const msgs = run.requests.filter((r) => /\/v1\/messages(\?|$)/.test(r.url) && r.answered.kind === 'tool');
  const all = run.requests.filter((r) => /\/v1\/messages(\?|$)/.test(r.url));
  const out = [];
  for (const r of msgs) {
    const next = all.find((x) => x.seq > r.seq);
    if (next) out[r.answered.step] = Date.parse(next.time) - Date.parse(r.time);
  }
  return out;
}

// A user's NODE_EXTRA_CA_CERTS reaches the CLI and so its hooks (omni's command hooks drop it
// themselves, `env -u`); --no-ca leaves it out.
const CA = process.env.NODE_EXTRA_CA_CERTS && !process.argv.includes('--no-ca') ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {};
const CONFIGS = [
  { name: 'none', opts: { withOmni: false } },
  { name: 'command', opts: { withOmni: true, initEnv: { OMNI_CLAUDE_TRANSPORT: 'command' } } },
  { name: 'mcp_tool', opts: { withOmni: true, initEnv: { OMNI_CLAUDE_TRANSPORT: 'mcp_tool' } }, env: TRACE ? { OMNI_HOOK_TRACE: '1' } : {} },
];

/** Per tool call (calls 2..N of a run), the hook time the CLI logged, and omni's server time. */
function breakdown(run) {
  let debug = '';
  try { debug = readFileSync(path.join(run.dir, 'debug.log'), 'utf8'); } catch { /* none */ }
  const at = (line) => Date.parse(line.slice(0, 24));
  const lines = debug.split('\n');
  const roundTrips = [];
  const commands = [];
  for (let k = 0; k < lines.length; k++) {
    if (lines[k].includes('Hooks: mcp_tool calling omni/')) {
      const back = lines.slice(k + 1).find((l) => l.includes('Successfully parsed and validated hook JSON output'));
      if (back) roundTrips.push(at(back) - at(lines[k]));
    }
    const m = /Hooks: PostToolUse:\S+ \[.*--post-hook\] finished with status \d+ \((\d+)ms\)/.exec(lines[k]);
    if (m) commands.push(Number(m[1]));
  }
  const server = [...run.hookLog.matchAll(/ mcp tools\/call \S+ answered in ([\d.]+) ms/g)].map((m) => Number(m[1]));
  return { roundTrips: roundTrips.slice(1), commands: commands.slice(1), server: server.slice(1) };
}
const parts = { command: { roundTrips: [], commands: [], server: [] }, mcp_tool: { roundTrips: [], commands: [], server: [] } };
const runs = Object.fromEntries(CONFIGS.map((c) => [c.name, []]));
const distilled = { command: 0, mcp_tool: 0 };
console.log(`CLI ${claudeBin()}; ${CALLS} Bash calls per run, ${ROUNDS} rounds, configs interleaved`);
for (let round = 0; round < ROUNDS; round++) {
  for (const c of CONFIGS) {
    const run = await runClaude({ script, tag: `${c.name}${round}`, env: { ...CA, ...(c.env ?? {}) }, ...c.opts });
    try {
      if (run.exitCode !== 0) throw new Error(`${c.name}: the CLI exited ${run.exitCode}: ${run.stderr.slice(0, 300)}`);
      const s = spans(run);
      runs[c.name].push(s);
      if (c.name !== 'none') distilled[c.name] += run.results.filter((r) => r && r.text.length < 2000).length;
      if (c.name !== 'none') for (const [k, v] of Object.entries(breakdown(run))) parts[c.name][k].push(...v);
      process.stdout.write(`  round ${round + 1} ${c.name}: ${s.filter((x) => x !== undefined).length} spans, ${run.durationMs} ms run\n`);
    } finally {
      run.cleanup();
    }
  }
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const q = (xs, p) => { const s = sorted(xs); return s.length ? s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))] : NaN; };
const median = (xs) => q(xs, 0.5);
// The no-omni median of each step, over rounds: the floor each configuration's span is compared with.
const floor = Array.from({ length: CALLS }, (_, k) => median(runs.none.map((s) => s[k]).filter((x) => x !== undefined)));
const rows = [];
for (const c of CONFIGS) {
  const later = [];
  const first = [];
  for (const s of runs[c.name]) {
    s.forEach((v, k) => {
      if (v === undefined) return;
      (k === 0 ? first : later).push(v - floor[k]);
    });
  }
  const raw = runs[c.name].flatMap((s) => s.slice(1).filter((x) => x !== undefined));
  // For no omni, the spread of its own spans around their per-step medians: the CLI's own
  // variance, which every configuration's overhead figures carry too.
  const sign = (x) => (x < 0 ? `${x}` : `+${x}`);
  rows.push([c.name, String(median(raw)), c.name === 'none' ? '0' : sign(median(later)), sign(q(later, 0.95)), c.name === 'none' ? '-' : sign(median(first)), c.name === 'none' ? '-' : String(distilled[c.name])]);
}
const head = ['transport', 'span median (ms)', 'overhead median', 'overhead p95', 'first call', 'results distilled'];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => '| ' + r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join(' | ') + ' |';
console.log('\nper Bash call, over no omni (calls 2..N pooled; first call apart):\n');
console.log(line(head));
console.log('|' + w.map((n, i) => (i === 0 ? '-'.repeat(n + 2) : '-'.repeat(n + 1) + ':')).join('|') + '|');
for (const r of rows) console.log(line(r));
const ms = (xs) => (xs.length ? `${median(xs)} / ${q(xs, 0.95)} ms (${xs.length})` : '-');
console.log('\nwhere the time goes, calls 2..N, median / p95 (count):');
console.log(`  command hooks: each PostToolUse process as the CLI times it: ${ms(parts.command.commands)}`);
console.log(`  mcp_tool: the handler's round trip as the CLI logs it ("mcp_tool calling" to "Successfully parsed"): ${ms(parts.mcp_tool.roundTrips)}`);
if (TRACE) console.log(`  mcp_tool: omni's server, request read to answer written (OMNI_HOOK_TRACE): ${ms(parts.mcp_tool.server.map((x) => Math.round(x * 10) / 10))}`);
console.log(`\nload average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}; NODE_EXTRA_CA_CERTS ${CA.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'} in the CLI's environment`);
