import { spawnSync } from 'node:child_process';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Wall time of a shell command line, in ms. */
export function timeSh(cmd: string, env: NodeJS.ProcessEnv = process.env): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', cmd], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}`);
  return ms;
}

/** The bundle under test; OMNI_BIN names another build (e.g. main's, for side-by-side runs). */
export const OMNI = process.env.OMNI_BIN ?? 'dist/omni.cjs';
