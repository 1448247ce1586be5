import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OMNI, ROOT, tempHome } from '../helpers/omni.js';
import { STREAM_SEMI_SPACE_BYTES } from '../../lib/base/young-generation.js';

// `omni exec` over a command that prints fast for long streams through the same pipeline as
// `omni pipe`, in omni's own process: V8 would double its young generation up to two 16 MiB
// semi-spaces. The door holds them at STREAM_SEMI_SPACE_BYTES, as pipe does
// (test/doors/pipe-young-generation.test.ts shows the growth is there to hold).

const PRELOAD = join(ROOT, 'test', 'fixtures', 'v8', 'young-size.cjs');

/** A log of mixed lines, ~`bytes` long: colour, repeats, unique ids, a stack now and then. */
function log(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const line = i % 7 === 0
      ? `Error: request ${i} failed\n    at handler (/app/src/server.js:${i % 300}:17)`
      : i % 3 === 0
        ? `\x1b[32m✓\x1b[0m handles case ${i} (\x1b[2m${i % 97} ms\x1b[0m)`
        : `2026-11-29T12:${String(i % 60).padStart(2, '0')}:00Z INFO request id=${i.toString(16)} path=/api/v1/items/${i} status=200`;
    parts.push(line);
    n += line.length + 1;
  }
  return parts.join('\n') + '\n';
}

t.test('a long exec run keeps its young generation at the bound', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'omni-exec-young-'));
  const file = join(dir, 'big.log');
  writeFileSync(file, log(48 << 20));
  const r = spawnSync(process.execPath, ['-r', PRELOAD, OMNI, 'exec', 'cat', file], {
    env: { ...process.env, OMNI_HOME: tempHome() }, maxBuffer: 1 << 30, timeout: 120_000,
  });
  t.equal(r.status, 0, String(r.stderr));
  const m = /young-generation (\d+)/.exec(r.stderr.toString('utf8'));
  if (!m) throw new Error(`no report: ${r.stderr}`);
  const main = Number(m[1]);
  t.ok(main <= 2 * STREAM_SEMI_SPACE_BYTES, `omni exec: young generation ${main} bytes, at most 2 × ${STREAM_SEMI_SPACE_BYTES}`);
});
