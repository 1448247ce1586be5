import type { Io } from './io.js';
import type { Store } from '../store/open.js';
import { openServiceStore } from '../service/store.js';

/** Opens the store for a typed subcommand (a longer lock wait than a hook's), or says why not. */
export function cliStore(name: string, io: Io): Store | null {
  const o = openServiceStore(name);
  if (o.error !== undefined) {
    io.stderr.write(`${o.error}\n`);
    return null;
  }
  return o.store;
}
