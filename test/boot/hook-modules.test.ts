// What a hook process loads decides what it costs: Node's own modules are compiled per process
// (no code cache covers their inner functions). node:crypto pulls in keys, ciphers, x509 and
// the whole stream machinery, ~13M instructions, and omni needs only SHA-256 from it, which
// lib/store/sha256.ts computes without it; node:stream (~13M more, and a nextTick per batch per
// stage) is what a streaming run needs, and a hook's buffered run builds synchronous stages
// instead (lib/kit/streams.ts). These run the real bundle with a preload that lists the
// built-in modules the process loaded, and check that the archive's handles still name the
// bytes `omni retrieve` returns.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OMNI, tempHome } from '../helpers/omni.js';

const dir = mkdtempSync(join(tmpdir(), 'omni-modules-'));
const preload = join(dir, 'modules.cjs');
writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(process.env.OMNI_TEST_MODULES, process.moduleLoadList.join('\\n')));\n`);

const base = { session_id: 's-modules', transcript_path: '/nonexistent/t.jsonl', cwd: dir, permission_mode: 'bypassPermissions' };
const post = JSON.stringify({
  ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: './fetch-all.sh' }, tool_use_id: 'toolu_modules',
  tool_response: { stdout: Array.from({ length: 300 }, (_, k) => `Downloading package-${k % 7} ${k}%`).join('\n') + '\ndone', stderr: '', interrupted: false, isImage: false },
});
const start = JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' });

function run(flag: string, input: string, home: string) {
  const list = join(dir, `${flag.slice(2)}-${Math.random().toString(36).slice(2)}.txt`);
  // Through env(1), as hosts run hooks: the test runner adds its own --import to every node
  // child it spawns directly (NODE_OPTIONS), and that would load modules the hook never does.
  const r = spawnSync('env', ['-u', 'NODE_OPTIONS', process.execPath, '-r', preload, OMNI, flag], { input, env: { PATH: process.env.PATH, HOME: home, OMNI_HOME: home, OMNI_TEST_MODULES: list }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, modules: readFileSync(list, 'utf8').split('\n') };
}

t.test('a post-hook that archives, and a session start, load neither node:crypto nor node:stream', async (t) => {
  const home = tempHome();
  const p = run('--post-hook', post, home);
  t.equal(p.status, 0);
  t.match(p.stdout, /folded — omni retrieve [0-9a-f]{16}/, 'the run folded, so blobs were archived and hashed');
  t.notOk(p.modules.includes('NativeModule crypto'), 'post-hook: node:crypto not loaded');
  t.notOk(p.modules.includes('NativeModule stream'), 'post-hook: node:stream not loaded');
  const s = run('--session-start', start, home);
  t.equal(s.status, 0);
  t.notOk(s.modules.includes('NativeModule crypto'), 'session-start: node:crypto not loaded');
  t.notOk(s.modules.includes('NativeModule stream'), 'session-start: node:stream not loaded');
});

t.test("a marker's handle is the SHA-256 prefix of the bytes `omni retrieve` returns for it", async (t) => {
  const home = tempHome();
  const p = run('--post-hook', post, home);
  const handles = [...p.stdout.matchAll(/omni retrieve ([0-9a-f]{16})/g)].map((m) => m[1]);
  t.ok(handles.length > 0, 'the reply names a handle');
  for (const h of handles) {
    const r = spawnSync(process.execPath, [OMNI, 'retrieve', h], { env: { PATH: process.env.PATH, HOME: home, OMNI_HOME: home } });
    t.equal(r.status, 0, `retrieve ${h}`);
    t.equal(createHash('sha256').update(r.stdout).digest('hex').slice(0, 16), h, `${h} names its bytes`);
  }
});
