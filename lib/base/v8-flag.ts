/**
 * A V8 flag set while the process runs. V8 stamps a code cache with its flags, so the boot loader
 * (lib/boot/code-cache.cjs) is told first and writes a stale cache under the old flags: written
 * after, every later call would refuse it and compile the bundle again.
 */
import type * as V8 from 'node:v8';
import { lazyRequire } from './lazy-require.js';

const loadV8 = lazyRequire<typeof V8>('node:v8');

/** Set on globalThis by lib/boot/code-cache.cjs: writes a stale code cache before a V8 flag changes. */
const BEFORE_FLAGS = Symbol.for('omni.beforeV8Flags');

/** Sets `flag` (`--name=value`) for the rest of the process; throws where V8 has no such flag handling. */
export function setV8Flag(flag: string): void {
  const before = (globalThis as Record<symbol, unknown>)[BEFORE_FLAGS];
  if (typeof before === 'function') before();
  loadV8().setFlagsFromString(flag);
}
