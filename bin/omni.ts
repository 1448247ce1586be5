#!/usr/bin/env node
// The thin door: argv in, exit code out. Everything else lives in lib/.
import { isHookFlag, main } from '../lib/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    // A hook wrote its reply to fd 1 already (or waited for the stream to take it).
    if (isHookFlag(process.argv[2])) process.exit(code);
    // Let stdout drain before leaving (a pipe to a slow reader), then exit with the code.
    if (process.stdout.writableLength === 0) process.exit(code);
    process.stdout.once('drain', () => process.exit(code));
    process.stdout.once('error', () => process.exit(code));
  },
  (err) => {
    process.stderr.write(`omni: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
