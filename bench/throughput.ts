// omni pipe on a mixed log, 100 MB and 1 GB (BENCH_SIZES, in MiB): CPU time (user + sys of
// the one process reading the stream), wall time and peak RSS, against Node's own stdin ->
// stdout passthrough and cat, measured side by side in the same run (the machine is shared:
// medians of BENCH_RUNS runs), printed as ratios to Node passthrough. BENCH_COMMAND adds a row
// for `omni pipe --command "<it>"` (e.g. 'cat app.log': the logs distiller, a marker for
// nearly every repeated line, so the archive's writes show). BENCH_BASE names another bundle
// (e.g. main's dist/omni.cjs, copied aside) for a row of its own in the same interleaved runs:
// before -> after on the same machine load.
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mixedLog } from './mixed-log.js';
import { median, OMNI } from './util.js';

const sizes = (process.env.BENCH_SIZES ?? process.env.BENCH_MB ?? '100,1024').split(',').map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const command = process.env.BENCH_COMMAND;
const dir = mkdtempSync(join(tmpdir(), 'omni-tp-'));

interface Sample { wall: number; cpu: number; rssMiB: number }

/** `cat file | <reader> > out`: wall ms, and the reader's CPU ms (user + sys) and peak RSS (/usr/bin/time). */
function timed(file: string, reader: string, out: string): Sample {
  const tf = join(dir, 'time.txt');
  // A fresh store each run: the archive's cost is what a first run pays.
  const env = { ...process.env, OMNI_HOME: join(dir, `home-${Date.now()}`) };
  const t0 = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', `cat ${file} | /usr/bin/time -f '%U %S %M' -o ${tf} ${reader} > ${out}`], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${reader} exited ${r.status}`);
  const [u, s, kb] = readFileSync(tf, 'utf8').trim().split(/\s+/).map(Number);
  rmSync(env.OMNI_HOME, { recursive: true, force: true });
  return { wall, cpu: (u + s) * 1000, rssMiB: kb / 1024 };
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const readers: Array<[string, string, string]> = [
  ['cat', 'cat', '/dev/null'],
  ['node passthrough', `${process.execPath} -e "process.stdin.pipe(process.stdout)"`, '/dev/null'],
  ['omni pipe', `${process.execPath} ${OMNI} pipe`, join(dir, 'out.txt')],
];
const base = process.env.BENCH_BASE;
if (base) readers.push(['omni pipe (BENCH_BASE)', `${process.execPath} ${base} pipe`, join(dir, 'out-base.txt')]);
if (command) readers.push([`omni pipe --command ${command}`, `${process.execPath} ${OMNI} pipe --command ${q(command)}`, join(dir, 'out-cmd.txt')]);

for (const mb of sizes) {
  const file = join(dir, 'mixed.log');
  const ws = createWriteStream(file);
  for (const b of mixedLog(mb << 20)) if (!ws.write(b)) await new Promise<void>((r) => ws.once('drain', () => r()));
  await new Promise<void>((r) => ws.end(() => r()));
  const size = statSync(file).size;
  const samples = readers.map(() => [] as Sample[]);
  // Interleaved, so a burst of load on the shared machine falls on every reader alike.
  for (let i = 0; i < runs; i++) readers.forEach(([, reader, out], k) => samples[k].push(timed(file, reader, out)));
  const med = samples.map((xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)), rss: Math.max(...xs.map((x) => x.rssMiB)) }));
  const node = med[1];
  const mbs = (ms: number) => (size / 1048576) / (ms / 1000);
  console.log(`\ninput ${(size / 1048576).toFixed(0)} MiB mixed log, ${runs} runs, medians (peak RSS: the largest)`);
  console.log(`${'reader'.padEnd(34)} ${'CPU ms'.padStart(8)} ${'x node'.padStart(7)} ${'wall ms'.padStart(8)} ${'MiB/s'.padStart(7)} ${'peak RSS'.padStart(9)}`);
  readers.forEach(([name], k) => {
    const m = med[k];
    console.log(`${name.padEnd(34)} ${m.cpu.toFixed(0).padStart(8)} ${(m.cpu / node.cpu).toFixed(1).padStart(6)}x ${m.wall.toFixed(0).padStart(8)} ${mbs(m.wall).toFixed(0).padStart(7)} ${(m.rss.toFixed(0) + ' MiB').padStart(9)}`);
  });
  console.log(`omni pipe: CPU ${(med[2].cpu / node.cpu).toFixed(1)}x node passthrough (target <= 4x), peak RSS ${med[2].rss.toFixed(0)} MiB (target <= 100 MiB, flat)`);
  if (base) console.log(`omni pipe (BENCH_BASE): CPU ${(med[3].cpu / node.cpu).toFixed(1)}x node passthrough, peak RSS ${med[3].rss.toFixed(0)} MiB`);
  const out = statSync(join(dir, 'out.txt')).size;
  console.log(`omni pipe output ${(out / 1048576).toFixed(1)} MiB (${(100 * (1 - out / size)).toFixed(1)}% saved)`);
  rmSync(file, { force: true });
}
rmSync(dir, { recursive: true, force: true });
