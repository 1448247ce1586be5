// omni pipe on a 100 MB mixed log, MB/s and as a ratio to cat, measured side by side.
import { createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mixedLog } from './mixed-log.js';
import { median, timeSh, OMNI } from './util.js';

const MB = Number(process.env.BENCH_MB ?? 100);
const dir = mkdtempSync(join(tmpdir(), 'omni-tp-'));
const file = join(dir, 'mixed.log');
const ws = createWriteStream(file);
for (const b of mixedLog(MB << 20)) if (!ws.write(b)) await new Promise<void>((r) => ws.once('drain', () => r()));
await new Promise<void>((r) => ws.end(() => r()));
const size = statSync(file).size;
const env = { ...process.env, OMNI_HOME: join(dir, 'home') };
const runs = Number(process.env.BENCH_RUNS ?? 3);
const cat: number[] = [], node: number[] = [], omni: number[] = [];
for (let i = 0; i < runs; i++) {
  cat.push(timeSh(`cat ${file} | cat > /dev/null`));
  node.push(timeSh(`cat ${file} | node -e "process.stdin.pipe(process.stdout)" > /dev/null`));
  omni.push(timeSh(`cat ${file} | node ${OMNI} pipe > ${dir}/out.txt`, env));
}
const mbs = (ms: number) => (size / 1048576) / (ms / 1000);
const out = statSync(join(dir, 'out.txt')).size;
console.log(`input ${(size / 1048576).toFixed(1)} MB, ${runs} runs, medians`);
console.log(`cat                 ${median(cat).toFixed(0)} ms  ${mbs(median(cat)).toFixed(0)} MB/s`);
console.log(`node passthrough    ${median(node).toFixed(0)} ms  ${mbs(median(node)).toFixed(0)} MB/s`);
console.log(`omni pipe           ${median(omni).toFixed(0)} ms  ${mbs(median(omni)).toFixed(1)} MB/s  (target >= 40 MB/s)`);
console.log(`omni / cat time     ${(median(omni) / median(cat)).toFixed(1)}x`);
console.log(`output ${(out / 1048576).toFixed(1)} MB (${(100 * (1 - out / size)).toFixed(1)}% saved)`);
