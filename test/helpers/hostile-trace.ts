/**
 * The worst store for `omni stats --html`: every trace of the top distillations as bad for a
 * page as it can be. Shared by test/cli/stats-html.test.ts (the bounds) and bench/stats-html.ts
 * (the time a real browser takes to draw the page).
 */
import { openStore } from '../../lib/store/open.js';
import { recordDistillation } from '../../lib/store/record.js';

/** Secrets a command printed: none may reach the page. */
export const SECRETS = ['ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'abcdefghijklmnop123456', 'hunter2pass', 'MIIEowIBAAKCAQEA1234secretbody'];

/**
 * Secrets, then (with `long`) a megabyte-long line, then `mb` MiB of lines with colour codes
 * all along them (each code a caret span on the page, ~27 bytes of markup per byte).
 */
export function hostileTrace(i: number, mb: number, long: boolean): Buffer {
  const head = [
    `run ${i}`,
    `GITHUB_TOKEN=${SECRETS[0]}`,
    `> Authorization: Bearer ${SECRETS[1]}`,
    `connecting to postgres://app:${SECRETS[2]}@db:5432/shop`,
    '-----BEGIN RSA PRIVATE KEY-----',
    SECRETS[3],
    '-----END RSA PRIVATE KEY-----',
    ...(long ? ['x'.repeat(1 << 20)] : []),
  ].join('\n') + '\n';
  const colour = '\x1b[1m\x1b[31m!\x1b[0m'.repeat(60) + '\r\n';
  return Buffer.concat([Buffer.from(head), Buffer.from(colour.repeat(Math.ceil((mb << 20) / colour.length)))]);
}

/**
 * `runs` applied distillations in the store at `home`, each with a 3 MiB raw trace (with the
 * long line) and a 1 MiB delivered one (colour codes from its first lines on).
 */
export function hostileStore(home: string, runs: number): void {
  const store = openStore({ home });
  const now = Date.now();
  try {
    for (let i = 0; i < runs; i++) {
      const raw = hostileTrace(i, 2, true);
      const delivered = hostileTrace(i + 100, 1, false);
      recordDistillation(store, {
        run: { at: now - i * 1000, door: 'pipe', family: 'generic', command: `curl -H "Authorization: Bearer ${SECRETS[1]}" https://app:${SECRETS[2]}@example.org/${'x'.repeat(5000)}`, bytesIn: raw.length, bytesOut: delivered.length, applied: true },
        raw,
        delivered,
      });
    }
  } finally {
    store.close();
  }
}
