import type { Io } from './main.js';
import { openStore, CLI_BUSY_TIMEOUT_MS, type Store } from '../store/open.js';

/** Opens the store for a typed subcommand (a longer lock wait than a hook's), or says why not. */
export function cliStore(name: string, io: Io): Store | null {
  try {
    return openStore({ busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
  } catch (err) {
    io.stderr.write(`omni ${name}: ${(err as Error).message}\n`);
    return null;
  }
}
