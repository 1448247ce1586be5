/**
 * `omni retrieve <handle>`: the archived bytes on stdout (binary-safe, never distilled), every
 * secret value masked as delivery masks it: a marker handed to a model must not bring a masked
 * secret back. `--reveal` prints the exact bytes, to a person only (lib/service/reveal.ts): it is
 * refused (exit 2) without a terminal or under an agent host. A handle nobody archived (or one
 * pruned) exits 2 with a message on stderr, as a malformed one does; 1 is left for a store that
 * cannot open. A successful retrieve is recorded so the next payload containing that run is
 * delivered verbatim once.
 */
import { isatty } from 'node:tty';
import type { Io } from './io.js';
import { cliStore } from './cli-store.js';
import { parseHandle, retrieve, unknownHandle } from '../service/retrieve.js';
import { revealRefusal, shown } from '../service/reveal.js';
import { subcommandHelp } from './usage.js';

export const USAGE = subcommandHelp('retrieve');

function write(stream: NodeJS.WritableStream, data: Buffer | string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(data, (err) => (err ? reject(err) : resolve()));
  });
}

export async function run(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const arg = argv.find((a) => !a.startsWith('-'));
  const reveal = argv.includes('--reveal');
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (!arg) {
    io.stderr.write(USAGE);
    return 2;
  }
  // Tolerates a handle copied with the marker's closing bracket.
  const handle = parseHandle(arg);
  if (handle === null) {
    io.stderr.write(`omni retrieve: '${arg}' is not a handle (expected 16 hex characters)\n${USAGE}`);
    return 2;
  }
  if (reveal) {
    const why = revealRefusal({ stdinIsTTY: isatty(0), stderrIsTTY: isatty(2), env });
    if (why) {
      io.stderr.write(`omni retrieve --reveal: ${why}\n`);
      return 2;
    }
  }
  const store = cliStore('retrieve', io);
  if (!store) return 1;
  try {
    const data = retrieve(store, handle);
    if (!data) {
      io.stderr.write(`omni retrieve: ${unknownHandle(handle)}\n`);
      return 2;
    }
    await write(io.stdout, shown(data, reveal));
    return 0;
  } finally {
    store.close();
  }
}
