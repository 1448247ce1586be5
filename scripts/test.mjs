// The one test command (README, .ci/run): typecheck, build the bundle the process-level
// tests spawn, install the pinned host CLIs the real-host tests run (scripts/host-clis.mjs: once,
// then a no-op), run every tap test, and end with a plain "N passed, N failed" line. A run that
// wrote into the real home (~/.omni, or a host's settings file omni init edits) fails: every
// test process has a home of its own (test/setup/isolate-home.mjs), and this checks that
// nothing reached the real one anyway (a child spawned without HOME finds it through passwd).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const HOME = homedir();
/** What a test run must leave alone: omni's home, and the files `omni init` writes for each host. */
const WATCHED = ['.omni', '.claude/settings.json', '.claude.json', '.codex/hooks.json', '.codex/config.toml', '.gemini/settings.json', '.cursor/mcp.json', '.pi/agent/settings.json'];

/** path -> size and mtime of every file under the watched places. */
function snapshot() {
  const out = new Map();
  const walk = (p) => {
    let s;
    try { s = statSync(p); } catch { return; }
    if (s.isDirectory()) { for (const n of readdirSync(p)) walk(join(p, n)); return; }
    out.set(p, `${s.size} ${s.mtimeMs}`);
  };
  for (const w of WATCHED) walk(join(HOME, w));
  return out;
}

/** Files added, changed or removed between two snapshots. */
function changed(before, after) {
  const all = new Set([...before.keys(), ...after.keys()]);
  return [...all].filter((p) => before.get(p) !== after.get(p)).sort();
}

const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.log(`0 passed, 1 failed (${cmd} ${args.join(' ')} exited ${r.status})`);
    process.exit(1);
  }
};
step('npx', ['tsc', '--noEmit', '-p', '.']);
step('node', ['scripts/build.mjs']);
// Before tap starts its parallel jobs, so no two test files wait on one install.
step('node', ['scripts/host-clis.mjs']);

const before = snapshot();
const args = ['tap', ...process.argv.slice(2)];
const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
let tail = '';
child.stdout.on('data', (b) => {
  process.stdout.write(b);
  tail = (tail + b.toString()).slice(-4096);
});
child.on('close', (code) => {
  // tap's closing line: "# { total: 12, pass: 11, fail: 1, skip: 0 }"
  const m = [...tail.matchAll(/# \{ (total: \d+[^}]*)\}/g)].pop();
  const count = (k) => Number(new RegExp(`\\b${k}: (\\d+)`).exec(m?.[1] ?? '')?.[1] ?? 0);
  const pass = count('pass');
  // No summary line at all means the run broke before counting: that is a failure.
  const fail = m ? count('fail') : 1;
  const skip = count('skip') + count('todo');
  // A run that failed for a reason other than a failing assertion (coverage below the
  // threshold, a crashed test file) still counts as a failure here.
  const extra = code !== 0 && fail === 0 ? 1 : 0;
  // The real home: anything written there during the run counts as one more failure. A live
  // omni or host on this machine writing the same files meanwhile is reported too.
  const touched = changed(before, snapshot());
  if (touched.length) {
    console.log(`# the test run wrote into the real home ${HOME} (a test or the omni it ran ignored HOME/OMNI_HOME):`);
    for (const p of touched) console.log(`#   ${p}${existsSync(p) ? '' : ' (removed)'}`);
  }
  const home = touched.length ? 1 : 0;
  console.log(`${pass} passed, ${fail + extra + home} failed${skip ? `, ${skip} skipped` : ''}`);
  process.exit(home ? 1 : code ?? 1);
});
