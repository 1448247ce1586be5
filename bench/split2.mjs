// `node bench/split2.mjs`: should the Codex door read its rollout (the JSONL session log where
// Codex records a command's exit code, lib/hosts/codex/adapter.ts) as a split2 line stream? That read
// is on the hook path: every Codex PostToolUse waits for it. Today it reads the file's last
// 256 KB (widening to 4 and 32 MB only when the record is not there) and scans lines from the
// end. A split2 stream reads the whole file forward. Both are timed on synthetic rollouts of
// 1, 16 and 64 MB whose wanted record sits near the end (where a just-finished call's is).
// Not a pass/fail test.
import { build } from 'esbuild';
import split2 from 'split2';
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const out = join(process.cwd(), 'bench', 'out');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['lib/hosts/codex/adapter.ts'], outfile: join(out, 'split2-codex.mjs'), bundle: true, platform: 'node', format: 'esm',
  target: 'node20', external: ['better-sqlite3'], logLevel: 'error',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const codex = await import(pathToFileURL(join(out, 'split2-codex.mjs')).href);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rollout(mb, callId) {
  const lines = [];
  let bytes = 0, n = 0;
  const filler = 'x'.repeat(1800);
  while (bytes < mb * 1e6) {
    const l = JSON.stringify(n % 7 === 0
      ? { type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id: `call_${n}`, status: 'completed', exit_code: 0 } } }
      : { type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${n}`, output: filler } });
    lines.push(l); bytes += l.length + 1; n++;
  }
  lines.splice(lines.length - 3, 0, JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id: callId, status: 'failed', exit_code: 3 } } }));
  return lines.join('\n') + '\n';
}

/** The split2 version: stream every line, keep the last record for the call. */
function viaSplit2(path, callId) {
  const needle = JSON.stringify(callId);
  return new Promise((resolve) => {
    let last = null;
    createReadStream(path).pipe(split2()).on('data', (line) => {
      if (!line.includes(needle)) return;
      const code = codex.exitCodeIn(line, callId);
      if (code !== null) last = code;
    }).on('end', () => resolve(last)).on('error', () => resolve(null));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'omni-split2-'));
console.log('| rollout | tail search (today) | split2 stream | split2 ÷ today |');
console.log('|---:|---:|---:|---:|');
for (const mb of [1, 16, 64]) {
  const id = `call_target_${mb}`;
  const path = join(dir, `rollout-${mb}.jsonl`);
  writeFileSync(path, rollout(mb, id));
  const a = [], b = [];
  for (let r = 0; r < 9; r++) {
    let t0 = process.hrtime.bigint();
    const x = codex.commandExitCode(path, id);
    a.push(Number(process.hrtime.bigint() - t0) / 1e6);
    t0 = process.hrtime.bigint();
    const y = await viaSplit2(path, id);
    b.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (x !== 3 || y !== 3) throw new Error(`wrong exit code: tail ${x}, split2 ${y}`);
  }
  console.log(`| ${mb} MB | ${median(a).toFixed(2)} ms | ${median(b).toFixed(2)} ms | ${(median(b) / median(a)).toFixed(1)}× |`);
}
const req = createRequire(import.meta.url);
const load = [];
for (let r = 0; r < 11; r++) {
  const p = spawnSync(process.execPath, ['-e', `const t=process.hrtime.bigint();require(${JSON.stringify(req.resolve('split2'))});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`], { encoding: 'utf8' });
  load.push(Number(p.stdout));
}
console.log(`\nrequire('split2') in a fresh node: ${median(load).toFixed(2)} ms (the hook bundle would carry it and node:stream)`);
