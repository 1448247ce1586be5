import { appendFileSync, renameSync, statSync } from 'node:fs';
import { ensureDir } from '../base/ensure-dir.js';
import { join } from 'node:path';
import { omniHome } from './open.js';

/** The log rotates to `omni.log.1` past this size. */
export const LOG_MAX_BYTES = 1 << 20;

/**
 * The one diagnostics log, `$OMNI_HOME/omni.log`, for every door and hook. Never stdout (a
 * hook's stdout is its reply) and never a hook's stderr (exit-2 stderr reaches the model).
 * Best effort: a log that cannot be written is silently skipped. It lives in store/, beside
 * `omniHome`, because it is a file of the omni home and every layer (rules/, the doors, the
 * CLI, MCP) may log: nothing below it needs to import a door.
 */
export function logDiagnostic(where: string, what: unknown, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const home = omniHome(env);
    ensureDir(home);
    const file = join(home, 'omni.log');
    try {
      if (statSync(file).size > LOG_MAX_BYTES) renameSync(file, file + '.1');
    } catch {
      /* no log yet */
    }
    const msg = what instanceof Error ? what.stack || `${what.name}: ${what.message}` : String(what);
    appendFileSync(file, `${new Date().toISOString()} ${where} ${msg.replace(/\n/g, '\\n').slice(0, 2000)}\n`, { mode: 0o600 });
  } catch {
    /* fail open */
  }
}
