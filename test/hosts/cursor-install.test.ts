// Cursor's installer: .cursor/mcp.json gets omni's MCP server (the entry really starts a
// working server), the project gets its rule, foreign entries survive, and status says what
// is missing and how to fix it.
import t from 'tap';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cursorInstaller, mcpPath, NOTE, omniEntryOf, RULE, rulePath } from '../../lib/hosts/cursor/install.js';
import { SettingsError } from '../../lib/hosts/kit/config-file.js';
import type { InstallOptions } from '../../lib/hosts/adapter.js';
import { OMNI, tempHome } from '../helpers/omni.js';

const NODE = process.execPath;

function setup(scope: 'user' | 'project' = 'project') {
  const home = tempHome();
  const cwd = tempHome();
  const env = { HOME: home, PATH: '/nonexistent' } as NodeJS.ProcessEnv;
  const opts: InstallOptions = { scope, cwd, bin: OMNI, nodePath: NODE, preHook: true, env };
  return { home, cwd, env, opts, file: mcpPath(scope, cwd, env) };
}

const readJson = (f: string) => JSON.parse(readFileSync(f, 'utf8'));

t.test('project install: the MCP server entry and the rule', async (t) => {
  const { cwd, opts, file } = setup('project');
  t.equal(file, join(cwd, '.cursor', 'mcp.json'));
  const r = cursorInstaller.install(opts);
  t.equal(r.changed, true);
  t.same(readJson(file), { mcpServers: { omni: { command: NODE, args: [OMNI, 'mcp'] } } });
  const rule = readFileSync(rulePath(cwd), 'utf8');
  t.equal(rule, RULE);
  t.match(rule, /^---\ndescription: .+\nalwaysApply: true\n---\n/, 'frontmatter Cursor reads: always applied');
  t.match(rule, /omni_run/);
  t.match(rule, /omni_retrieve/);
  t.match(rule, /verbatim/, 'says failures come back verbatim (no need to re-run raw)');
  t.same(r.files, [file, rulePath(cwd)]);
  t.ok(r.notes.includes(NOTE));

  const before = readFileSync(file);
  const again = cursorInstaller.install(opts);
  t.equal(again.changed, false, 'idempotent');
  t.ok(readFileSync(file).equals(before), 'byte-identical');
  t.notOk(existsSync(`${file}.omni-backup`), 'no backup when nothing changed');
});

t.test('user install: ~/.cursor/mcp.json only, and the notes say why there is no rule', async (t) => {
  const { home, cwd, opts, file } = setup('user');
  t.equal(file, join(home, '.cursor', 'mcp.json'));
  const r = cursorInstaller.install(opts);
  t.same(readJson(file).mcpServers.omni, { command: NODE, args: [OMNI, 'mcp'] });
  t.notOk(existsSync(rulePath(cwd)), 'no project rule written');
  t.notOk(existsSync(join(home, '.cursor', 'rules')), 'no user rules directory invented');
  t.match(r.notes.join('\n'), /no rules file at user scope/);
  t.same(r.files, [file]);
});

t.test('foreign servers and keys survive install and uninstall; a stale omni entry is replaced', async (t) => {
  const { cwd, opts, file } = setup('project');
  mkdirSync(join(cwd, '.cursor'), { recursive: true });
  const original = JSON.stringify({
    mcpServers: {
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { TOKEN: '${env:GH}' } },
      omni: { command: '/old/node', args: ['/old/place/dist/omni.cjs', 'mcp'] },
    },
    someSetting: true,
  }, null, 4) + '\n';
  writeFileSync(file, original);
  const r = cursorInstaller.install(opts);
  t.equal(r.changed, true);
  const j = readJson(file);
  t.same(Object.keys(j.mcpServers), ['github', 'omni'], 'order kept');
  t.same(j.mcpServers.github, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { TOKEN: '${env:GH}' } });
  t.same(j.mcpServers.omni, { command: NODE, args: [OMNI, 'mcp'] }, 'stale path replaced');
  t.equal(j.someSetting, true);
  t.match(readFileSync(file, 'utf8'), /^\{\n {4}"mcpServers"/, '4-space indent kept');
  t.equal(readFileSync(`${file}.omni-backup`, 'utf8'), original, 'backup of the previous file');
  t.ok(r.notes.some((n) => n.includes('.omni-backup')));

  const u = cursorInstaller.uninstall(opts);
  t.equal(u.changed, true);
  const after = readJson(file);
  t.same(after, { mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { TOKEN: '${env:GH}' } } }, someSetting: true });
  t.notOk(existsSync(rulePath(cwd)), 'rule removed');
  const u2 = cursorInstaller.uninstall(opts);
  t.equal(u2.changed, false, 'second uninstall changes nothing');
  t.match(u2.notes.join('\n'), /no omni MCP server/);
});

t.test('uninstall of an install that held only omni leaves no empty mcpServers', async (t) => {
  const { opts, file } = setup('project');
  cursorInstaller.install(opts);
  cursorInstaller.uninstall(opts);
  t.same(readJson(file), {});
  const { opts: o2, file: f2 } = setup('user');
  const none = cursorInstaller.uninstall(o2);
  t.equal(none.changed, false);
  t.notOk(existsSync(f2), 'no file created by uninstall');
});

t.test('refuses, changing nothing, when a file is not its to overwrite', async (t) => {
  const { cwd, opts, file } = setup('project');
  mkdirSync(join(cwd, '.cursor', 'rules'), { recursive: true });
  const foreign = JSON.stringify({ mcpServers: { omni: { command: 'python', args: ['-m', 'someone_elses_omni'] } } });
  writeFileSync(file, foreign);
  try {
    cursorInstaller.install(opts);
    t.fail('install should refuse');
  } catch (err) {
    t.ok(err instanceof SettingsError, 'a SettingsError (init prints its message)');
    t.match((err as Error).message, /already has an MCP server named "omni" that does not run omni/);
  }
  t.equal(readFileSync(file, 'utf8'), foreign, 'a foreign server named omni is untouched');
  t.notOk(existsSync(rulePath(cwd)));
  t.equal(cursorInstaller.uninstall(opts).changed, false, 'and uninstall leaves it');
  t.equal(readFileSync(file, 'utf8'), foreign);

  writeFileSync(file, '{ not json');
  t.throws(() => cursorInstaller.install(opts), /not valid JSON/);
  t.equal(readFileSync(file, 'utf8'), '{ not json');

  writeFileSync(file, JSON.stringify({ mcpServers: [] }));
  t.throws(() => cursorInstaller.install(opts), /"mcpServers" .* is not an object/);

  writeFileSync(file, '{}');
  writeFileSync(rulePath(cwd), '# my own rule\n');
  t.throws(() => cursorInstaller.install(opts), /not omni's rule/);
  t.equal(readFileSync(file, 'utf8'), '{}', 'mcp.json untouched when the rule is refused');
  t.equal(readFileSync(rulePath(cwd), 'utf8'), '# my own rule\n');
  const u = cursorInstaller.uninstall(opts);
  t.ok(existsSync(rulePath(cwd)), 'a foreign rule survives uninstall');
  t.match(u.notes.join('\n'), /not omni's rule; left in place/);
});

t.test('an older omni rule is rewritten (with a backup)', async (t) => {
  const { cwd, opts } = setup('project');
  cursorInstaller.install(opts);
  const old = RULE.replace('omni: distilled command output', 'omni (old wording)');
  writeFileSync(rulePath(cwd), old);
  const s = await cursorInstaller.status({ ...opts, bin: OMNI });
  t.ok(s.problems.some((p) => /another omni version/.test(p.what)), 'status notices the stale rule');
  const r = cursorInstaller.install(opts);
  t.equal(r.changed, true);
  t.equal(readFileSync(rulePath(cwd), 'utf8'), RULE);
  t.equal(readFileSync(`${rulePath(cwd)}.omni-backup`, 'utf8'), old);
});

t.test('the installed entry starts a working omni MCP server', async (t) => {
  const { opts, file, home } = setup('project');
  cursorInstaller.install(opts);
  const entry = readJson(file).mcpServers.omni;
  const client = new Client({ name: 'cursor-stand-in', version: '0' });
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...process.env, OMNI_HOME: join(home, '.omni') } as Record<string, string>, cwd: opts.cwd });
  await client.connect(transport);
  t.teardown(() => client.close());
  const { tools } = await client.listTools();
  t.ok(tools.some((x) => x.name === 'omni_run'));
  const r = (await client.callTool({ name: 'omni_run', arguments: { command: 'echo from-cursor' } })) as { content: { text?: string }[] };
  t.equal(r.content[0].text, 'from-cursor\n');
});

t.test('detect: OMNI_CURSOR_BIN, cursor-agent or cursor on PATH; ~/.cursor alone is not Cursor', async (t) => {
  const { home, env } = setup();
  t.same(cursorInstaller.detect(env), { detected: false });
  const bin = join(tempHome(), 'cursor-agent');
  writeFileSync(bin, '#!/bin/sh\necho 2026.01.17-abc1234\n');
  chmodSync(bin, 0o755);
  t.same(cursorInstaller.detect({ ...env, OMNI_CURSOR_BIN: bin }), { detected: true, version: '2026.01.17', where: bin });
  t.same(cursorInstaller.detect({ ...env, PATH: join(bin, '..') }), { detected: true, version: '2026.01.17', where: bin });
  mkdirSync(join(home, '.cursor'));
  t.same(cursorInstaller.detect(env), { detected: false }, 'omni init writes ~/.cursor/mcp.json itself: the folder proves nothing');
  t.same(cursorInstaller.detect({ ...env, OMNI_CURSOR_BIN: join(home, 'gone') }), { detected: false }, 'an override that is not there');
});

/** A `cursor-agent` that answers --version: Cursor installed. */
function installed(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const bin = join(tempHome(), 'cursor-agent');
  writeFileSync(bin, '#!/bin/sh\necho 2026.01.17-abc1234\n');
  chmodSync(bin, 0o755);
  env.OMNI_CURSOR_BIN = bin;
  return env;
}

t.test('status: wired without Cursor installed is a warning naming what was looked for', async (t) => {
  const { cwd, env, opts } = setup('project');
  cursorInstaller.install(opts);
  const s = await cursorInstaller.status({ scope: 'user', cwd, env, bin: OMNI });
  t.equal(s.detected, false);
  t.same(s.problems.map((p) => [p.status, p.what]), [['warn', 'Cursor (`cursor-agent` or `cursor`) was not found on PATH']]);
});

t.test('status: wiring, tier, problems with fixes', async (t) => {
  const { cwd, env, opts } = setup('project');
  installed(env);
  const base = { scope: 'user' as const, cwd, env, bin: OMNI };
  const none = await cursorInstaller.status(base);
  t.equal(none.wired, false);
  t.equal(none.tier, 'memory');
  t.ok(none.problems.some((p) => p.status === 'fail' && /no omni MCP server/.test(p.what) && /omni init --cursor/.test(p.fix)));
  t.ok(none.problems.some((p) => p.status === 'warn' && /omni\.mdc/.test(p.what)), 'the missing rule is named');

  cursorInstaller.install(opts);
  const ok = await cursorInstaller.status(base);
  t.equal(ok.wired, true);
  t.equal(ok.tier, 'handoff');
  t.equal(ok.note, 'Cursor cannot replace shell output; noisy commands go through omni_run (MCP); offered to the model: omni_run, omni_retrieve, omni_stats, omni_remember, omni_recall, omni_goal', 'doctor shows which tools the server offers');
  t.same(ok.problems, []);
  t.same(ok.files, [mcpPath('project', cwd, env), rulePath(cwd)]);

  // user scope only: wired, but this project has no rule
  const u = setup('user');
  installed(u.env);
  cursorInstaller.install(u.opts);
  const us = await cursorInstaller.status({ scope: 'user', cwd: u.cwd, env: u.env, bin: OMNI });
  t.equal(us.tier, 'handoff');
  t.same(us.problems.map((p) => p.status), ['warn']);
  t.match(us.problems[0].fix, /omni init --cursor --project/);

  // the entry points at files that are gone
  const gone = join(tempHome(), 'dist', 'omni.cjs');
  cursorInstaller.install({ ...opts, bin: gone });
  const broken = await cursorInstaller.status(base);
  t.equal(broken.wired, true);
  t.equal(broken.tier, 'memory');
  t.ok(broken.problems.some((p) => p.status === 'fail' && p.what.includes(`runs ${gone}, which does not exist`) && /--project/.test(p.fix)));

  // an entry for another existing omni
  const other = join(tempHome(), 'omni.cjs');
  writeFileSync(other, '');
  cursorInstaller.install({ ...opts, bin: other });
  const elsewhere = await cursorInstaller.status(base);
  t.ok(elsewhere.problems.some((p) => p.status === 'warn' && /not this omni/.test(p.what)));

  // unreadable mcp.json
  writeFileSync(mcpPath('project', cwd, env), '{ nope');
  const bad = await cursorInstaller.status(base);
  t.ok(bad.problems.some((p) => p.status === 'fail' && /not valid JSON/.test(p.what)));
});

t.test('omniEntryOf recognises omni mcp in any form it was installed', async (t) => {
  t.equal(omniEntryOf({ command: '/n/node', args: ['/x/dist/omni.cjs', 'mcp'] }), '/x/dist/omni.cjs');
  t.equal(omniEntryOf({ command: '/usr/local/bin/omni', args: ['mcp'] }), '/usr/local/bin/omni');
  t.equal(omniEntryOf({ command: 'npx', args: ['-y', 'some-server'] }), null);
  t.equal(omniEntryOf({ command: '/x/omni.cjs', args: ['exec', 'mcp'] }), null);
  t.equal(omniEntryOf({ url: 'https://example.invalid/mcp' }), null);
  t.equal(omniEntryOf('omni mcp'), null);
});
