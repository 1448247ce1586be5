// Peak RSS of `omni pipe` on a 1 GiB stream (and on 100 MiB, to show it stays flat), and of
// `omni exec` printing the same 100 MiB from a file: exec's reader thread may run up to
// READ_AHEAD_BYTES (lib/doors/child-reader.ts) ahead of the pipeline, so its peak is its own.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mixedLog } from './mixed-log.js';
import { OMNI } from './util.js';

async function peakRss(totalMB: number): Promise<{ mb: number; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'omni-rss-'));
  const t0 = Date.now();
  const child = spawn('/usr/bin/time', ['-f', '%M', '-o', join(dir, 'rss'), process.execPath, OMNI, 'pipe'], {
    stdio: ['pipe', 'ignore', 'inherit'], env: { ...process.env, OMNI_HOME: join(dir, 'home') },
  });
  for (const b of mixedLog(totalMB << 20)) {
    if (!child.stdin.write(b)) await new Promise<void>((r) => child.stdin.once('drain', () => r()));
  }
  child.stdin.end();
  await new Promise((r) => child.on('close', r));
  return { mb: Number(readFileSync(join(dir, 'rss'), 'utf8').trim()) / 1024, ms: Date.now() - t0 };
}

const sizes = (process.env.BENCH_RSS_MB ?? '100,1024').split(',').map(Number);
for (const s of sizes) {
  const r = await peakRss(s);
  console.log(`${String(s).padStart(5)} MiB stream: peak RSS ${r.mb.toFixed(0)} MiB (target <= 100 MiB, flat), ${(s / (r.ms / 1000)).toFixed(1)} MiB/s`);
}

/** `omni exec 'cat <log>'`: the log written to a file first, so the producer is as fast as cat. */
async function execPeakRss(totalMB: number): Promise<{ mb: number; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'omni-rss-exec-'));
  const log = join(dir, 'mixed.log');
  const out = createWriteStream(log);
  for (const b of mixedLog(totalMB << 20)) {
    if (!out.write(b)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  const t0 = Date.now();
  const child = spawn('/usr/bin/time', ['-f', '%M', '-o', join(dir, 'rss'), process.execPath, OMNI, 'exec', `cat '${log}'`], {
    stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, OMNI_HOME: join(dir, 'home') },
  });
  await new Promise((r) => child.on('close', r));
  return { mb: Number(readFileSync(join(dir, 'rss'), 'utf8').trim()) / 1024, ms: Date.now() - t0 };
}

const execMB = Number(process.env.BENCH_RSS_EXEC_MB ?? '100');
if (execMB > 0) {
  const r = await execPeakRss(execMB);
  console.log(`${String(execMB).padStart(5)} MiB exec:   peak RSS ${r.mb.toFixed(0)} MiB, ${(execMB / (r.ms / 1000)).toFixed(1)} MiB/s`);
}
