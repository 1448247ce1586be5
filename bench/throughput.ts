// omni pipe on a 100 MB mixed log: CPU time (user + sys of the one process reading the
// stream) and wall time, against Node's own stdin -> stdout passthrough and cat, measured
// side by side in the same run (the machine is shared: medians of BENCH_RUNS runs).
import { createWriteStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mixedLog } from './mixed-log.js';
import { median, OMNI } from './util.js';

const MB = Number(process.env.BENCH_MB ?? 100);
const dir = mkdtempSync(join(tmpdir(), 'omni-tp-'));
const file = join(dir, 'mixed.log');
const ws = createWriteStream(file);
for (const b of mixedLog(MB << 20)) if (!ws.write(b)) await new Promise<void>((r) => ws.once('drain', () => r()));
await new Promise<void>((r) => ws.end(() => r()));
const size = statSync(file).size;
const env = { ...process.env, OMNI_HOME: join(dir, 'home') };
const runs = Number(process.env.BENCH_RUNS ?? 3);

/** `cat file | <reader> > out`: wall ms and the reader's CPU ms (user + sys, /usr/bin/time). */
function timed(reader: string, out: string): { wall: number; cpu: number } {
  const tf = join(dir, 'time.txt');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', `cat ${file} | /usr/bin/time -f '%U %S' -o ${tf} ${reader} > ${out}`], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${reader} exited ${r.status}`);
  const [u, s] = readFileSync(tf, 'utf8').trim().split(/\s+/).map(Number);
  return { wall, cpu: (u + s) * 1000 };
}

const cat: number[] = [], nodeWall: number[] = [], nodeCpu: number[] = [], omniWall: number[] = [], omniCpu: number[] = [];
for (let i = 0; i < runs; i++) {
  cat.push(timed('cat', '/dev/null').wall);
  const n = timed(`${process.execPath} -e "process.stdin.pipe(process.stdout)"`, '/dev/null');
  nodeWall.push(n.wall); nodeCpu.push(n.cpu);
  const o = timed(`${process.execPath} ${OMNI} pipe`, join(dir, 'out.txt'));
  omniWall.push(o.wall); omniCpu.push(o.cpu);
}
const mbs = (ms: number) => (size / 1048576) / (ms / 1000);
const out = statSync(join(dir, 'out.txt')).size;
const ratio = median(omniCpu) / median(nodeCpu);
console.log(`input ${(size / 1048576).toFixed(1)} MB, ${runs} runs, medians`);
console.log(`cat                 ${median(cat).toFixed(0)} ms wall  ${mbs(median(cat)).toFixed(0)} MB/s`);
console.log(`node passthrough    ${median(nodeWall).toFixed(0)} ms wall  ${mbs(median(nodeWall)).toFixed(0)} MB/s  CPU ${median(nodeCpu).toFixed(0)} ms`);
console.log(`omni pipe           ${median(omniWall).toFixed(0)} ms wall  ${mbs(median(omniWall)).toFixed(1)} MB/s  CPU ${median(omniCpu).toFixed(0)} ms`);
console.log(`omni CPU / node passthrough CPU  ${ratio.toFixed(1)}x (${(1 / ratio).toFixed(2)}x throughput; target <= 4x, >= 0.25x)`);
console.log(`output ${(out / 1048576).toFixed(1)} MB (${(100 * (1 - out / size)).toFixed(1)}% saved)`);
