import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LazyStore } from '../../lib/doors/store-access.js';
import { describeRun, type RunRequest } from '../../lib/pipeline/describe.js';
import { distillBuffer, type DistillResult } from '../../lib/pipeline/run.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bundle `npm test` builds first: process-level tests run what users run. */
export const OMNI = join(ROOT, 'dist', 'omni.cjs');

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'omni-test-'));
}

export function omni(args: string[], opts: { input?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [OMNI, ...args], {
    input: opts.input,
    env: { ...process.env, OMNI_HOME: opts.env?.OMNI_HOME ?? tempHome(), ...opts.env },
    cwd: opts.cwd,
    timeout: opts.timeout ?? 60_000,
    maxBuffer: 1 << 30,
  });
}

/** The buffered door with a real store in a fresh home; `exitCode` is how the input ended. */
export async function distill(input: string | Buffer, req: Partial<RunRequest> & { exitCode?: number | null } = {}, home = tempHome()): Promise<DistillResult & { home: string }> {
  const store = new LazyStore(home);
  try {
    const { exitCode, ...rest } = req;
    const r = await distillBuffer(describeRun({ door: 'hook', ...rest }), Buffer.isBuffer(input) ? input : Buffer.from(input), { archive: store.archive(), exitCode });
    return { ...r, home };
  } finally {
    store.close();
  }
}
