// `omni init --claude` picks the transport from the Claude Code it finds: mcp_tool handlers on
// omni's MCP server where the host runs them, command hooks elsewhere; `--uninstall` removes
// all of it, and `omni doctor` says which transport is wired and why.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OMNI, tempHome } from '../helpers/omni.js';
import { HOOK_TOOL_FULL_NAME, hookToolInput } from '../../lib/hosts/claude/hook-tool.js';
import { MIN_MCP_TOOL_VERSION } from '../../lib/hosts/claude/mcp-transport.js';

function fakeClaude(dir: string, version: string): string {
  const p = join(dir, `claude-${version}`);
  writeFileSync(p, `#!/bin/sh\necho "${version} (Claude Code)"\n`);
  chmodSync(p, 0o755);
  return p;
}

function omni(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [OMNI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: env.HOME, encoding: 'utf8', timeout: 60_000 });
}

const FOREIGN_SETTINGS = { permissions: { deny: ['Bash(rm -rf *)'] }, hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }] } };
const FOREIGN_CLAUDE_JSON = { numStartups: 3, mcpServers: { github: { type: 'stdio', command: 'gh-mcp', args: [], env: {} } }, projects: {} };

function setup(version: string) {
  const home = tempHome();
  mkdirSync(join(home, '.claude'));
  const settings = join(home, '.claude', 'settings.json');
  const claudeJson = join(home, '.claude.json');
  writeFileSync(settings, JSON.stringify(FOREIGN_SETTINGS, null, 2) + '\n');
  writeFileSync(claudeJson, JSON.stringify(FOREIGN_CLAUDE_JSON, null, 2) + '\n', { mode: 0o600 });
  const env = { HOME: home, OMNI_HOME: join(home, '.omni'), OMNI_CLAUDE_BIN: fakeClaude(home, version) };
  return { home, settings, claudeJson, env, read: (f: string) => JSON.parse(readFileSync(f, 'utf8')) };
}

t.test(`Claude Code ${MIN_MCP_TOOL_VERSION}: mcp_tool handlers on omni's server, the internal tool denied; idempotent; uninstall restores both files`, async (t) => {
  const s = setup(MIN_MCP_TOOL_VERSION);
  const r = omni(['init', '--claude'], s.env);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /transport: mcp_tool handlers/);
  const cj = s.read(s.claudeJson);
  t.same(cj.mcpServers.omni, { type: 'stdio', command: process.execPath, args: [OMNI, 'mcp', '--hook-tool'], env: { MALLOC_ARENA_MAX: '1', OMNI_SET_MALLOC_ARENA_MAX: '1' } }, 'omni\'s server, by absolute paths');
  t.same(cj.mcpServers.github, FOREIGN_CLAUDE_JSON.mcpServers.github, 'the user\'s own server is kept');
  t.equal(cj.numStartups, 3, 'every other key is kept');
  t.equal(statSync(s.claudeJson).mode & 0o777, 0o600, '~/.claude.json keeps its mode');
  const st = s.read(s.settings);
  for (const [event, entry] of [['PostToolUse', 'post-hook'], ['PostToolUseFailure', 'post-hook-failure']]) {
    const h = st.hooks[event].at(-1).hooks[0];
    t.same({ type: h.type, server: h.server, tool: h.tool, input: h.input }, { type: 'mcp_tool', server: 'omni', tool: 'omni_hook', input: hookToolInput(entry) }, `${event}: an mcp_tool handler for omni --${entry}`);
  }
  t.notOk('PreToolUse' in st.hooks, 'no PreToolUse by default: commands run as approved');
  const rw = omni(['init', '--claude', '--rewrite'], s.env);
  t.equal(rw.status, 0, rw.stderr);
  const pre = s.read(s.settings).hooks.PreToolUse.at(-1).hooks[0];
  t.same({ type: pre.type, server: pre.server, tool: pre.tool, input: pre.input }, { type: 'mcp_tool', server: 'omni', tool: 'omni_hook', input: hookToolInput('pre-hook') }, 'with --rewrite: PreToolUse as an mcp_tool handler for omni --pre-hook');
  t.equal(omni(['init', '--claude'], s.env).status, 0, 'init without --rewrite');
  t.same(s.read(s.settings), st, 'takes the rewrite out again, nothing else changed');
  for (const event of ['SessionStart', 'SessionEnd', 'PreCompact']) {
    const h = st.hooks[event][0].hooks[0];
    t.equal(h.type, 'command', `${event} stays a command hook`);
    t.ok(h.command.includes(OMNI), `${event} runs this omni`);
  }
  t.same(st.permissions.deny, ['Bash(rm -rf *)', HOOK_TOOL_FULL_NAME], 'the internal tool is denied to the model, the user\'s rule kept');
  t.same(st.hooks.PostToolUse[0], FOREIGN_SETTINGS.hooks.PostToolUse[0], 'the foreign hook is kept');

  const before = [readFileSync(s.settings, 'utf8'), readFileSync(s.claudeJson, 'utf8')];
  const again = omni(['init', '--claude'], s.env);
  t.match(again.stdout, /already up to date/);
  t.same([readFileSync(s.settings, 'utf8'), readFileSync(s.claudeJson, 'utf8')], before, 'a second init changes no byte');

  const doc = omni(['doctor', '--json'], s.env);
  const report = JSON.parse(doc.stdout);
  const transport = report.checks.filter((c: { name: string }) => c.name === 'transport');
  t.same(transport.map((c: { status: string }) => c.status), ['ok'], JSON.stringify(transport));
  t.match(transport[0].detail, /mcp_tool handlers on omni's MCP server/);
  t.match(r.stdout, /offered to the model: no tool \(`omni init --claude --mcp-tools` offers omni_run/);
  t.match(report.checks.find((c: { name: string }) => c.name === 'mcp-tools')?.detail ?? '', /^offered to the model: none/, 'doctor: no tool offered');
  t.match(report.checks.find((c: { name: string }) => c.name === 'probe')?.detail ?? '', /probe reply accepted/, 'the probe reaches the door the tool runs');
  t.equal(doc.status, 0, JSON.stringify(report.checks.filter((c: { status: string }) => c.status !== 'ok')));

  const u = omni(['init', '--claude', '--uninstall'], s.env);
  t.equal(u.status, 0, u.stderr);
  t.same(s.read(s.settings), FOREIGN_SETTINGS, 'settings.json as it was');
  t.same(s.read(s.claudeJson), FOREIGN_CLAUDE_JSON, '~/.claude.json as it was');
});

t.test('Claude Code 2.1.120 (runs mcp_tool handlers but ignores their updatedToolOutput) gets command hooks, and doctor says why; a later upgrade switches cleanly', async (t) => {
  const s = setup('2.1.120');
  const r = omni(['init', '--claude'], s.env);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /transport: command hooks \(Claude Code 2\.1\.120 does not apply the replies of mcp_tool hook handlers/);
  const st = s.read(s.settings);
  t.same(Object.values(st.hooks).flatMap((gs: any) => gs.flatMap((g: any) => g.hooks.map((h: any) => h.type))).filter((x) => x !== 'command'), [], 'only command hooks');
  t.same(st.permissions, FOREIGN_SETTINGS.permissions, 'no deny entry');
  t.same(s.read(s.claudeJson), FOREIGN_CLAUDE_JSON, 'no server registered');
  const doc = JSON.parse(omni(['doctor', '--json'], s.env).stdout);
  t.match(doc.checks.find((c: { name: string }) => c.name === 'transport').detail, /command hooks: a new omni process per tool call\. mcp_tool handlers need Claude Code/);

  // The user upgrades Claude Code and runs init again: the fast transport, no command hook left for tool events.
  const up = { ...s.env, OMNI_CLAUDE_BIN: fakeClaude(s.home, MIN_MCP_TOOL_VERSION) };
  t.equal(omni(['init', '--claude'], up).status, 0);
  const st2 = s.read(s.settings);
  t.same(st2.hooks.PostToolUse.map((g: any) => g.hooks[0].type), ['command', 'mcp_tool'], 'the foreign command hook and omni\'s mcp_tool handler, no omni command hook');
  // And back (e.g. OMNI_CLAUDE_TRANSPORT=command): the server and the deny entry go too.
  t.equal(omni(['init', '--claude'], { ...up, OMNI_CLAUDE_TRANSPORT: 'command' }).status, 0);
  t.same(s.read(s.settings).permissions, FOREIGN_SETTINGS.permissions, 'deny entry removed');
  t.same(s.read(s.claudeJson), FOREIGN_CLAUDE_JSON, 'server removed');
});

t.test('a foreign MCP server named "omni" is left alone: command hooks', async (t) => {
  const s = setup(MIN_MCP_TOOL_VERSION);
  const mine = { ...FOREIGN_CLAUDE_JSON, mcpServers: { omni: { type: 'stdio', command: 'some-other-omni', args: ['serve'], env: {} } } };
  writeFileSync(s.claudeJson, JSON.stringify(mine, null, 2) + '\n');
  const r = omni(['init', '--claude'], s.env);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /transport: command hooks \(.*not omni's hook server; left alone\)/);
  t.same(s.read(s.claudeJson), mine, 'untouched');
  t.equal(omni(['init', '--claude', '--uninstall'], s.env).status, 0);
  t.same(s.read(s.claudeJson), mine, 'uninstall leaves it too');
});

t.test('--mcp-tools: the server offers the model its tools, init and doctor say so; init without it takes them back', async (t) => {
  const s = setup(MIN_MCP_TOOL_VERSION);
  const r = omni(['init', '--claude', '--mcp-tools'], s.env);
  t.equal(r.status, 0, r.stderr);
  t.same(s.read(s.claudeJson).mcpServers.omni.args, [OMNI, 'mcp', '--hook-tool', '--mcp-tools']);
  t.match(r.stdout, /offered to the model: omni_run, omni_retrieve, omni_stats, omni_remember, omni_recall, omni_goal \(each model request carries their definitions/);
  t.same(s.read(s.settings).permissions.deny, ['Bash(rm -rf *)', HOOK_TOOL_FULL_NAME], 'omni_hook still denied');
  const doc = JSON.parse(omni(['doctor', '--json'], s.env).stdout);
  t.match(doc.checks.find((c: { name: string }) => c.name === 'mcp-tools')?.detail ?? '', /^offered to the model: omni_run, .*omni_goal \(--mcp-tools\)/);
  t.equal(omni(['init', '--claude'], s.env).status, 0);
  t.same(s.read(s.claudeJson).mcpServers.omni.args, [OMNI, 'mcp', '--hook-tool'], 'the user\'s choice each time: without the flag, no tools');
  t.equal(omni(['init', '--claude', '--uninstall'], s.env).status, 0);
  t.same(s.read(s.claudeJson), FOREIGN_CLAUDE_JSON, 'uninstall removes the server either way');
  const cmd = omni(['init', '--claude', '--mcp-tools'], { ...s.env, OMNI_CLAUDE_TRANSPORT: 'command' });
  t.match(cmd.stdout, /--mcp-tools ignored: command hooks register no MCP server/);
});
