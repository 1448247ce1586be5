/**
 * Rules of one's own, in process: the file format's errors name the file, the rule and the
 * field; routing precedence (trusted project > user > built-in); trust by exact contents; the
 * per-process cache sees edits; and the safety rules: an untrusted project rule does nothing,
 * a trusted rule never hides a failure line, never touches structured output. The hook path
 * runs runHook with a real Claude Code Bash payload.
 */
import t from 'tap';
import { readFileSync, symlinkSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { routeCommand } from '../../lib/distillers/registry.js';
import { loadRuleSet, trustFile, userRulesPath } from '../../lib/rules/load.js';
import { validateRules } from '../../lib/rules/schema.js';
import { runHook } from '../../lib/doors/hook.js';
import { distill } from '../helpers/omni.js';
import { openStore } from '../../lib/store/open.js';
import { getBlob } from '../../lib/store/archive.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';
import { project, TAR_COMMAND, TAR_MISSING, TAR_RULE, TAR_VERBOSE } from './project.js';

const errorsOf = (json: unknown) => validateRules(json, '/p/.omni/rules.json').errors;

t.test('a bad rule: the error names the file, the rule and the field', async (t) => {
  t.match(errorsOf({ rules: [{ ...TAR_RULE, hide: ['ok', '(unclosed'] }] }), [/^\/p\/\.omni\/rules\.json: rule "tar-members" \(rules\[0\]\): field hide\[1\]: invalid regular expression/]);
  t.match(errorsOf({ rules: [TAR_RULE, { ...TAR_RULE, name: 'x', hides: ['a'] }] }), [/rules\.json: rule "x" \(rules\[1\]\): field .*hides/], 'a misspelt key is an error, not a rule that silently never applies');
  t.match(errorsOf({ rules: [{ name: 'y', match: { program: 'tar' } }] }), [/rule "y" \(rules\[0\]\): field hide: /]);
  t.match(errorsOf({ rules: [{ ...TAR_RULE, match: {} }] }), [/rule "tar-members" \(rules\[0\]\): field match\.program: /]);
  t.match(errorsOf({ rules: [{ ...TAR_RULE, name: 'has space' }] }), [/rule "has space" \(rules\[0\]\): field name: /]);
  t.match(errorsOf({ rules: [TAR_RULE, TAR_RULE] }), [/rule "tar-members" \(rules\[1\]\): field name: another rule/]);
  t.match(errorsOf({ rules: [{ ...TAR_RULE, examples: [{ input: 'a' }] }] }), [/field examples\[0\]\.output: /]);
  t.match(errorsOf({ rule: [] }), [/rules\.json: field /], 'a file-level error names the file and the field');
  t.same(errorsOf({ rules: [TAR_RULE] }), []);
});

t.test('routing: an untrusted project rule routes nothing; trusted, it outranks the built-in; a changed file needs trusting again', async (t) => {
  const p = project();
  const scope = { cwd: p.dir, home: p.home };
  t.equal(routeCommand(TAR_COMMAND, scope).distiller, 'generic', 'untrusted: the built-in route');
  t.match(loadRuleSet(p.dir, p.home).notices, [/is not trusted, its rules are ignored/]);
  trustFile(p.home, p.rulesFile);
  const r = routeCommand(TAR_COMMAND, scope);
  t.equal(r.distiller, 'rule:project:tar-members');
  t.match(r.reason, /project rule "tar-members" .*owns program tar/);
  t.equal(routeCommand('cd src && tar -cvf ../x.tar .', { cwd: join(p.dir, 'src'), home: p.home }).distiller, 'rule:project:tar-members', 'a subdirectory of the project and a `cd … &&` prefix: same owner');
  t.equal(routeCommand(TAR_COMMAND).distiller, 'generic', 'without a scope (the pre-hook) no rule routes');
  const link = join(p.home, 'linked-project');
  symlinkSync(p.dir, link);
  t.equal(routeCommand(TAR_COMMAND, { cwd: link, home: p.home }).distiller, 'rule:project:tar-members', 'a symlinked cwd finds the same trust entry');
  t.equal(routeCommand('tar -cvf x.tar src | jq .', scope).distiller, null, 'a reshaping tail still passes through');
  // Same size, new contents: the stat key changes with mtime; the hash no longer matches.
  const changed = readFileSync(p.rulesFile, 'utf8').replace('"member"', '"MEMBER"');
  writeFileSync(p.rulesFile, changed);
  utimesSync(p.rulesFile, new Date(), new Date(Date.now() + 5000));
  t.equal(routeCommand(TAR_COMMAND, scope).distiller, 'generic', 'edited after trusting: ignored again (the cache saw the edit)');
  trustFile(p.home, p.rulesFile);
  t.equal(routeCommand(TAR_COMMAND, scope).distiller, 'rule:project:tar-members');
});

t.test('precedence: trusted project rules, then user rules, then built-in distillers', async (t) => {
  const p = project({ rules: [{ ...TAR_RULE, name: 'project-tar' }] });
  writeFileSync(userRulesPath(p.home), JSON.stringify({ rules: [
    { ...TAR_RULE, name: 'user-tar' },
    { ...TAR_RULE, name: 'user-npm-test', match: { program: 'npm', subcommand: 'test' } },
    { ...TAR_RULE, name: 'user-git', match: { program: 'git' } },
    { ...TAR_RULE, name: 'user-cat', match: { program: ['cat', 'ls', 'grep'] } },
  ] }));
  const scope = { cwd: p.dir, home: p.home };
  t.equal(routeCommand(TAR_COMMAND, scope).distiller, 'rule:user:user-tar', 'the user file needs no trust; untrusted project rules are skipped');
  t.equal(routeCommand('npm test', scope).distiller, 'rule:user:user-npm-test', 'a user rule outranks the built-in npm-test distiller');
  t.equal(routeCommand('npm ci', scope).distiller, 'install', 'the subcommand must match');
  t.equal(routeCommand('git fetch origin', scope).distiller, 'rule:user:user-git');
  for (const [cmd, owner] of [['git log --oneline', 'git'], ['git status', 'git-status'], ['cat .github/workflows/ci.yml', 'read'], ['ls -la', 'enumeration'], ['grep -rn TODO lib', 'search']]) {
    const r = routeCommand(cmd, scope);
    t.equal(r.distiller, owner, `${cmd}: answers outrank every rule`);
    t.match(r.reason, /is the answer .* rule "user-(git|cat)" matches but does not apply/);
  }
  trustFile(p.home, p.rulesFile);
  t.equal(routeCommand(TAR_COMMAND, scope).distiller, 'rule:project:project-tar', 'trusted project rules come first');
});

t.test('a trusted rule hides member lines in place; the markers retrieve the exact bytes', async (t) => {
  const p = project();
  trustFile(p.home, p.rulesFile);
  const r = await distill(TAR_VERBOSE, { command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home);
  const out = r.output.toString();
  t.equal(r.distiller, 'rule:project:tar-members');
  t.match(out, /^\[omni: 10 members hidden by rule tar-members — omni retrieve [0-9a-f]{16}\]\nsrc\/app\.conf\n\[omni: 16 members hidden by rule tar-members — omni retrieve [0-9a-f]{16}\]\n$/);
  t.ok(r.outBytes < r.rawBytes);
  const store = openStore({ home: p.home });
  try {
    const lines = TAR_VERBOSE.split(/(?<=\n)/);
    const handles = [...out.matchAll(/omni retrieve ([0-9a-f]{16})/g)].map((m) => m[1]);
    t.equal(getBlob(store, handles[0])?.toString(), lines.slice(0, 10).join(''), 'the first marker: the ten lines before app.conf');
    t.equal(getBlob(store, handles[1])?.toString(), lines.slice(11).join(''), 'the second: the sixteen after it');
  } finally {
    store.close();
  }
});

t.test('an untrusted project rule does nothing', async (t) => {
  const p = project();
  const r = await distill(TAR_VERBOSE, { command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home);
  t.equal(r.output.toString(), TAR_VERBOSE, 'the output is the raw output');
  t.equal(r.distiller, 'generic');
});

t.test('a trusted rule whose pattern matches every line still shows the error lines', async (t) => {
  const p = project({ rules: [{ name: 'hide-all', match: { program: 'tar' }, hide: ['.*'] }] });
  trustFile(p.home, p.rulesFile);
  const r = await distill(TAR_MISSING, { command: 'tar -cvf out.tar src missing.txt', cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home);
  const out = r.output.toString();
  t.match(out, /^\[omni: 27 lines hidden by rule hide-all — omni retrieve [0-9a-f]{16}\]\n/);
  t.ok(out.endsWith('tar: missing.txt: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n'), 'both of tar\'s error lines stay, verbatim');
  // tar's last line is plain text to classify; a rule keeps it anyway (it says failure), even
  // inside a run that pays for its marker (the line moved there from TAR_MISSING's end).
  const exiting = 'tar: Exiting with failure status due to previous errors\n';
  const inside = TAR_VERBOSE.replace('src/app.conf\n', exiting);
  const e = (await distill(inside, { command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home)).output.toString();
  t.match(e, /^\[omni: 10 lines hidden by rule hide-all — omni retrieve [0-9a-f]{16}\]\ntar: Exiting with failure status due to previous errors\n\[omni: 16 lines hidden/);
  // Signal lines (warnings, verdicts) stay as well: a run of hidden lines ends at each.
  const mixed = TAR_VERBOSE.replace('src/app.conf\n', 'tar: src/app.conf: file changed as we read it (warning)\n12 files changed\n');
  const m = (await distill(mixed, { command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home)).output.toString();
  t.match(m, /^\[omni: 10 lines hidden by rule hide-all — omni retrieve [0-9a-f]{16}\]\ntar: src\/app\.conf: file changed as we read it \(warning\)\n12 files changed\n\[omni: 16 lines hidden by rule hide-all — omni retrieve [0-9a-f]{16}\]\n$/);
});

t.test('structured output is never touched by a rule', async (t) => {
  const p = project({ rules: [{ name: 'hide-all', match: { program: 'tar' }, hide: ['.*'] }] });
  trustFile(p.home, p.rulesFile);
  const json = JSON.stringify({ members: TAR_VERBOSE.trim().split('\n') }, null, 2) + '\n';
  const r = await distill(json, { command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home);
  t.equal(r.output.toString(), json, 'JSON: byte for byte');
  t.equal(r.verbatim, 'json', 'the guard passed it through before the rule saw it');
  const csv = 'name,size,mode\n' + TAR_VERBOSE.trim().split('\n').map((l, i) => `${l},${i},644`).join('\n') + '\n';
  t.equal((await distill(csv, { command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home }, exitCode: 0 }, p.home)).output.toString(), csv, 'CSV: byte for byte');
});

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));
function bashPayload(cwd: string, command: string, stdout: string) {
  const pl = sample('PostToolUse.Bash.seq-1-300.json');
  pl.cwd = cwd;
  pl.tool_input.command = command;
  pl.tool_response.stdout = stdout;
  return pl;
}
const hook = (pl: unknown, home: string) => runHook('post-hook', Buffer.from(JSON.stringify(pl)), { OMNI_HOME: home, PATH: process.env.PATH });

t.test('post-hook (Claude Code Bash payload): untrusted does nothing, trusted distils, errors stay', async (t) => {
  const p = project();
  t.equal(await hook(bashPayload(p.dir, TAR_COMMAND, TAR_VERBOSE), p.home), '', 'untrusted: no reply, the host keeps its output');
  trustFile(p.home, p.rulesFile);
  const reply = JSON.parse(await hook(bashPayload(p.dir, TAR_COMMAND, TAR_VERBOSE), p.home));
  const stdout = reply.hookSpecificOutput.updatedToolOutput.stdout as string;
  t.match(stdout, /\[omni: 10 members hidden by rule tar-members — omni retrieve [0-9a-f]{16}\]\nsrc\/app\.conf\n\[omni: 16 members hidden/);
  const failing = JSON.parse(await hook(bashPayload(p.dir, 'tar -cvf out.tar src missing.txt', TAR_MISSING), p.home));
  t.match(failing.hookSpecificOutput.updatedToolOutput.stdout, /src\/app\.conf\n\[omni: .*\]\ntar: missing\.txt: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors/);
});

t.test('post-hook with a bad rules file: the log names file, rule and field; omni carries on with the other file', async (t) => {
  const p = project({ rules: [{ ...TAR_RULE, keep: ['[unclosed'] }] });
  writeFileSync(p.rulesFile, JSON.stringify({ rules: [{ ...TAR_RULE, keep: ['[unclosed'] }] }));
  // Trusted as it is (the library trusts bytes; `omni rules trust` would refuse them): only a
  // file that would apply is parsed, so only its errors reach the log.
  trustFile(p.home, p.rulesFile);
  writeFileSync(userRulesPath(p.home), JSON.stringify({ rules: [{ ...TAR_RULE, name: 'user-tar' }] }));
  const reply = JSON.parse(await hook(bashPayload(p.dir, TAR_COMMAND, TAR_VERBOSE), p.home));
  t.match(reply.hookSpecificOutput.updatedToolOutput.stdout, /hidden by rule user-tar/, 'the user rule still applies');
  const log = readFileSync(join(p.home, 'omni.log'), 'utf8');
  t.match(log, new RegExp(`rules ${p.rulesFile.replace(/[.]/g, '\\.')}: rule "tar-members" \\(rules\\[0\\]\\): field keep\\[0\\]: invalid regular expression.*omni carries on without this file`));
  t.equal(routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home }).distiller, 'rule:user:user-tar');
});
