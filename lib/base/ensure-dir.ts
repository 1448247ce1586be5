/**
 * `mkdir -p` that ends. Node's `mkdirSync(dir, { recursive: true })` never returns for a path
 * under a filesystem that refuses new directories with ENOENT (`OMNI_HOME=/proc/x`: the parent
 * exists, the child can never be made, and the recursive walk retries forever at 100% CPU).
 * Every door opens the store, so such a home hung `omni pipe`; here each missing level is made
 * once, from the top down, and the first refusal is thrown for the caller's fail-open path.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function ensureDir(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let d = path.resolve(dir);
  for (;;) {
    try {
      if (statSync(d).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${d}'`), { code: 'ENOTDIR' });
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
      missing.push(d);
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i], { mode });
    } catch (err) {
      // Made meanwhile by another process: that is what was wanted.
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
  }
}
