import t from 'tap';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBashCommand, contentMatches, loadPermissionRules, splitSubcommands, type PermissionRules } from '../../lib/hosts/claude/permissions.js';

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
  t.ok(contentMatches('npm run *:ci', 'npm run test:ci', true), 'a wildcard in the middle: matched generously (deny, ask)');
  t.notOk(contentMatches('npm run *:ci', 'npm run test:ci', false), 'but never proves an allow: a doubt is no match');
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

// Issue: a deny rule the host applies to every one of these respellings. Before, omni's matcher
// compared raw prefixes and peeled only a few wrappers, so each of these was rewritten into
// `omni exec '…'`, which no longer matched the rule, and ran.
const RESPELLINGS_NPM_TEST = [
  'npm  test', 'npm\ttest', '"npm" test', 'npm "test"', '\\npm test', 'env FOO=1 npm test', 'env -u FOO npm test',
  'nice -n 5 npm test', 'time -p npm test', 'stdbuf -oL npm test', 'timeout -s KILL 60 npm test', 'exec npm test',
  '/usr/bin/npm test', "npm 'test'", 'NPM test', 'npm t""est', '{npm,test}', "sh -c 'npm test'", 'cd x; npm test',
  '(npm test)', 'echo $(npm test)', 'sudo -u me npm test', 'xargs -n1 npm test', 'builtin command npm test',
  'if npm test; then :; fi', '! npm test', 'FOO=1 BAR="a b" npm test', 'npm test 2>&1', 'npm${IFS}test',
];
const RESPELLINGS_MAKE_DEPLOY = ['make "deploy"', 'nice -n 5 make deploy', 'env X=1 make deploy', 'make  deploy', "make 'deploy'", '/usr/bin/make deploy', 'make deploy > log'];

t.test('deny rules hold for every respelling the host folds, quotes, wraps or paths', async (t) => {
  const r = rules({ deny: ['Bash(npm test:*)', 'Bash(make deploy)'], allow: ['Bash(npm:*)', 'Bash(make:*)', 'Bash(nice:*)', 'Bash(env:*)'] });
  for (const c of RESPELLINGS_NPM_TEST) {
    const v = checkBashCommand(c, r);
    t.equal(v.deny, 'Bash(npm test:*)', `${JSON.stringify(c)}: denied`);
  }
  for (const c of RESPELLINGS_MAKE_DEPLOY) t.equal(checkBashCommand(c, r).deny, 'Bash(make deploy)', `${JSON.stringify(c)}: denied`);
  for (const c of [...RESPELLINGS_NPM_TEST, ...RESPELLINGS_MAKE_DEPLOY].filter((c) => !/^(npm|make) [a-z]+$/.test(c))) {
    t.equal(checkBashCommand(c, r).allow, null, `${JSON.stringify(c)}: never an allow from omni (not plain words)`);
  }
  t.equal(checkBashCommand('npm run build', r).deny, null, 'another npm command: no deny');
  t.equal(checkBashCommand('npm run build', r).allow, 'Bash(npm:*)', 'and the allow rule, strictly');
  t.equal(checkBashCommand('make', r).deny, null, 'bare make: the exact rule is for make deploy');
  t.equal(checkBashCommand('make deploy', r).deny, 'Bash(make deploy)');
});

t.test('rules spelled with quotes, spaces or another case count for deny and ask, never for allow', async (t) => {
  t.equal(checkBashCommand('npm test', rules({ deny: ['Bash(npm  "test":*)'] })).deny, 'Bash(npm  "test":*)');
  t.equal(checkBashCommand('npm test', rules({ ask: ['bash(NPM TEST)'] })).ask, 'bash(NPM TEST)');
  t.equal(checkBashCommand('npm test', rules({ allow: ['Bash(npm  test)'] })).allow, null, 'an allow rule not in plain words proves nothing');
  t.equal(checkBashCommand('npm test', rules({ allow: ['bash(npm test)'] })).allow, null, 'nor one for another tool name');
  t.equal(checkBashCommand('npm test', rules({ allow: ['Bash(npm *)'] })).allow, 'Bash(npm *)');
  t.equal(checkBashCommand('npm', rules({ allow: ['Bash(npm *)'] })).allow, 'Bash(npm *)', '`x *` takes bare x (measured)');
  t.equal(checkBashCommand('npmx test', rules({ allow: ['Bash(npm:*)'] })).allow, null, 'a prefix ends at a word');
  t.equal(checkBashCommand('git push origin', rules({ allow: ['Bash(git * origin)'] })).allow, null, 'a wildcard inside: no proof');
});

t.test('an unreadable settings file and a Bash sandbox are doubts the policy sees', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'omni-perm-'));
  mkdirSync(join(home, '.claude', 'settings.json'), { recursive: true });
  t.equal(checkBashCommand('npm test', loadPermissionRules([undefined], { HOME: home })).ask, 'Bash', 'a settings path omni cannot read (a directory): ask for every command');
  const home2 = mkdtempSync(join(tmpdir(), 'omni-perm-'));
  mkdirSync(join(home2, '.claude'), { recursive: true });
  writeFileSync(join(home2, '.claude', 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }));
  t.match(loadPermissionRules([undefined], { HOME: home2 }).sandbox, /settings\.json$/);
  writeFileSync(join(home2, '.claude', 'settings.json'), JSON.stringify({ sandbox: { enabled: false } }));
  t.equal(loadPermissionRules([undefined], { HOME: home2 }).sandbox, undefined);
});
