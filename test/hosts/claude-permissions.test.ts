import t from 'tap';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBashCommand, contentMatches, loadPermissionRules, splitSubcommands, type PermissionRules } from '../../lib/hosts/claude-permissions.js';

const rules = (r: Partial<PermissionRules>): PermissionRules => ({ allow: [], deny: [], ask: [], sources: [], ...r });

t.test('rule forms match as the host matches them (checked against the real CLI)', async (t) => {
  // exact
  t.ok(contentMatches('npm test', 'npm test', false));
  t.notOk(contentMatches('npm test', 'npm test --watch', false));
  t.notOk(contentMatches('touch a.txt', 'touch  a.txt', false), 'two spaces: not matched by an allow rule');
  // legacy prefix
  t.ok(contentMatches('npm test:*', 'npm test', false));
  t.ok(contentMatches('npm test:*', 'npm test -- --grep x', false));
  t.notOk(contentMatches('touch:*', 'touchy a', false), '`touch:*` does not match `touchy`');
  // wildcard
  t.ok(contentMatches('git *', 'git status', false));
  t.ok(contentMatches('touch *', 'touch', false), '`touch *` matches bare `touch`');
  t.notOk(contentMatches('ls *', 'lsof', false));
  t.ok(contentMatches('npm run *:ci', 'npm run test:ci', false));
  // everything
  t.ok(contentMatches('', 'anything at all', false));
  t.ok(contentMatches('*', 'anything at all', false));
});

t.test('deny and ask rules match generously: sub-commands and leading assignments count', async (t) => {
  const r = rules({ deny: ['Bash(npm test)'], ask: ['Bash(git push:*)'] });
  t.equal(checkBashCommand('FOO=1 npm test', r).deny, 'Bash(npm test)');
  t.equal(checkBashCommand('cd app && npm test', r).deny, 'Bash(npm test)');
  t.equal(checkBashCommand('timeout 60 npm test', r).deny, 'Bash(npm test)');
  t.equal(checkBashCommand('git push origin main', r).ask, 'Bash(git push:*)');
  t.equal(checkBashCommand('npm install', r).deny, null);
  t.equal(checkBashCommand('Bash', rules({ deny: ['Read(./secret)'] })).deny, null, 'rules for other tools are ignored');
  t.equal(checkBashCommand('anything', rules({ deny: ['Bash'] })).deny, 'Bash', '`Bash` alone denies every command');
});

t.test('allow rules match strictly: every sub-command must be allowed, no command substitution', async (t) => {
  const r = rules({ allow: ['Bash(npm test)', 'Bash(git status)'] });
  t.equal(checkBashCommand('npm test', r).allow, 'Bash(npm test)');
  t.equal(checkBashCommand('npm test && git status', r).allow, 'Bash(npm test)');
  t.equal(checkBashCommand('npm test && rm -rf x', r).allow, null);
  t.equal(checkBashCommand('FOO=1 npm test', r).allow, null, 'an assignment the rule does not name: no allow from omni');
  t.equal(checkBashCommand('npm test $(rm -rf x)', rules({ allow: ['Bash(npm test:*)'] })).allow, null);
});

t.test('sub-commands split on unquoted operators only', async (t) => {
  t.same(splitSubcommands(`echo 'a && b' && ls | wc; x & y`).parts, [`echo 'a && b'`, 'ls', 'wc', 'x', 'y']);
  t.same(splitSubcommands('make 2>&1').parts, ['make 2>&1'], '2>&1 is a redirection');
});

t.test('rules are read from user, project and local settings; project allow rules only for a trusted workspace', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'omni-perm-'));
  const proj = join(home, 'proj');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(join(proj, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(make)'] } }));
  writeFileSync(join(proj, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(npm test)'], allow: ['Bash(npm run build)'] } }));
  writeFileSync(join(proj, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { ask: ['Bash(git push:*)'] } }));
  const env = { HOME: home };
  let r = loadPermissionRules([proj], env);
  t.same(r.allow, ['Bash(make)'], 'untrusted project: its allow rules do not count');
  t.same(r.deny, ['Bash(npm test)']);
  t.same(r.ask, ['Bash(git push:*)']);
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ projects: { [proj]: { hasTrustDialogAccepted: true } } }));
  r = loadPermissionRules([proj], env);
  t.same(r.allow.sort(), ['Bash(make)', 'Bash(npm run build)'], 'trusted project: they count');
});

t.test('an unreadable settings file counts as an ask rule for every command', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'omni-perm-'));
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), '{ broken');
  const r = loadPermissionRules([undefined], { HOME: home });
  t.equal(checkBashCommand('npm test', r).ask, 'Bash');
});
