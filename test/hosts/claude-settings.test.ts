import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installHooks, OMNI_HOOKS, POST_TOOL_MATCHER, uninstallHooks, withOmniHooks } from '../../lib/hosts/claude/settings.js';
import { hookCommand, isOmniHandler, omniHandlersIn, withoutOmniHooks } from '../../lib/hosts/kit/hook-entries.js';
import { needs } from '../helpers/needs.js';
import { hostBin } from '../../scripts/host-clis.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(REPO, 'dist', 'omni.cjs');
const tmp = () => mkdtempSync(join(tmpdir(), 'omni-settings-'));

const FOREIGN = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write', timeout: 10 }] }],
    Stop: [{ hooks: [{ type: 'command', command: '/usr/local/bin/notify done' }] }],
  },
};

/** What a default install registers: every event but PreToolUse (no rewrite unless asked for). */
const DEFAULT_HOOKS = OMNI_HOOKS.filter((h) => h.event !== 'PreToolUse');

t.test('install adds one handler per omni event with an absolute command and keeps every foreign hook and key', async (t) => {
  const s = withOmniHooks(structuredClone(FOREIGN) as never, '/opt/omni/dist/omni.cjs', '/usr/bin/node', { preHook: true });
  t.equal(s.model, 'opus');
  t.same(s.permissions, FOREIGN.permissions);
  const hooks = s.hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
  t.same(hooks.PostToolUse[0], FOREIGN.hooks.PostToolUse[0], 'the foreign PostToolUse group is untouched and first');
  t.same(hooks.Stop, FOREIGN.hooks.Stop);
  for (const spec of OMNI_HOOKS) {
    const found = omniHandlersIn(s).filter((h) => h.event === spec.event);
    t.equal(found.length, 1, `${spec.event} registered once`);
    t.equal(found[0].command, `env -u NODE_EXTRA_CA_CERTS /usr/bin/node /opt/omni/dist/omni.cjs ${spec.flag}`);
  }
  t.equal(hooks.PostToolUse[1].matcher, POST_TOOL_MATCHER);
});

t.test('an install made before MCP results were covered is upgraded to the one matcher, and uninstall takes it out', async (t) => {
  const old = { hooks: { PostToolUse: [{ matcher: 'Bash|Read', hooks: [{ type: 'command', command: "env -u NODE_EXTRA_CA_CERTS '/usr/bin/node' '/opt/omni/dist/omni.cjs' --post-hook", timeout: 60 }] }] } };
  const s = withOmniHooks(old as never, '/opt/omni/dist/omni.cjs', '/usr/bin/node');
  const groups = (s.hooks as Record<string, { matcher?: string }[]>).PostToolUse;
  t.same(groups.map((g) => g.matcher), [POST_TOOL_MATCHER], 'one PostToolUse group, with the new matcher');
  t.same(withOmniHooks(s, '/opt/omni/dist/omni.cjs', '/usr/bin/node'), s, 'a second install changes nothing');
  t.same(omniHandlersIn(withoutOmniHooks(s)), [], 'uninstall leaves no omni handler');
});

t.test('the PostToolUse matcher, read as the CLI reads it (an unanchored JavaScript regex), hits Bash, Read, Edit, Write and MCP tools but omni\'s own', async (t) => {
  const re = new RegExp(POST_TOOL_MATCHER);
  for (const name of ['Bash', 'Read', 'Edit', 'Write', 'mcp__standin__noisy_log', 'mcp__github__list_issues', 'mcp__plugin_x_y__get']) t.ok(re.test(name), name);
  for (const name of ['ReadMcpResourceTool', 'BashOutput', 'NotebookRead', 'NotebookEdit', 'MultiEdit', 'WriteFile', 'mcp__omni__omni_run', 'mcp__omni__omni_retrieve', 'xmcp__a__b']) t.notOk(re.test(name), name);
});

t.test('a second install leaves the file byte-identical and does not rewrite it', async (t) => {
  const dir = tmp();
  const file = join(dir, 'settings.json');
  writeFileSync(file, JSON.stringify(FOREIGN, null, 4) + '\n');
  const a = installHooks(file, '/opt/omni/dist/omni.cjs');
  t.ok(a.changed);
  t.ok(a.backup && readFileSync(a.backup, 'utf8') === JSON.stringify(FOREIGN, null, 4) + '\n', 'the previous file is kept as a backup');
  const first = readFileSync(file, 'utf8');
  t.match(first, /\n {4}"model"/, 'the file\'s own indentation is kept');
  const b = installHooks(file, '/opt/omni/dist/omni.cjs');
  t.notOk(b.changed, 'nothing to write');
  t.equal(readFileSync(file, 'utf8'), first, 'byte-identical');
});

t.test('install replaces stale omni entries, including ones at an old binary path', async (t) => {
  const stale = {
    hooks: {
      PostToolUse: [
        { matcher: '*', hooks: [{ type: 'command', command: 'node /old/place/bin/omni.js --post-hook', timeout: 5 }, { type: 'command', command: 'other-tool' }] },
      ],
      SessionEnd: [{ hooks: [{ type: 'command', command: '/usr/local/bin/omni --session-end' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'omni --hook' }] }],
    },
  };
  const s = withOmniHooks(stale as never, '/new/dist/omni.cjs', '/usr/bin/node');
  const all = omniHandlersIn(s);
  t.notOk(all.some((h) => h.command.includes('/old/place') || h.command.startsWith('/usr/local/bin/omni') || h.command === 'omni --hook'), 'no stale entry left');
  t.equal(all.length, DEFAULT_HOOKS.length);
  const hooks = s.hooks as Record<string, { hooks: { command: string }[] }[]>;
  t.same(hooks.PostToolUse[0].hooks, [{ type: 'command', command: 'other-tool' }], 'the foreign handler sharing the group stays');
  t.notOk('Stop' in hooks, 'an event left empty by removing a stale omni entry goes away');
});

t.test('a default install registers every event but PreToolUse; the rewrite only on request, and switching back and forth is clean', async (t) => {
  const post = withOmniHooks({} as never, '/x/omni.cjs', '/usr/bin/node');
  t.same(omniHandlersIn(post).map((h) => h.event).sort(), DEFAULT_HOOKS.map((h) => h.event).sort(), 'no PreToolUse by default');
  t.same(withOmniHooks({} as never, '/x/omni.cjs', '/usr/bin/node', { preHook: false }), post, 'preHook false: the same');
  const both = withOmniHooks(post, '/x/omni.cjs', '/usr/bin/node', { preHook: true });
  t.equal(omniHandlersIn(both).length, OMNI_HOOKS.length, 'preHook true (omni init --rewrite): PreToolUse too');
  t.same(withOmniHooks(both, '/x/omni.cjs', '/usr/bin/node'), post, 'a default install again takes the rewrite out');
});

t.test('uninstall removes only omni\'s entries', async (t) => {
  const installed = withOmniHooks(structuredClone(FOREIGN) as never, '/opt/omni/dist/omni.cjs', '/usr/bin/node');
  t.same(withoutOmniHooks(installed), FOREIGN);
  t.same(withoutOmniHooks({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "'/usr/bin/node' '/x/omni.cjs' --pre-hook" }] }] } } as never), {});
  t.same(withoutOmniHooks({ a: 1 } as never), { a: 1 });
});

t.test('omni\'s handlers are recognised by program and flag, not by anything that mentions omni', async (t) => {
  t.ok(isOmniHandler({ type: 'command', command: "'/usr/bin/node' '/a b/dist/omni.cjs' --post-hook" }));
  t.ok(isOmniHandler({ type: 'command', command: 'omni --hook' }));
  t.notOk(isOmniHandler({ type: 'command', command: 'echo omni --post-hook-ish' }));
  t.notOk(isOmniHandler({ type: 'command', command: 'omnibus --post-hook' }));
  t.notOk(isOmniHandler({ type: 'command', command: 'my-omni-wrapper --hook' }));
  t.equal(hookCommand('/a b/omni.cjs', '--post-hook', '/usr/bin/node'), "env -u NODE_EXTRA_CA_CERTS /usr/bin/node '/a b/omni.cjs' --post-hook");
  t.equal(hookCommand('/usr/local/bin/omni', '--hook'), '/usr/local/bin/omni --hook');
});

t.test('install refuses to overwrite a settings file that is not valid JSON', async (t) => {
  const dir = tmp();
  const file = join(dir, 'settings.json');
  writeFileSync(file, '{ "model": "opus", }');
  t.throws(() => installHooks(file, '/x/omni.cjs'), /not valid JSON/);
  t.equal(readFileSync(file, 'utf8'), '{ "model": "opus", }', 'untouched');
});

t.test('install writes through a symlinked settings file instead of replacing the link', async (t) => {
  const dir = tmp();
  const real = join(dir, 'dotfiles-settings.json');
  writeFileSync(real, '{}\n');
  const link = join(dir, 'settings.json');
  symlinkSync(real, link);
  installHooks(link, '/x/omni.cjs');
  t.ok(lstatSync(link).isSymbolicLink(), 'still a link');
  t.equal(omniHandlersIn(JSON.parse(readFileSync(real, 'utf8'))).length, DEFAULT_HOOKS.length);
});

// --- the real commands -------------------------------------------------------------------------

const built = existsSync(BIN);

function omni(args: string[], env: Record<string, string>, cwd?: string) {
  return spawnSync(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd, encoding: 'utf8', timeout: 60_000 });
}

t.test('`omni init` registers the hooks in ~/.claude/settings.json; a second run changes nothing; --uninstall restores the file', async (t) => {
  if (!needs(t, Boolean(built), 'needs dist/omni.cjs')) return;
  const home = tmp();
  mkdirSync(join(home, '.claude'));
  const file = join(home, '.claude', 'settings.json');
  writeFileSync(file, JSON.stringify(FOREIGN, null, 2) + '\n');
  const r1 = omni(['init'], { HOME: home });
  t.equal(r1.status, 0, r1.stderr);
  t.match(r1.stdout, /hooks registered in/);
  const after = readFileSync(file, 'utf8');
  t.same(omniHandlersIn(JSON.parse(after)).map((h) => h.event), DEFAULT_HOOKS.map((h) => h.event), 'every event but PreToolUse: no rewrite by default');
  t.match(r1.stdout, /no command rewrite/, 'and init says so');
  t.ok(after.includes(BIN), 'the absolute path of the running omni');
  const r2 = omni(['init'], { HOME: home });
  t.match(r2.stdout, /already up to date/);
  t.equal(readFileSync(file, 'utf8'), after, 'byte-identical');
  const noPre = omni(['init', '--no-pre-hook'], { HOME: home });
  t.equal(noPre.status, 0, '--no-pre-hook is still accepted');
  t.equal(readFileSync(file, 'utf8'), after, 'and means the default');
  const rw = omni(['init', '--rewrite'], { HOME: home });
  t.equal(rw.status, 0, rw.stderr);
  t.same(omniHandlersIn(JSON.parse(readFileSync(file, 'utf8'))).map((h) => h.event).sort(), OMNI_HOOKS.map((h) => h.event).sort(), '--rewrite: PreToolUse too');
  t.match(rw.stdout, /rewrite: PreToolUse rewrites plain noisy commands/);
  t.equal(omni(['init', '--rewrite', '--no-pre-hook'], { HOME: home }).status, 2, 'the two contradict');
  t.equal(omni(['init'], { HOME: home }).status, 0);
  t.equal(readFileSync(file, 'utf8'), after, 'init without --rewrite takes it out again');
  const r3 = omni(['init', '--uninstall'], { HOME: home });
  t.equal(r3.status, 0);
  t.same(JSON.parse(readFileSync(file, 'utf8')), FOREIGN);
});

t.test('`omni init --project` writes ./.claude/settings.json', async (t) => {
  if (!needs(t, Boolean(built), 'needs dist/omni.cjs')) return;
  const home = tmp();
  const proj = tmp();
  const r = omni(['init', '--project'], { HOME: home }, proj);
  t.equal(r.status, 0, r.stderr);
  t.ok(existsSync(join(proj, '.claude', 'settings.json')));
  t.notOk(existsSync(join(home, '.claude', 'settings.json')), 'the user file is not touched');
});

t.test('`omni doctor` is green on a good install and red, with the reason, on a broken one', async (t) => {
  if (!needs(t, Boolean(built), 'needs dist/omni.cjs')) return;
  const home = tmp();
  const env = { HOME: home, OMNI_HOME: join(home, '.omni'), OMNI_CLAUDE_BIN: hostBin('claude') };
  const none = omni(['doctor', '--json'], env, home);
  t.equal(none.status, 1, 'no hooks: red');
  t.match(JSON.parse(none.stdout).checks.find((c: { name: string }) => c.name === 'hooks-registered').detail, /omni init/);

  t.equal(omni(['init'], env).status, 0);
  const good = omni(['doctor', '--json'], env, home);
  const report = JSON.parse(good.stdout);
  t.equal(good.status, 0, JSON.stringify(report.checks.filter((c: { status: string }) => c.status !== 'ok')));
  t.equal(report.ok, true);
  t.match(report.checks.find((c: { name: string }) => c.name === 'claude-version').detail, /2\.1\.332/);
  t.match(report.checks.find((c: { name: string }) => c.name === 'probe').detail, /probe reply accepted/);
  t.match(report.checks.find((c: { name: string }) => c.name === 'rewrite').detail, /^off: commands run as approved/, 'doctor says there is no rewrite');
  const human = omni(['doctor'], env, home);
  t.match(human.stdout, /all good/);

  const file = join(home, '.claude', 'settings.json');
  // An install from before Edit and Write were registered: a warning, and `omni init` mends it.
  const installed = readFileSync(file, 'utf8');
  writeFileSync(file, installed.split(JSON.stringify(POST_TOOL_MATCHER)).join(JSON.stringify('^(Bash|Read)$|^mcp__(?!omni__)')));
  const stale = JSON.parse(omni(['doctor', '--json'], env, home).stdout);
  t.match(stale.checks.filter((c: { status: string }) => c.status === 'warn').map((c: { detail: string }) => c.detail).join('\n'), /does not include Edit and Write; run `omni init` again/, 'the old matcher is named');
  t.equal(omni(['init'], env).status, 0);
  t.equal(readFileSync(file, 'utf8'), installed, '`omni init` again registers the matcher of today');

  // Broken: the hooks point at a binary that is gone.
  writeFileSync(file, readFileSync(file, 'utf8').split(BIN).join('/gone/dist/omni.cjs'));
  const broken = omni(['doctor', '--json'], env, home);
  t.equal(broken.status, 1);
  t.match(JSON.parse(broken.stdout).checks.find((c: { name: string }) => c.name === 'hooks-executable').detail, /\/gone\/dist\/omni\.cjs/);

  // Broken: an old Claude Code.
  const fake = join(home, 'old-claude');
  writeFileSync(fake, '#!/bin/sh\necho "2.1.120 (Claude Code)"\n');
  chmodSync(fake, 0o755);
  const old = omni(['doctor', '--json'], { ...env, OMNI_CLAUDE_BIN: fake }, home);
  t.equal(old.status, 1);
  t.match(JSON.parse(old.stdout).checks.find((c: { name: string }) => c.name === 'claude-version').detail, /2\.1\.120 ignores updatedToolOutput/);
});
