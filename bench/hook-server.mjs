// `node bench/hook-server.mjs [--calls 1000]`: the warm MCP hook server (`omni mcp --hook-tool`)
// as Claude Code's mcp_tool handlers use it, driven by the MCP SDK's own client over stdio.
//
//   1. per-call time of omni_hook (client round trip) for PostToolUse Bash payloads built from
//      the corpus, one call at a time: median and p95;
//   2. the same calls 8 at a time (Claude Code runs parallel tool calls);
//   3. the server's RSS (VmRSS from /proc) after 100 warm-up calls and after --calls more;
//   4. the store opened once: the server's open count is not visible from outside, so the
//      number of file descriptors on omni.db before and after is printed instead;
//   5. --store-mb N (default 200; 0 skips it): per-call time on an empty store against one grown to N MB (blobs,
//      runs and ledger rows in the shape bench/store.mjs builds), two servers, calls alternated;
//   6. --vs <other dist/omni.cjs>: this build's server against another's (e.g. main's), each on
//      its own store, warmed alike, calls alternated, and their sessions' first calls alternated.
import { readdirSync, readFileSync, readlinkSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CALLS = arg('calls', 1000);
if (!process.argv.includes('--no-build')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

const root = 'corpus/cases';
const cases = readdirSync(root).filter((n) => existsSync(path.join(root, n, 'output.txt'))).sort().map((n) => ({
  cmd: readFileSync(path.join(root, n, 'cmd.txt'), 'utf8').trim(),
  out: readFileSync(path.join(root, n, 'output.txt'), 'utf8').replace(/\n$/, ''),
  code: Number((existsSync(path.join(root, n, 'exit_code.txt')) ? readFileSync(path.join(root, n, 'exit_code.txt'), 'utf8') : '0').trim() || '0'),
})).filter((c) => c.code === 0);
const base = JSON.parse(readFileSync('test/fixtures/claude-code/PostToolUse.Bash.seq-1-300.json', 'utf8'));
const fields = ['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'agent_id', 'agent_type', 'hook_event_name', 'tool_name', 'tool_input', 'tool_response', 'tool_use_id', 'error', 'is_interrupt', 'duration_ms'];
const home = mkdtempSync(path.join(tmpdir(), 'omni-bench-hook-server-'));
const proj = mkdtempSync(path.join(tmpdir(), 'omni-bench-proj-'));
function args(i) {
  const c = cases[i % cases.length];
  const p = { ...base, session_id: `00000000-0000-4000-8000-${String(i % 16).padStart(12, '0')}`, cwd: proj, tool_use_id: `toolu_bench_${i}`, tool_input: { command: c.cmd, description: 'bench' }, tool_response: { ...base.tool_response, stdout: c.out } };
  const a = { omni_hook: 'post-hook' };
  for (const f of fields) a[f] = p[f] === undefined ? '' : typeof p[f] === 'string' ? p[f] : JSON.stringify(p[f]);
  return a;
}

// The server's environment as omni init registers it (lib/hosts/claude/mcp-transport.ts), unless OMNI_BENCH_ARENAS=default.
const env = { ...process.env, OMNI_HOME: home, ...(process.env.OMNI_BENCH_ARENAS === 'default' ? {} : { MALLOC_ARENA_MAX: '1', OMNI_SET_MALLOC_ARENA_MAX: '1' }) };
delete env.NODE_OPTIONS;
if (process.env.OMNI_BENCH_NODE_OPTIONS) env.NODE_OPTIONS = process.env.OMNI_BENCH_NODE_OPTIONS;
// The session's first call: a fresh server, idle for 1 s after it connects (the host starts
// it at SessionStart, well before the first tool call), then one call; 5 servers on a store
// that exists (a sixth, first, creates it and is not counted), median.
const firstCalls = [];
const fh = mkdtempSync(path.join(tmpdir(), 'omni-bench-first-'));
for (let k = 0; k < 6; k++) {
  const tr = new StdioClientTransport({ command: process.execPath, args: [path.resolve('dist/omni.cjs'), 'mcp', '--hook-tool'], env: { ...env, OMNI_HOME: fh }, cwd: proj, stderr: 'inherit' });
  const c = new Client({ name: 'bench-first', version: '0' });
  await c.connect(tr);
  await new Promise((r) => setTimeout(r, 1000));
  const t0 = performance.now();
  await c.callTool({ name: 'omni_hook', arguments: args(3) });
  if (k > 0) firstCalls.push(performance.now() - t0);
  await c.close();
}
rmSync(fh, { recursive: true, force: true });
const transport = new StdioClientTransport({ command: process.execPath, args: [path.resolve('dist/omni.cjs'), 'mcp', '--hook-tool'], env, cwd: proj, stderr: 'inherit' });
const client = new Client({ name: 'bench', version: '0' });
await client.connect(transport);
const pid = transport.pid;
const statusKb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const rssKb = () => statusKb('VmRSS');
const dbFds = () => { try { return readdirSync(`/proc/${pid}/fd`).filter((f) => { try { return readlinkSync(`/proc/${pid}/fd/${f}`).endsWith('omni.db'); } catch { return false; } }).length; } catch { return -1; } };
let replied = 0;
const call = async (i) => {
  const t0 = performance.now();
  const r = await client.callTool({ name: 'omni_hook', arguments: args(i) });
  if (r.content[0].text) replied++;
  return performance.now() - t0;
};
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]; };

// Warm-up (--warm, default 500 calls): every corpus case at least once, so every distiller module
// is loaded and every statement prepared, and the heap has grown to its working size.
const WARM = Math.max(arg("warm", 500), cases.length);
for (let i = 0; i < WARM; i++) await call(i);
const rss0 = rssKb();
const anon0 = statusKb('RssAnon');
const file0 = statusKb('RssFile');
const fds0 = dbFds();
const seq = [];
const trail = [];
for (let i = WARM; i < WARM + CALLS; i++) {
  seq.push(await call(i));
  if ((i - WARM) % 250 === 249) trail.push(((rssKb() - rss0) / 1024).toFixed(1));
}
const rss1 = rssKb();
const anon1 = statusKb('RssAnon');
const file1 = statusKb('RssFile');
const par = [];
const t0 = performance.now();
for (let i = 0; i < 200; i += 8) par.push(...(await Promise.all(Array.from({ length: 8 }, (_, k) => call(WARM + CALLS + i + k)))));
const parWall = performance.now() - t0;
const rss2 = rssKb();
console.log(`omni_hook over stdio, ${cases.length} corpus Bash outputs cycled, ${replied} of ${WARM + CALLS + 200} calls replied`);
console.log(`| measure | value |\n|---|---:|`);
console.log(`| per call, one at a time (${CALLS} calls), median | ${q(seq, 0.5).toFixed(1)} ms |`);
console.log(`| per call, one at a time, p95 | ${q(seq, 0.95).toFixed(1)} ms |`);
console.log(`| 8 in parallel, 200 calls: wall per call | ${(parWall / 200).toFixed(1)} ms |`);
console.log(`| the session's first call (fresh server, 1 s after start), median of 5 | ${q(firstCalls, 0.5).toFixed(1)} ms |`);
console.log(`| RSS after ${WARM} warm-up calls | ${(rss0 / 1024).toFixed(1)} MB |`);
console.log(`| RSS growth over ${CALLS} more calls | ${((rss1 - rss0) / 1024).toFixed(1)} MB |`);
console.log(`| of which anonymous / file-backed | ${((anon1 - anon0) / 1024).toFixed(1)} / ${((file1 - file0) / 1024).toFixed(1)} MB |`);
console.log(`| RSS growth every 250 calls (cumulative) | ${trail.join(', ')} MB |`);
console.log(`| RSS growth after 200 parallel calls more | ${((rss2 - rss0) / 1024).toFixed(1)} MB |`);
console.log(`| omni.db descriptors open (after warm-up / at the end) | ${fds0} / ${dbFds()} |`);
await client.close();

const STORE_MB = arg('store-mb', 200);
if (STORE_MB > 0) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const Database = require('better-sqlite3');
  const { randomBytes, createHash } = await import('node:crypto');
  async function server(homeDir) {
    const c = new Client({ name: 'bench', version: '0' });
    const tr = new StdioClientTransport({ command: process.execPath, args: [path.resolve('dist/omni.cjs'), 'mcp', '--hook-tool'], env: { ...env, OMNI_HOME: homeDir }, cwd: proj, stderr: 'inherit' });
    await c.connect(tr);
    return c;
  }
  const homes = { empty: mkdtempSync(path.join(tmpdir(), 'omni-bench-empty-')), big: mkdtempSync(path.join(tmpdir(), 'omni-bench-big-')) };
  // Let omni create the schema, then grow the store.
  { const c = await server(homes.big); await c.callTool({ name: 'omni_hook', arguments: args(0) }); await c.close(); }
  const db = new Database(path.join(homes.big, 'omni.db'));
  const blob = db.prepare('INSERT INTO blobs(handle, data, size, kind, created, used) VALUES (?, ?, ?, ?, ?, ?)');
  const del = db.prepare('INSERT INTO deliveries(session, agent, cwd, at, n, hashes) VALUES (?, ?, ?, ?, ?, ?)');
  const run = db.prepare('INSERT INTO runs(at, door, family, command, session, cwd, bytes_in, bytes_out, applied) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const now = Date.now();
  let n = 0;
  const t0 = performance.now();
  while (db.prepare('PRAGMA page_count').pluck().get() * db.prepare('PRAGMA page_size').pluck().get() < STORE_MB * 1048576) {
    db.transaction(() => {
      for (let k = 0; k < 500; k++, n++) {
        const data = randomBytes(32 * 1024);
        const at = now - (n % 20) * 86400e3;
        blob.run(createHash('sha256').update(data).digest('hex').slice(0, 16), data, data.length, n % 3 ? 'fold' : 'raw', at, at);
        const sess = `sess-${n % 3000}`;
        // The bench's own cwd and sessions get rows too, so the ledger lookups have history to read.
        del.run(n % 4 === 0 ? `00000000-0000-4000-8000-${String(n % 16).padStart(12, '0')}` : sess, 'main', n % 2 ? proj : `/proj/${n % 40}`, at, 64, randomBytes(64 * 8));
        run.run(at, 'hook', 'generic', 'make', sess, `/proj/${n % 40}`, 5000, 500, 1);
      }
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const size = (await import('node:fs')).statSync(path.join(homes.big, 'omni.db')).size;
  console.log(`\nstore growth: built a ${(size / 1048576).toFixed(0)} MB store (${n} blobs, runs, ledger rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const clients = { empty: await server(homes.empty), big: await server(homes.big) };
  const times = { empty: [], big: [] };
  const timed = async (c, i) => { const t = performance.now(); await c.callTool({ name: 'omni_hook', arguments: args(i) }); return performance.now() - t; };
  for (let i = 0; i < 300; i++) for (const k of ['empty', 'big']) await timed(clients[k], i); // warm-up
  for (let i = 300; i < 1300; i++) for (const k of i % 2 ? ['empty', 'big'] : ['big', 'empty']) times[k].push(await timed(clients[k], i));
  console.log(`| store | per call median | p95 |\n|---|---:|---:|`);
  for (const k of ['empty', 'big']) console.log(`| ${k === 'big' ? `${(size / 1048576).toFixed(0)} MB` : 'empty'} | ${q(times[k], 0.5).toFixed(2)} ms | ${q(times[k], 0.95).toFixed(2)} ms |`);
  console.log(`difference of medians: ${(q(times.big, 0.5) - q(times.empty, 0.5)).toFixed(2)} ms (target: at most +1 ms)`);
  await clients.empty.close();
  await clients.big.close();
  for (const h of Object.values(homes)) rmSync(h, { recursive: true, force: true });
}
const VS = process.argv.includes('--vs') ? path.resolve(process.argv[process.argv.indexOf('--vs') + 1]) : null;
if (VS) {
  const bins = { this: path.resolve('dist/omni.cjs'), vs: VS };
  const start = async (bin, homeDir) => {
    const c = new Client({ name: 'bench-vs', version: '0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--hook-tool'], env: { ...env, OMNI_HOME: homeDir }, cwd: proj, stderr: 'inherit' }));
    return c;
  };
  const timed = async (c, i) => { const t = performance.now(); await c.callTool({ name: 'omni_hook', arguments: args(i) }); return performance.now() - t; };
  const first = { this: [], vs: [] };
  for (let k = 0; k < 6; k++) {
    for (const name of k % 2 ? ['this', 'vs'] : ['vs', 'this']) {
      const h = mkdtempSync(path.join(tmpdir(), 'omni-bench-vs-first-'));
      const c = await start(bins[name], h);
      await new Promise((r) => setTimeout(r, 1000));
      first[name].push(await timed(c, 3));
      await c.close();
      rmSync(h, { recursive: true, force: true });
    }
  }
  const homes = { this: mkdtempSync(path.join(tmpdir(), 'omni-bench-vs-')), vs: mkdtempSync(path.join(tmpdir(), 'omni-bench-vs-')) };
  const clients = { this: await start(bins.this, homes.this), vs: await start(bins.vs, homes.vs) };
  const times = { this: [], vs: [] };
  for (let i = 0; i < WARM; i++) for (const k of ['this', 'vs']) await timed(clients[k], i);
  for (let i = WARM; i < WARM + CALLS; i++) for (const k of i % 2 ? ['this', 'vs'] : ['vs', 'this']) times[k].push(await timed(clients[k], i));
  console.log(`\nthis build against ${VS}, calls alternated (${CALLS} each after ${WARM} warm-up):\n`);
  console.log(`| server | per call median | p95 | a session's first call, median of 6 |\n|---|---:|---:|---:|`);
  for (const k of ['this', 'vs']) console.log(`| ${k === 'this' ? 'this build' : '--vs'} | ${q(times[k], 0.5).toFixed(2)} ms | ${q(times[k], 0.95).toFixed(2)} ms | ${q(first[k], 0.5).toFixed(1)} ms |`);
  for (const c of Object.values(clients)) await c.close();
  for (const h of Object.values(homes)) rmSync(h, { recursive: true, force: true });
}
for (const d of [home, proj]) rmSync(d, { recursive: true, force: true });
