// Writes dist/omni-core.cjs.v8, V8's code cache for the hot-path bundle, from one real
// post-hook call (a Bash payload whose output folds, so the pipeline, the store and the reply
// all run). lib/boot/code-cache.cjs loads the bundle through it. The cache changes no output:
// V8 refuses it for any other Node, source or flags, and the bundle then compiles as before.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const home = mkdtempSync(path.join(tmpdir(), 'omni-train-'));
const stdout = Array.from({ length: 400 }, (_, k) => `Downloading package-${k % 9} ${k}%`).join('\n') + '\ndone';
const payload = JSON.stringify({
  session_id: 'train', transcript_path: path.join(home, 't.jsonl'), cwd: home, hook_event_name: 'PostToolUse',
  tool_name: 'Bash', tool_input: { command: './fetch-all.sh' }, tool_use_id: 'toolu_train',
  tool_response: { stdout, stderr: '', interrupted: false, isImage: false },
});
try { unlinkSync('dist/omni-core.cjs.v8'); } catch { /* none yet */ }
const env = { PATH: process.env.PATH, HOME: home, OMNI_HOME: path.join(home, 'store'), OMNI_CODE_CACHE: 'write' };
const r = spawnSync(process.execPath, ['dist/omni.cjs', '--post-hook'], { input: payload, env, encoding: 'utf8' });
rmSync(home, { recursive: true, force: true });
if (r.status !== 0 || !r.stdout.includes('omni retrieve')) console.warn(`train-code-cache: the training call did not fold (${r.status}); the cache may be thin`);
