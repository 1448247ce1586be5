// omni_run refuses what the host's Bash rules deny or ask about (lib/mcp/run-permission.ts):
// before, `mcp__omni__omni_run {"command":"npm test"}` ran while Bash `npm test` was denied.
// Unit checks of the refusal, then through the real server: the refusal is an error result
// naming the rule, and the command never ran (a file it would write is not there).
import t from 'tap';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, tempHome } from '../helpers/omni.js';
import { runRefusal } from '../../lib/mcp/run-permission.js';

function setup(user?: unknown, project?: unknown, local?: unknown) {
  const home = realpathSync(tempHome());
  const proj = join(home, 'proj');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(join(proj, '.claude'), { recursive: true });
  if (user !== undefined) writeFileSync(join(home, '.claude', 'settings.json'), typeof user === 'string' ? user : JSON.stringify(user));
  if (project !== undefined) writeFileSync(join(proj, '.claude', 'settings.json'), JSON.stringify(project));
  if (local !== undefined) writeFileSync(join(proj, '.claude', 'settings.local.json'), JSON.stringify(local));
  return { home, proj, env: { HOME: home } as NodeJS.ProcessEnv };
}

t.test('a deny rule refuses, naming the rule; what no rule names runs', async (t) => {
  const { proj, env } = setup({ permissions: { deny: ['Bash(npm test:*)'], allow: ['Bash(npm test)'] } });
  const r = runRefusal('npm test', [proj], env);
  t.match(r, /^omni_run refused: the Bash permission rule "Bash\(npm test:\*\)" \(deny\) in your Claude Code settings denies it/);
  t.match(runRefusal('cd sub && FOO=1 npm test -- --watch', [proj], env), /Bash\(npm test:\*\)/, 'generously: sub-commands, assignments');
  t.equal(runRefusal('npm run build', [proj], env), null);
});

t.test('an ask rule refuses too: the host would stop to ask the user', async (t) => {
  const { proj, env } = setup(undefined, undefined, { permissions: { ask: ['Bash(git push:*)'] } });
  t.match(runRefusal('git push origin main', [proj], env), /"Bash\(git push:\*\)" \(ask\) .* asks before running it.*run it with the Bash tool/);
});

t.test('project rules count from the server\'s project and from the call\'s directory', async (t) => {
  const { home, proj, env } = setup(undefined, { permissions: { deny: ['Bash(make deploy)'] } });
  t.match(runRefusal('make deploy', [proj], env), /make deploy/, 'the server\'s project');
  t.match(runRefusal('make deploy', [join(home, 'elsewhere'), proj], env), /make deploy/, 'the call\'s directory');
  t.equal(runRefusal('make deploy', [join(home, 'elsewhere')], env), null, 'a project without the rule');
});

t.test('a settings file omni cannot read or parse refuses every command (it might hold a deny)', async (t) => {
  const bad = setup('{ "permissions": { "deny": [ ');
  t.match(runRefusal('ls', [bad.proj], bad.env), /rule "Bash" \(ask\).*settings\.json \(unparsable/);
  const dir = setup();
  // A directory where the file should be: present, unreadable (EISDIR).
  mkdirSync(join(dir.proj, '.claude', 'settings.local.json'));
  t.match(runRefusal('ls', [dir.proj], dir.env), /settings\.local\.json \(unreadable, EISDIR/);
  t.equal(runRefusal('ls', [setup().proj], setup().env), null, 'absent files: no rules');
});

t.test('through the server: the refusal is an error result and the command never runs', async (t) => {
  const { home, proj } = setup({ permissions: { deny: ['Bash(touch:*)'] } });
  const client = new Client({ name: 'omni-test', version: '0' });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, OMNI_HOME: join(home, 'omni') };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp'], env, cwd: proj, stderr: 'pipe' }));
  t.teardown(() => client.close());
  const r = (await client.callTool({ name: 'omni_run', arguments: { command: 'touch ran-anyway' } })) as { content: Array<{ text?: string }>; isError?: boolean };
  t.equal(r.isError, true);
  t.match(r.content[0]?.text, /omni_run refused: the Bash permission rule "Bash\(touch:\*\)" \(deny\)/);
  t.notOk(existsSync(join(proj, 'ran-anyway')), 'not run');
  const ok = (await client.callTool({ name: 'omni_run', arguments: { command: 'echo fine' } })) as { content: Array<{ text?: string }>; isError?: boolean };
  t.equal(ok.content[0]?.text, 'fine\n', 'a command no rule names runs');
});
