import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, tempHome } from '../helpers/omni.js';
import { loadCorpus } from '../helpers/corpus.js';
import { needs } from '../helpers/needs.js';

// One real corpus case, printed by a real `npm test`, through exec, pipe and the post-hook.
const c = loadCorpus().find((x) => x.exitCode === 0 && x.family === 'jest' && x.output.length > 5_000);

t.test('one corpus case gives the same bytes through exec, pipe and the post-hook', async (t) => {
  if (!needs(t, Boolean(c), 'no passing test-runner case in the corpus')) return;
  const proj = tempHome();
  mkdirSync(join(proj, 'app'));
  writeFileSync(join(proj, 'app', 'out.txt'), c!.output);
  writeFileSync(join(proj, 'app', 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'cat out.txt' } }));
  const cwd = join(proj, 'app');
  const env = { OMNI_HOLD_MS: '60000', OMNI_HOLD_IDLE_MS: '60000', OMNI_HOLD_BYTES: String(1 << 30) };
  const raw = spawnSync('npm', ['test'], { cwd }).stdout;
  t.ok(raw.includes(c!.output), 'npm test really printed the case');

  const viaExec = omni(['exec', 'npm test'], { cwd, env: { ...env, OMNI_HOME: tempHome() } });
  t.equal(viaExec.status, 0);
  const viaPipe = omni(['pipe', '--command', 'npm test'], { cwd, input: raw, env: { ...env, OMNI_HOME: tempHome() } });
  t.ok(viaExec.stdout.equals(viaPipe.stdout), 'exec and pipe agree byte for byte');
  t.ok(viaPipe.stdout.length < raw.length, `distilled: ${viaPipe.stdout.length} < ${raw.length} bytes`);

  // The host hands over stdout without its final newline.
  const payload = {
    session_id: '11111111-1111-4111-8111-111111111111', transcript_path: join(proj, 't.jsonl'), cwd,
    permission_mode: 'default', hook_event_name: 'PostToolUse', tool_name: 'Bash',
    tool_input: { command: 'npm test', description: 'run tests' },
    tool_response: { stdout: raw.toString('utf8').replace(/\n$/, ''), stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    tool_use_id: 'toolu_01_0001',
  };
  const viaHook = omni(['--post-hook'], { cwd, input: JSON.stringify(payload), env: { OMNI_HOME: tempHome() } });
  t.equal(viaHook.status, 0);
  // No reply means the host keeps its original text.
  const reply = viaHook.stdout.length ? JSON.parse(viaHook.stdout.toString()) : null;
  const hookText: string = reply ? reply.hookSpecificOutput.updatedToolOutput.stdout : payload.tool_response.stdout;
  t.equal(hookText.replace(/\n$/, ''), viaPipe.stdout.toString('utf8').replace(/\n$/, ''), 'the post-hook delivers the same text');
});
