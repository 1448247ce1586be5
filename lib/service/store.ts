/**
 * The store as the user-facing service opens it: a longer lock wait than a hook's (a person or
 * an MCP client waits; a hook must not). A store that cannot open is a message, not a throw,
 * so each front end words it its own way.
 */
import { openStore, CLI_BUSY_TIMEOUT_MS, type Store } from '../store/open.js';

export type Opened = { store: Store; error?: undefined } | { store?: undefined; error: string };

/** `name` is the subcommand the message names: `omni <name>: <why>`. */
export function openServiceStore(name: string): Opened {
  try {
    return { store: openStore({ busyTimeoutMs: CLI_BUSY_TIMEOUT_MS }) };
  } catch (err) {
    return { error: `omni ${name}: ${(err as Error).message}` };
  }
}
