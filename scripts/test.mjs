// The one test command (README, .ci/run): typecheck, build the bundle the process-level
// tests spawn, install the pinned host CLIs the real-host tests run (scripts/host-clis.mjs: once,
// then a no-op), run every tap test, and end with a plain "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';

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
  console.log(`${pass} passed, ${fail + extra} failed${skip ? `, ${skip} skipped` : ''}`);
  process.exit(code ?? 1);
});
