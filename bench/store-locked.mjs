// `node bench/store-locked.mjs [--runs 7] [--blocks 18]`: what a store held by another
// process costs one `omni --post-hook` call (the built bundle, dist/omni.cjs).
//
// A second process holds `BEGIN EXCLUSIVE` on the store for the whole run. The payload is a
// Claude Code Bash result with `--blocks` separate foldable runs (each one archive block), the
// shape that made every block of a failed batch insert wait again. Prints the median wall
// time of the hook against the same hook on the unlocked store, and the lock waits the hook
// logged. The README promises at most 250 ms of waiting per hook call. KEEP=1 keeps the
// store and its omni.log (the path is printed last).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : dflt; };
const RUNS = arg('--runs', 7);
const BLOCKS = arg('--blocks', 18);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const omni = path.join(root, 'dist', 'omni.cjs');
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

function payload(cwd, salt) {
  const p = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/claude-code/PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  const lines = [];
  for (let b = 0; b < BLOCKS; b++) {
    for (let i = 0; i < 40; i++) lines.push(`Downloading https://registry.example.org/${salt}-block${b}-${i % 3}.tgz 50%`);
    lines.push(`npm warn deprecated package-${b}@1.0.0: use package-${b}@2 instead`);
  }
  lines.push('added 600 packages in 3s');
  p.cwd = cwd;
  p.tool_input.command = 'npm install';
  p.tool_response.stdout = lines.join('\n');
  return JSON.stringify(p);
}

function hook(home, salt) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [omni, '--post-hook'], { input: payload(home, salt), env: { ...env, OMNI_HOME: home } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`hook exited ${r.status}`);
  return { ms, reply: r.stdout.length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-bench-locked-'));
const unlocked = [];
for (let i = 0; i < RUNS; i++) unlocked.push(hook(home, `u${i}`));

const holderCode = `const D = require(${JSON.stringify(path.join(root, 'node_modules', 'better-sqlite3'))});
const db = new D(${JSON.stringify(path.join(home, 'omni.db'))}); db.exec('BEGIN EXCLUSIVE'); process.stdout.write('held\\n'); setInterval(() => {}, 1000);`;
const holder = spawn(process.execPath, ['-e', holderCode], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve) => holder.stdout.once('data', resolve));
fs.rmSync(path.join(home, 'omni.log'), { force: true });
const locked = [];
try {
  for (let i = 0; i < RUNS; i++) locked.push(hook(home, `l${i}`));
} finally {
  holder.kill('SIGKILL');
}
const log = fs.existsSync(path.join(home, 'omni.log')) ? fs.readFileSync(path.join(home, 'omni.log'), 'utf8') : '';
const waits = [...log.matchAll(/store lock: (\d+) waits?\b/g)].reduce((a, m) => a + Number(m[1]), 0);
const lockedErrors = (log.match(/database is locked/g) ?? []).length;

console.log(`omni --post-hook, ${BLOCKS} foldable runs, ${RUNS} runs each (median wall time, node start included)`);
console.log(`  unlocked store: ${median(unlocked.map((r) => r.ms)).toFixed(0)} ms (reply ${unlocked[0].reply} B)`);
console.log(`  locked store:   ${median(locked.map((r) => r.ms)).toFixed(0)} ms (reply ${locked[0].reply} B)`);
console.log(`  extra for the lock: ${(median(locked.map((r) => r.ms)) - median(unlocked.map((r) => r.ms))).toFixed(0)} ms`);
console.log(`  logged: ${waits} lock waits over ${RUNS} calls, ${lockedErrors} "database is locked" entries`);
if (process.env.KEEP) console.log(home); else fs.rmSync(home, { recursive: true, force: true });
