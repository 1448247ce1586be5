// `node bench/hook-phases.mjs [--runs 21] [--ir 3] [--vs <other dist/omni.cjs>]`: where a
// command hook's time goes, for a 20 KB Bash payload, against `node -e 0` in the same
// environment, with NODE_EXTRA_CA_CERTS set and unset (when this machine sets it). Each row is
// its own process, rows interleaved. The phases are cumulative:
//
//   start-up       node -e 0 (and /bin/true: what any process costs here)
//   bundle loaded  the post-hook with nothing on stdin (the hook bundle loaded and its door's
//                  modules set up; no payload, so no reply)
//   hook read      the post-hook with a payload no door takes (tool Glob): stdin, JSON, host
//   pipeline       the 20 KB payload with OMNI_HOME on a file, so the store cannot open
//                  (nothing archived, so nothing removed: the pipeline runs, the reply is '')
//   store + reply  the 20 KB payload as installed: the store opens, the run is archived and
//                  recorded, the ledger consulted, the reply written
//   session start  a SessionStart payload: the store, session memory, no pipeline
//
// Wall time: median of --runs, rows interleaved; CPU: mean of /usr/bin/time's 10 ms readings.
// On a shared machine both swing with the load, so when valgrind is there each row is also
// counted in instructions (callgrind, --ir runs each, median): the main thread, where a hook's
// wall time is spent, less V8's hash-seed primality test (random per process: the one source of
// run-to-run noise left, ~5-12M), and all threads (the main thread plus the compiler and GC
// threads, which take CPU from a loaded machine but do not hold the reply). `--vs` adds the
// post-hook and session-start rows of another build (e.g. main's) to the same run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const N = Number(opt('runs', 21));
const IR = Number(opt('ir', 3));
const VS = opt('vs', null);
if (!process.argv.includes('--no-build')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const OMNI = path.resolve('dist/omni.cjs');
const dir = mkdtempSync(path.join(tmpdir(), 'omni-phases-'));
const stdout = Array.from({ length: 700 }, (_, k) => `Downloading package-${k % 9} ${k}%`).join('\n').slice(0, 20000) + '\ndone';
const base = { session_id: '00000000-0000-4000-8000-000000000000', transcript_path: path.join(dir, 't.jsonl'), cwd: dir, permission_mode: 'bypassPermissions' };
const payload = (tool) => JSON.stringify({
  ...base, hook_event_name: 'PostToolUse', tool_name: tool,
  tool_input: { command: './fetch-all.sh', description: 'fetch' },
  tool_response: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  tool_use_id: 'toolu_01', duration_ms: 12,
});
const inputs = {
  bash: Buffer.from(payload('Bash')),
  glob: Buffer.from(payload('Glob')),
  start: Buffer.from(JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' })),
  empty: Buffer.alloc(0),
};
const noStore = path.join(dir, 'not-a-dir');
writeFileSync(noStore, '');

const node = process.execPath;
const rows = [
  ['/bin/true', '/bin/true', [], null, {}],
  ['start-up (node -e 0)', node, ['-e', '0'], null, {}],
  ['bundle loaded (empty stdin)', node, [OMNI, '--post-hook'], 'empty', {}],
  ['hook read (payload for no door)', node, [OMNI, '--post-hook'], 'glob', {}],
  ['pipeline, no store', node, [OMNI, '--post-hook'], 'bash', { OMNI_HOME: noStore }],
  ['store + reply (as installed)', node, [OMNI, '--post-hook'], 'bash', {}],
  ['session start (store, no pipeline)', node, [OMNI, '--session-start'], 'start', {}],
];
if (VS) {
  const other = path.resolve(VS);
  rows.push([`  --vs: store + reply`, node, [other, '--post-hook'], 'bash', { OMNI_HOME: path.join(dir, 'home-vs') }]);
  rows.push([`  --vs: session start`, node, [other, '--session-start'], 'start', { OMNI_HOME: path.join(dir, 'home-vs') }]);
}
const FLOOR = 1; // node -e 0
const ca = process.env.NODE_EXTRA_CA_CERTS;
const envs = ca ? [['NODE_EXTRA_CA_CERTS set', { NODE_EXTRA_CA_CERTS: ca }], ['unset', {}]] : [['NODE_EXTRA_CA_CERTS unset', {}]];
const envOf = (extra, caEnv) => ({ PATH: process.env.PATH, HOME: process.env.HOME, OMNI_HOME: path.join(dir, 'home'), ...caEnv, ...extra });

// CPU (user + sys) comes from /usr/bin/time, which rounds to 10 ms: the table gives its mean over
// the runs, which resolves below the rounding, beside the median wall time. (getrusage read by a
// python3 or bash parent reported 50-90 ms of CPU for a `node -e 0` that took 17 ms of wall time
// on two cores on this VM, so those readings are not used.)
function once([, cmd, args, input, extra], caEnv) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', cmd, ...args], { input: input ? inputs[input] : undefined, env: envOf(extra, caEnv), encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const [u, s] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: (u + s) * 1000, out: r.stdout.length };
}

/** Instructions of one run: { main, mainLessSeed, all }, or null without valgrind. */
function instructions([, cmd, args, input, extra]) {
  const out = mkdtempSync(path.join(dir, 'cg-'));
  const r = spawnSync('valgrind', ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${path.join(out, 'cg')}`, cmd, ...args], { input: input ? inputs[input] : undefined, env: envOf(extra, {}), encoding: 'utf8' });
  if (r.error || r.status === null) return null;
  let main = 0;
  let all = 0;
  let seed = 0;
  for (const f of readdirSync(out)) {
    const text = readFileSync(path.join(out, f), 'utf8');
    const total = Number(/^(?:totals|summary): (\d+)/m.exec(text)?.[1] ?? 0);
    all += total;
    if (f.endsWith('-01')) {
      main = total;
      const a = spawnSync('callgrind_annotate', ['--threshold=100', path.join(out, f)], { encoding: 'utf8' });
      const m = /^\s*([\d,]+)\s.*detail::sprp/m.exec(a.stdout ?? '');
      if (m) seed = Number(m[1].replace(/,/g, ''));
    }
  }
  rmSync(out, { recursive: true, force: true });
  return { main, mainLessSeed: main - seed, all };
}

const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const [label, caEnv] of envs) {
  const t = rows.map(() => ({ wall: [], cpu: [], out: 0 }));
  for (let n = 0; n < N; n++) rows.forEach((row, k) => { const r = once(row, caEnv); t[k].wall.push(r.wall); t[k].cpu.push(r.cpu); t[k].out = r.out; });
  const w0 = med(t[FLOOR].wall);
  const c0 = mean(t[FLOOR].cpu);
  console.log(`\n${label} (wall medians and CPU means of ${N}; × node -e 0 in the same environment)\n`);
  console.log('| phase (cumulative) | wall ms | × | CPU ms | × | reply B |\n|---|---:|---:|---:|---:|---:|');
  rows.forEach(([name], k) => console.log(`| ${name} | ${med(t[k].wall).toFixed(0)} | ${(med(t[k].wall) / w0).toFixed(2)} | ${mean(t[k].cpu).toFixed(1)} | ${(mean(t[k].cpu) / c0).toFixed(2)} | ${t[k].out} |`));
}

if (IR > 0 && spawnSync('valgrind', ['--version']).status === 0) {
  // Each build's code cache is accepted under valgrind as natively (the same V8 flags); a
  // first run per row settles any cache a row would rewrite before counting.
  const counted = rows.slice(1).map((row) => { instructions(row); return Array.from({ length: IR }, () => instructions(row)); });
  const M = (rs, k) => med(rs.map((r) => r[k])) / 1e6;
  const f0 = M(counted[0], 'mainLessSeed');
  const a0 = M(counted[0], 'all');
  console.log(`\ninstructions (callgrind, NODE_EXTRA_CA_CERTS unset, median of ${IR}; millions; × node -e 0)\n`);
  console.log('| phase (cumulative) | main thread, less hash seed | × | all threads | × |\n|---|---:|---:|---:|---:|');
  rows.slice(1).forEach(([name], k) => console.log(`| ${name} | ${M(counted[k], 'mainLessSeed').toFixed(1)} | ${(M(counted[k], 'mainLessSeed') / f0).toFixed(2)} | ${M(counted[k], 'all').toFixed(1)} | ${(M(counted[k], 'all') / a0).toFixed(2)} |`));
} else if (IR > 0) {
  console.log('\n(no valgrind here: instruction counts skipped)');
}
rmSync(dir, { recursive: true, force: true });
console.log(`\n(wall: median of the child alone; CPU: mean of /usr/bin/time 10 ms readings; the store rows write to a store that grows by one run per call; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')})`);
