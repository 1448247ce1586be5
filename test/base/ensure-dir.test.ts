// An omni home that can never be created must fail fast, not hang: Node's recursive mkdirSync
// loops forever under /proc (the parent exists, the child is refused with ENOENT), and every
// door opens the store. Found by the stream-path work: `omni pipe` never finished there.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDir } from '../../lib/base/ensure-dir.js';
import { OMNI } from '../helpers/omni.js';

const UNCREATABLE = '/proc/omni-cannot-exist/home';

t.test('ensureDir makes every missing level, accepts one that exists, and refuses what it cannot make', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'omni-ensure-'));
  const deep = join(root, 'a', 'b', 'c');
  ensureDir(deep);
  t.ok(statSync(deep).isDirectory());
  t.equal(statSync(join(root, 'a')).mode & 0o777, 0o700, 'made with the mode asked for');
  ensureDir(deep);
  t.pass('an existing directory is fine');
  writeFileSync(join(root, 'file'), 'x');
  t.throws(() => ensureDir(join(root, 'file', 'sub')), { code: 'ENOTDIR' });
  t.throws(() => ensureDir(UNCREATABLE), { code: 'ENOENT' }, 'returns with an error where mkdir -p would loop');
  t.notOk(existsSync(UNCREATABLE));
});

const lines = Array.from({ length: 6000 }, (_, k) => `Downloading package-${k % 9} ${k}%`).join('\n') + '\nerror: the last step failed\n';
// A hang is the failure here: the timeout is only the point where the test stops waiting.
const run = (args: string[], input: string) =>
  spawnSync(process.execPath, [OMNI, ...args], { input, env: { PATH: process.env.PATH, HOME: tmpdir(), OMNI_HOME: UNCREATABLE }, encoding: 'utf8', timeout: 120_000 });

t.test('with a home that cannot be created, pipe and exec pass the bytes through and the hook stays silent', async (t) => {
  const pipe = run(['pipe'], lines);
  t.equal(pipe.signal, null, 'omni pipe ended by itself');
  t.equal(pipe.status, 0);
  t.equal(pipe.stdout, lines, 'nothing archived, so nothing removed');

  const dir = mkdtempSync(join(tmpdir(), 'omni-ensure-exec-'));
  writeFileSync(join(dir, 'out.txt'), lines);
  const exec = run(['exec', 'cat', join(dir, 'out.txt')], '');
  t.equal(exec.signal, null, 'omni exec ended by itself');
  t.equal(exec.status, 0);
  t.equal(exec.stdout, lines);

  const payload = JSON.stringify({
    session_id: 's', transcript_path: '/nonexistent/t.jsonl', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Bash',
    tool_input: { command: './fetch.sh' }, tool_use_id: 'toolu_x', tool_response: { stdout: lines, stderr: '', interrupted: false, isImage: false },
  });
  const hook = run(['--post-hook'], payload);
  t.equal(hook.signal, null, 'the hook ended by itself');
  t.equal(hook.status, 0);
  t.equal(hook.stdout, '', 'no reply: the host shows its own output');
});
