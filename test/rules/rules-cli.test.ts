/**
 * Rules of one's own through the built bundle (dist/omni.cjs), in a real temp project with a
 * real tool (GNU tar): `omni pipe --command`, `omni exec`, `omni rules test/explain/trust`,
 * untrusted against trusted, a bad file, and zod left unloaded when no rules file exists.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, OMNI } from '../helpers/omni.js';
import { trustFile, userRulesPath } from '../../lib/rules/load.js';
import { FIXTURES, project, tarTree, TAR_COMMAND, TAR_MISSING, TAR_RULE, TAR_VERBOSE, type Project } from './project.js';

const run = (p: Project, args: string[], input?: string) => {
  const r = omni(args, { cwd: p.dir, env: { OMNI_HOME: p.home }, input });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

const EXPECTED = [
  '[omni: 10 members hidden by rule tar-members — omni retrieve <handle>]',
  'src/app.conf',
  '[omni: 16 members hidden by rule tar-members — omni retrieve <handle>]',
];
const MARKERS = /^\[omni: 10 members hidden by rule tar-members — omni retrieve ([0-9a-f]{16})\]\nsrc\/app\.conf\n\[omni: 16 members hidden by rule tar-members — omni retrieve ([0-9a-f]{16})\]\n$/;

t.test('omni pipe --command: untrusted does nothing, trusted hides the members; retrieve gives the exact bytes', async (t) => {
  const p = project();
  const before = run(p, ['pipe', '--command', TAR_COMMAND], TAR_VERBOSE);
  t.equal(before.stdout, TAR_VERBOSE, 'untrusted: the raw output');
  const trusted = run(p, ['rules', 'trust']);
  t.equal(trusted.status, 0, trusted.stderr);
  t.match(trusted.stdout, new RegExp(`^trusted ${p.rulesFile} \\(1 rule, sha256 [0-9a-f]{64}\\)`));
  const after = run(p, ['pipe', '--command', TAR_COMMAND], TAR_VERBOSE);
  const m = MARKERS.exec(after.stdout);
  t.ok(m, after.stdout);
  const lines = TAR_VERBOSE.split(/(?<=\n)/);
  t.equal(run(p, ['retrieve', m![1]]).stdout, lines.slice(0, 10).join(''));
  t.equal(run(p, ['retrieve', m![2]]).stdout, lines.slice(11).join(''));
});

t.test('omni exec runs real tar: members hidden in place, a failing tar verbatim with its code', async (t) => {
  const p = project();
  tarTree(p.dir);
  run(p, ['rules', 'trust']);
  const raw = spawnSync('tar', ['-cvf', 'direct.tar', 'src'], { cwd: p.dir }).stdout.toString();
  const r = run(p, ['exec', 'tar', '-cvf', 'out.tar', 'src']);
  t.equal(r.status, 0);
  const handles = [...r.stdout.matchAll(/omni retrieve ([0-9a-f]{16})\]/g)].map((x) => x[1]);
  t.ok(handles.length >= 1, r.stdout);
  t.match(r.stdout, /hidden by rule tar-members/);
  t.match(r.stdout, /^src\/app\.conf$/m, 'the keep pattern holds');
  const expanded = r.stdout.replace(/^\[omni: .* — omni retrieve ([0-9a-f]{16})\]\n/gm, (_l, h: string) => run(p, ['retrieve', h]).stdout);
  t.equal(expanded, raw, 'every marker expanded gives back what tar printed');
  const failing = run(p, ['exec', 'tar', '-cvf', 'out.tar', 'src', 'missing.txt']);
  t.equal(failing.status, 2, 'tar\'s own exit code');
  t.match(failing.stdout, /tar: missing\.txt: Cannot stat: No such file or directory\n/);
  t.match(failing.stdout, /tar: Exiting with failure status due to previous errors\n/);
});

t.test('omni rules test: examples through the real pipeline; exit 0 on a match, 1 and a diff on a mismatch', async (t) => {
  const p = project({ rules: [{ ...TAR_RULE, examples: [{ command: TAR_COMMAND, input: TAR_VERBOSE, output: EXPECTED }] }] });
  const untrusted = run(p, ['rules', 'test']);
  t.equal(untrusted.status, 0);
  t.match(untrusted.stderr, /is not trusted, its rules are ignored/, 'a one-line notice');
  t.match(untrusted.stdout, /0 examples run/);
  const named = run(p, ['rules', 'test', '.omni/rules.json']);
  t.equal(named.status, 0, named.stdout + named.stderr);
  t.match(named.stdout, /^ok {3}project rule tar-members example 1 \(tar -cvf out\.tar src\)$/m);
  run(p, ['rules', 'trust']);
  const pass = run(p, ['rules', 'test']);
  t.equal(pass.status, 0, pass.stdout);
  t.match(pass.stdout, /ok: 1 example run/);

  const wrong = { rules: [{ ...TAR_RULE, examples: [{ command: TAR_COMMAND, input: TAR_VERBOSE, output: ['src/app.conf'] }, { command: 'git log', input: 'x\n', output: 'x\n' }] }] };
  writeFileSync(p.rulesFile, JSON.stringify(wrong));
  const fail = run(p, ['rules', 'test', p.rulesFile]);
  t.equal(fail.status, 1);
  t.match(fail.stdout, /FAIL project rule tar-members example 1 \(tar -cvf out\.tar src\)\n {2}output differs \(- expected, \+ actual\):\n {2}\+\[omni: 10 members hidden by rule tar-members — omni retrieve <handle>\]\n {3}src\/app\.conf\n {2}\+\[omni: 16 members/);
  t.match(fail.stdout, /FAIL project rule tar-members example 2 \(git log\)\n {2}the command is owned by git/, 'an example whose command the rule does not own says who does');
  t.match(run(p, ['rules', 'test']).stderr, /is not trusted/, 'edited: trusted no more');
});

t.test('omni rules explain: the owner, why, what it outranks, the files', async (t) => {
  const p = project();
  writeFileSync(userRulesPath(p.home), JSON.stringify({ rules: [{ ...TAR_RULE, name: 'user-tar' }] }));
  const a = run(p, ['rules', 'explain', TAR_COMMAND]);
  t.equal(a.status, 0);
  t.match(a.stdout, /^owner: {4}rule:user:user-tar$/m);
  t.match(a.stdout, /^why: {6}user rule "user-tar" \(.*rules\.json\) owns program tar$/m);
  t.match(a.stdout, /^built-in: generic \(no specific distiller\), outranked by the rule$/m);
  t.match(a.stdout, new RegExp(`project ${p.rulesFile}: untrusted, ignored`));
  t.match(a.stderr, /is not trusted/);
  run(p, ['rules', 'trust']);
  const b = run(p, ['rules', 'explain', TAR_COMMAND]);
  t.match(b.stdout, /^owner: {4}rule:project:tar-members$/m);
  t.match(b.stdout, /^also: {5}user rule "user-tar" .* matches too, but ranks lower$/m);
  t.match(run(p, ['rules', 'explain', 'tar', '-cvf', 'out.tar', 'src']).stdout, /^owner: {4}rule:project:tar-members$/m, 'unquoted: the words after explain are the command');
  writeFileSync(userRulesPath(p.home), JSON.stringify({ rules: [{ ...TAR_RULE, name: 'user-cat', match: { program: 'cat' } }] }));
  const answer = run(p, ['rules', 'explain', 'cat ci.yml']);
  t.match(answer.stdout, /^owner: {4}read$/m);
  t.match(answer.stdout, /^why: {6}owned by read: its output is the answer .*rule "user-cat" matches but does not apply$/m);
  t.match(answer.stdout, /^also: {5}user rule "user-cat" .* matches but does not apply$/m);
  t.match(run(p, ['rules', 'explain', 'npm test']).stdout, /^owner: {4}npm-test$/m, 'a command no rule owns: the built-in');
  t.match(run(p, ['rules', 'explain', 'tar -tf x.tar | jq .']).stdout, /^owner: {4}none .*\nwhy: {6}\| jq reshapes the output$/m);
});

t.test('a bad rules file: the error names file, rule and field; omni carries on without it', async (t) => {
  const p = project({ rules: [{ ...TAR_RULE, hide: ['(a'] }] });
  const r = run(p, ['rules', 'test']);
  t.equal(r.status, 1);
  t.match(r.stderr, new RegExp(`omni rules: ${p.rulesFile.replace(/\./g, '\\.')}: rule "tar-members" \\(rules\\[0\\]\\): field hide\\[0\\]: invalid regular expression`));
  t.equal(run(p, ['rules', 'trust']).status, 1, 'an invalid file is not trusted');
  t.equal(run(p, ['rules', 'explain', TAR_COMMAND]).status, 0);
  writeFileSync(p.rulesFile, '{ "rules": [ ');
  t.match(run(p, ['rules', 'test']).stderr, /rules\.json: not valid JSON/);
  t.notOk(existsSync(join(p.home, 'omni.log')), 'an untrusted file is parsed for the person asking, never logged for them');
  // The same bytes trusted (the library trusts bytes; `omni rules trust` refuses them): now a
  // door reads the file, and the error goes to the log.
  trustFile(p.home, p.rulesFile);
  const piped = run(p, ['pipe', '--command', TAR_COMMAND], TAR_MISSING);
  t.equal(piped.stdout, TAR_MISSING, 'the pipe still distils (generic): the output is unchanged');
  t.match(readFileSync(join(p.home, 'omni.log'), 'utf8'), /rules .*rules\.json: not valid JSON.*omni carries on without this file/);
});

t.test('no rules file or an untrusted one: a hook call never loads zod; a trusted one: it does', async (t) => {
  const p = project();
  const hookPayload = JSON.parse(readFileSync(join(FIXTURES, '..', 'claude-code', 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  hookPayload.tool_input.command = TAR_COMMAND;
  hookPayload.tool_response.stdout = TAR_VERBOSE;
  const call = (cwd: string) => spawnSync(process.execPath, ['-r', join(FIXTURES, 'trace-zod.cjs'), OMNI, '--post-hook'], { cwd, input: JSON.stringify({ ...hookPayload, cwd }), env: { ...process.env, OMNI_HOME: p.home } });
  const none = call(p.home);
  t.equal(none.status, 0);
  t.notMatch(none.stderr.toString(), /require zod/, 'no rules file: zod is never required');
  const untrusted = call(p.dir);
  t.equal(untrusted.status, 0);
  t.notMatch(untrusted.stderr.toString(), /require zod/, 'an untrusted project file: never parsed, zod never required');
  trustFile(p.home, p.rulesFile);
  const some = call(p.dir);
  t.match(some.stderr.toString(), /require zod/, 'a trusted one is parsed');
});
