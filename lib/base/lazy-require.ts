import { createRequire } from 'node:module';

/**
 * A module loaded at run time, on first use, and only then: esbuild leaves a runtime require
 * alone, so a heavy module (zod, better-sqlite3) is never parsed with the hook bundle. In the
 * esbuild CJS bundle `require` exists and import.meta is empty; under ESM (tests, tsc) it is
 * the other way round.
 */
export function lazyRequire<T>(name: string): () => T {
  let mod: T | undefined;
  return () => {
    if (mod === undefined) {
      const req = typeof require === 'function' ? require : createRequire(import.meta.url);
      mod = req(name) as T;
    }
    return mod;
  };
}
