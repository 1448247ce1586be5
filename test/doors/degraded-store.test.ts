import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, tempHome } from '../helpers/omni.js';

const noisy = Array.from({ length: 400 }, (_, i) => `Downloading package-${i % 7} ${i}%`).join('\n') + '\nlast line';
const payload = (cwd: string) => JSON.stringify({
  session_id: '22222222-2222-4222-8222-222222222222', transcript_path: join(cwd, 't.jsonl'), cwd,
  permission_mode: 'default', hook_event_name: 'PostToolUse', tool_name: 'Bash',
  tool_input: { command: './fetch.sh', description: 'fetch' },
  tool_response: { stdout: noisy, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  tool_use_id: 'toolu_01_0001',
});

function corruptHome(): string {
  const home = tempHome();
  writeFileSync(join(home, 'omni.db'), Buffer.alloc(8192, 0x5a));
  return home;
}

t.test('a corrupt store still lets every hook exit 0, and nothing is removed without a receipt', async (t) => {
  const home = corruptHome();
  for (const flag of ['--post-hook', '--session-start', '--session-end', '--pre-compact', '--post-hook-failure', '--pre-hook']) {
    const r = omni([flag], { input: payload(home), env: { OMNI_HOME: home } });
    t.equal(r.status, 0, `${flag} exits 0`);
    t.equal(r.stderr.toString(), '', `${flag} keeps stderr quiet`);
  }
  const r = omni(['--post-hook'], { input: payload(home), env: { OMNI_HOME: home } });
  // Folding needs an archive; without one the host keeps its original output.
  t.equal(r.stdout.toString(), '', 'no reply: the original output stands');
});

t.test('omni pipe over a corrupt store hands back the exact input', async (t) => {
  const home = corruptHome();
  const r = omni(['pipe'], { input: noisy, env: { OMNI_HOME: home } });
  t.equal(r.status, 0);
  t.equal(r.stdout.toString(), noisy);
});

t.test('omni exec with a read-only home still runs the command and keeps every byte', async (t) => {
  const home = join(tempHome(), 'ro');
  mkdirSync(home);
  // Root ignores permission bits: as root the directory gets the immutable flag instead,
  // which refuses new files to root too.
  if (process.getuid?.() === 0) {
    const r = spawnSync('chattr', ['+i', home], { encoding: 'utf8' });
    t.equal(r.status, 0, `chattr +i ${r.stderr ?? ''}`);
    t.teardown(() => { spawnSync('chattr', ['-i', home]); });
  } else {
    chmodSync(home, 0o500);
  }
  const r = omni(['exec', `printf '${noisy.replace(/%/g, '%%').replace(/\n/g, '\\n')}'`], { env: { OMNI_HOME: home } });
  t.equal(r.status, 0);
  t.equal(r.stdout.toString(), noisy);
});
