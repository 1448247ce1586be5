// Time from a slow producer's line (one every 50 ms) to omni's output line, through
// `omni exec`. A producer that never goes quiet is held for the whole window
// (DEFAULT_HOLD_MS, 2 s); after it the run streams, and that steady state is what the p99
// target is about. Lines produced before the first output line are the held ones.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OMNI, percentile, median } from './util.js';

const N = Number(process.env.BENCH_LINES ?? 120);
const dir = mkdtempSync(join(tmpdir(), 'omni-lat-'));
const producer = join(dir, 'producer.mjs');
writeFileSync(producer, `let i = 0; const t = setInterval(() => { process.stdout.write('line ' + i + ' ' + Date.now() + '\\n'); if (++i >= ${N}) clearInterval(t); }, 50);`);
const child = spawn(process.execPath, [OMNI, 'exec', process.execPath, producer], { env: { ...process.env, OMNI_HOME: join(dir, 'home') } });
const lat: number[] = [];
const produced: number[] = [];
let firstOut = 0;
let buf = '';
child.stdout.on('data', (b: Buffer) => {
  const now = Date.now();
  buf += b.toString();
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    const m = /^line (\d+) (\d+)$/.exec(line);
    if (m) { lat.push(now - Number(m[2])); produced.push(Number(m[2])); if (!firstOut) firstOut = now; }
  }
});
await new Promise((r) => child.on('close', r));
const steady = lat.filter((_, i) => produced[i] > firstOut);
console.log(`${lat.length}/${N} lines seen; first line after ${lat[0]} ms (hold window)`);
console.log(`held lines: ${lat.length - steady.length}; streamed lines: ${steady.length}`);
console.log(`steady state: p50 ${median(steady)} ms, p99 ${percentile(steady, 99)} ms, max ${Math.max(...steady)} ms (target p99 <= 5 ms)`);
