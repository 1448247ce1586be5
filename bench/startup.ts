// Start-up cost as a ratio to `node -e 0`, measured side by side, medians of N runs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, timeSh, OMNI } from './util.js';

const N = Number(process.env.BENCH_RUNS ?? 15);
const dir = mkdtempSync(join(tmpdir(), 'omni-start-'));
const env = { ...process.env, OMNI_HOME: join(dir, 'home') };
const payload = join(dir, 'post.json');
// A 20 KB Bash PostToolUse payload in the shape Claude Code sends (samples/claude-code).
const stdout = Array.from({ length: 600 }, (_, i) => `Downloading package-${i % 9} ${i}%`).join('\n') + '\ndone';
writeFileSync(payload, JSON.stringify({
  session_id: '00000000-0000-4000-8000-000000000000', transcript_path: join(dir, 't.jsonl'), cwd: dir,
  permission_mode: 'bypassPermissions', hook_event_name: 'PostToolUse', tool_name: 'Bash',
  tool_input: { command: './fetch-all.sh', description: 'fetch' },
  tool_response: { stdout: stdout.slice(0, 20000), stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  tool_use_id: 'toolu_01', duration_ms: 12,
}));
const rows: Array<[string, string]> = [
  ['node -e 0', 'node -e 0'],
  ['omni pipe < /dev/null', `node ${OMNI} pipe < /dev/null > /dev/null`],
  ['omni --post-hook (20 KB Bash payload)', `node ${OMNI} --post-hook < ${payload} > /dev/null`],
  ['omni --pre-hook (empty payload)', `echo '{}' | node ${OMNI} --pre-hook > /dev/null`],
  // What `omni init` registers: the hook drops NODE_EXTRA_CA_CERTS (it makes no TLS calls).
  ['post-hook as installed (env -u NODE_EXTRA_CA_CERTS)', `env -u NODE_EXTRA_CA_CERTS node ${OMNI} --post-hook < ${payload} > /dev/null`],
  ['node -e 0 without NODE_EXTRA_CA_CERTS', 'env -u NODE_EXTRA_CA_CERTS node -e 0'],
];
const times = rows.map(() => [] as number[]);
for (let i = 0; i < N; i++) rows.forEach(([, cmd], k) => times[k].push(timeSh(cmd, env)));
const base = median(times[0]);
rows.forEach(([name], k) => console.log(`${name.padEnd(40)} ${median(times[k]).toFixed(0).padStart(5)} ms  ${(median(times[k]) / base).toFixed(2)}x`));
console.log(`(targets: post-hook <= 1.5x node -e 0; medians of ${N} interleaved runs; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'is set here' : 'is not set here'})`);
