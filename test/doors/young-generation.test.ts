import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OMNI, ROOT, tempHome } from '../helpers/omni.js';
import { STREAM_SEMI_SPACE_BYTES } from '../../lib/base/young-generation.js';

// `omni pipe` and `omni exec` over a long fast stream, in omni's own process: V8 would double
// its young generation up to two 16 MiB semi-spaces, all of it resident. Both stream doors hold
// the semi-spaces at STREAM_SEMI_SPACE_BYTES; the same stream read by a bare node process (no
// hold) shows the growth is there to hold.

/** Preloaded into the process under test: at exit, its young generation's size on stderr. */
const PRELOAD = join(ROOT, 'test', 'fixtures', 'v8', 'young-size.cjs');

/** A log of mixed lines, ~`bytes` long: colour, repeats, unique ids, a stack now and then. */
function log(bytes: number): Buffer {
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
  return Buffer.from(parts.join('\n') + '\n');
}

/** The young generation (both semi-spaces, bytes) of `node -r PRELOAD …args` when it exits. */
function youngAfter(args: string[], input?: Buffer): number {
  const r = spawnSync(process.execPath, ['-r', PRELOAD, ...args], { input, env: { ...process.env, OMNI_HOME: tempHome() }, maxBuffer: 1 << 30, timeout: 120_000 });
  const m = /young-generation (\d+)/.exec(r.stderr.toString('utf8'));
  if (r.status !== 0 || !m) throw new Error(`exited ${r.status}: ${r.stderr}`);
  return Number(m[1]);
}

const input = log(48 << 20);

t.test('a long pipe run keeps its young generation at the bound, where V8 alone would grow it', async (t) => {
  const piped = youngAfter([OMNI, 'pipe'], input);
  t.ok(piped <= 2 * STREAM_SEMI_SPACE_BYTES, `omni pipe: young generation ${piped} bytes, at most 2 × ${STREAM_SEMI_SPACE_BYTES}`);
  // The same bytes through a process that allocates as fast and holds nothing back.
  const control = youngAfter(['-e', `let n = 0, keep = []; process.stdin.on('data', (b) => { for (const l of b.toString('latin1').split('\\n')) { keep.push({ l, n: n++ }); if (keep.length > 20000) keep = []; } });`], input);
  t.ok(control > 2 * STREAM_SEMI_SPACE_BYTES, `unbounded, V8 grew the young generation to ${control} bytes`);
});

t.test('a long exec run keeps its young generation at the bound', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'omni-exec-young-')), 'big.log');
  writeFileSync(file, input);
  const execd = youngAfter([OMNI, 'exec', 'cat', file]);
  t.ok(execd <= 2 * STREAM_SEMI_SPACE_BYTES, `omni exec: young generation ${execd} bytes, at most 2 × ${STREAM_SEMI_SPACE_BYTES}`);
});
