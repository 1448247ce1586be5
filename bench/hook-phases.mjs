// `node bench/hook-phases.mjs [--runs 21]`: where the command post-hook's time goes, for a 20 KB
// Bash payload, against `node -e 0` in the same environment, with NODE_EXTRA_CA_CERTS set and
// unset (when this machine sets it). Each row is its own process, rows interleaved, medians of
// wall time and of CPU time (user + sys, /usr/bin/time, mean). The phases are cumulative:
//
//   start-up       node -e 0
//   bundle parse   node dist/omni.cjs --version (the hook bundle parsed, main run to a no-op)
//   hook read      the post-hook with a payload no door takes (tool Glob): stdin, JSON, host
//   pipeline       the 20 KB payload with OMNI_HOME on a file, so the store cannot open
//                  (nothing archived, so nothing removed: the pipeline runs, the reply is '')
//   store + reply  the 20 KB payload as installed: the store opens, the run is archived and
//                  recorded, the ledger consulted, the reply written
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const i = process.argv.indexOf('--runs');
const N = i > 0 ? Number(process.argv[i + 1]) : 21;
if (!process.argv.includes('--no-build')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const OMNI = path.resolve('dist/omni.cjs');
const dir = mkdtempSync(path.join(tmpdir(), 'omni-phases-'));
const stdout = Array.from({ length: 700 }, (_, k) => `Downloading package-${k % 9} ${k}%`).join('\n').slice(0, 20000) + '\ndone';
const payload = (tool) => JSON.stringify({
  session_id: '00000000-0000-4000-8000-000000000000', transcript_path: path.join(dir, 't.jsonl'), cwd: dir,
  permission_mode: 'bypassPermissions', hook_event_name: 'PostToolUse', tool_name: tool,
  tool_input: { command: './fetch-all.sh', description: 'fetch' },
  tool_response: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  tool_use_id: 'toolu_01', duration_ms: 12,
});
const bash = path.join(dir, 'bash.json');
const glob = path.join(dir, 'glob.json');
writeFileSync(bash, payload('Bash'));
writeFileSync(glob, payload('Glob'));
const noStore = path.join(dir, 'not-a-dir');
writeFileSync(noStore, '');

const rows = [
  ['start-up (node -e 0)', ['-e', '0'], null, {}],
  ['bundle parse (--version)', [OMNI, '--version'], null, {}],
  ['hook read (payload for no door)', [OMNI, '--post-hook'], glob, {}],
  ['pipeline, no store', [OMNI, '--post-hook'], bash, { OMNI_HOME: noStore }],
  ['store + reply (as installed)', [OMNI, '--post-hook'], bash, {}],
];
const ca = process.env.NODE_EXTRA_CA_CERTS;
const envs = ca ? [['NODE_EXTRA_CA_CERTS set', { NODE_EXTRA_CA_CERTS: ca }], ['unset', {}]] : [['NODE_EXTRA_CA_CERTS unset', {}]];

// CPU (user + sys) comes from /usr/bin/time, which rounds to 10 ms: the table gives its mean over
// the runs, which resolves below the rounding, beside the median wall time. (getrusage read by a
// python3 or bash parent reported 50-90 ms of CPU for a `node -e 0` that took 17 ms of wall time
// on two cores on this VM, so those readings are not used.)
function once(args, input, extra, caEnv) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OMNI_HOME: path.join(dir, 'home'), ...caEnv, ...extra };
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { input: input ? (globalThis.__cache ??= {})[input] ??= require_(input) : undefined, env, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const [u, s] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: (u + s) * 1000, out: r.stdout.length };
}
function require_(f) { return spawnSync('cat', [f]).stdout; }

const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [label, caEnv] of envs) {
  const t = rows.map(() => ({ wall: [], cpu: [], out: 0 }));
  for (let n = 0; n < N; n++) rows.forEach(([, args, input, extra], k) => { const r = once(args, input, extra, caEnv); t[k].wall.push(r.wall); t[k].cpu.push(r.cpu); t[k].out = r.out; });
  const w0 = med(t[0].wall);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const c0 = mean(t[0].cpu);
  console.log(`\n${label} (wall medians and CPU means of ${N}; × node -e 0 in the same environment)\n`);
  console.log('| phase (cumulative) | wall ms | × | CPU ms | × | reply B |\n|---|---:|---:|---:|---:|---:|');
  rows.forEach(([name], k) => console.log(`| ${name} | ${med(t[k].wall).toFixed(0)} | ${(med(t[k].wall) / w0).toFixed(2)} | ${mean(t[k].cpu).toFixed(1)} | ${(mean(t[k].cpu) / c0).toFixed(2)} | ${t[k].out} |`));
}
rmSync(dir, { recursive: true, force: true });
console.log('\n(wall: median of the child alone; CPU: mean of /usr/bin/time 10 ms readings; the store row writes to a store that grows by one run per call)');
