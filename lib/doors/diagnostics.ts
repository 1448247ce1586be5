import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Diagnostics go to `$OMNI_HOME/omni.log`, never to stdout (a hook's stdout is its reply)
 * and never to a hook's stderr (exit-2 stderr reaches the model). Best effort: a log that
 * cannot be written is silently skipped.
 */
export function logDiagnostic(where: string, err: unknown): void {
  try {
    const home = process.env.OMNI_HOME || join(homedir(), '.omni');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const msg = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    appendFileSync(join(home, 'omni.log'), `${new Date().toISOString()} ${where} ${msg.replace(/\n/g, ' ')}\n`, { mode: 0o600 });
  } catch {
    /* fail open */
  }
}
