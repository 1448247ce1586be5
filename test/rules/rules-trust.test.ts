/**
 * Trust is checked before anything is parsed (lib/rules/load.ts). A project rules file nobody
 * trusted costs a stat: it is never opened, read, hashed, JSON-parsed or validated, however big
 * (a cloned repository's 17 MB `.omni/rules.json` cost every hook 1.3-2.5 s and ~300 MiB).
 * Only a regular file within MAX_RULES_BYTES is ever opened: a FIFO, a directory, /dev/zero
 * are refused on the stat. A file the trust file names is read and hashed, and parsed only
 * when the hash is the trusted one. `omni rules test FILE` and `omni rules trust` still parse
 * a file the user names. No timing here: bench/rules.ts measures the cost.
 */
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OMNI } from '../helpers/omni.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';
import { loadRuleSet, MAX_RULES_BYTES, parseCount, readRulesFile, trustFile } from '../../lib/rules/load.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { FIXTURES, project, TAR_COMMAND, TAR_RULE, TAR_VERBOSE } from './project.js';

/** A valid rules file of about `bytes` bytes: many rules, each a copy of the tar rule. */
function bigRules(bytes: number): string {
  const one = JSON.stringify({ ...TAR_RULE, name: 'r-000000' }).length + 1;
  const n = Math.ceil(bytes / one);
  return JSON.stringify({ rules: Array.from({ length: n }, (_, i) => ({ ...TAR_RULE, name: `r-${String(i).padStart(6, '0')}` })) });
}

t.test('a 17 MB untrusted project file: a hook call never opens it, never loads zod, and its peak RSS does not grow with it', async (t) => {
  const p = project();
  const hookPayload = JSON.parse(readFileSync(join(CLAUDE_SAMPLES, 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  hookPayload.tool_input.command = TAR_COMMAND;
  hookPayload.tool_response.stdout = TAR_VERBOSE;
  const call = () => spawnSync(process.execPath, ['-r', join(FIXTURES, 'trace-open.cjs'), OMNI, '--post-hook'], { cwd: p.dir, input: JSON.stringify({ ...hookPayload, cwd: p.dir }), env: { ...process.env, OMNI_HOME: p.home }, encoding: 'utf8' });
  const rss = (stderr: string) => Number(/\[trace\] maxrss (\d+)/.exec(stderr)?.[1]);
  rmSync(p.rulesFile);
  const without = call();
  writeFileSync(p.rulesFile, bigRules(17 << 20));
  const big = call();
  t.equal(big.status, 0);
  t.equal(big.stdout, without.stdout, 'the same reply as with no project file at all');
  t.notMatch(big.stderr, /\[trace\] (openSync|readFileSync|open|readFile|createReadStream) .*\.omni\/rules\.json/, 'the untrusted file is never opened');
  t.notMatch(big.stderr, /require zod/, 'nothing is validated');
  t.ok(rss(big.stderr) - rss(without.stderr) < 48 * 1024, `peak RSS ${rss(without.stderr)} KiB without the file, ${rss(big.stderr)} KiB with it (a parse of it costs ~300 MiB)`);
});

t.test('in process: an untrusted file is never parsed; a trusted one once per version; a changed one is hashed, not parsed', async (t) => {
  const p = project();
  const before = parseCount.n;
  for (let i = 0; i < 3; i++) t.equal(routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home }).distiller, 'generic');
  t.match(loadRuleSet(p.dir, p.home).notices, [/is not trusted/]);
  t.equal(parseCount.n, before, 'untrusted: no parse');
  trustFile(p.home, p.rulesFile);
  t.equal(routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home }).distiller, 'rule:project:tar-members');
  routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home });
  t.equal(parseCount.n, before + 1, 'trusted: parsed once, then read from the cache');
  writeFileSync(p.rulesFile, JSON.stringify({ rules: [{ ...TAR_RULE, hide: ['.*'] }] }));
  t.equal(routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home }).distiller, 'generic', 'changed since it was trusted: not used');
  t.equal(parseCount.n, before + 1, 'the changed bytes were hashed, not parsed');
  const named = readRulesFile(p.rulesFile, 'project', p.home, { evenUntrusted: true });
  t.equal(named?.rules[0].hide[0].source, '.*', 'a file the user names (rules test FILE, trust) is parsed');
  t.equal(named?.trusted, false, 'and is still not trusted');
});

t.test('only a regular file is opened: a FIFO, a directory and /dev/zero are refused on the stat, and named', async (t) => {
  const p = project();
  rmSync(p.rulesFile);
  execFileSync('mkfifo', [p.rulesFile]);
  const fifo = loadRuleSet(p.dir, p.home, { evenUntrusted: true });
  t.match(fifo.files[0]?.errors, [/rules\.json: not a regular file \(a FIFO\), never opened/], 'a FIFO: refused (an open would wait for a writer forever)');
  t.equal(routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home }).distiller, 'generic', 'and routes nothing');
  rmSync(p.rulesFile);
  mkdirSync(p.rulesFile);
  t.match(loadRuleSet(p.dir, p.home).files[0]?.errors, [/not a regular file \(a directory\)/]);
  rmSync(p.rulesFile, { recursive: true });
  symlinkSync('/dev/zero', p.rulesFile);
  t.match(loadRuleSet(p.dir, p.home).files[0]?.errors, [/not a regular file \(a device\)/], '/dev/zero through a link: never read');
  // A nearer non-file is the project's file: the search does not go on to an ancestor's.
  const inner = join(p.dir, 'sub');
  mkdirSync(join(inner, '.omni'), { recursive: true });
  execFileSync('mkfifo', [join(inner, '.omni', 'rules.json')]);
  t.equal(loadRuleSet(inner, p.home).files[0]?.file, join(inner, '.omni', 'rules.json'));
});

t.test(`the size cap: a file over ${MAX_RULES_BYTES} bytes is refused unread, even trusted; omni rules trust refuses it`, async (t) => {
  const p = project();
  writeFileSync(p.rulesFile, bigRules(MAX_RULES_BYTES + 4096));
  // Trusted as it was before it grew (trustFile itself refuses to read it).
  trustFile(p.home, p.rulesFile, createHash('sha256').update(readFileSync(p.rulesFile)).digest('hex'));
  const before = parseCount.n;
  const set = loadRuleSet(p.dir, p.home);
  t.match(set.files[0]?.errors, [/rules\.json: \d+ bytes, over the 1048576 bytes \(1 MiB\) a rules file may have; not read/]);
  t.equal(set.active.length, 0);
  t.equal(parseCount.n, before);
  t.match(readFileSync(join(p.home, 'omni.log'), 'utf8'), /over the 1048576 bytes.*omni carries on without this file/, 'a file the user trusted: the refusal is logged');
  const r = spawnSync(process.execPath, [OMNI, 'rules', 'trust'], { cwd: p.dir, env: { ...process.env, OMNI_HOME: p.home }, encoding: 'utf8' });
  t.equal(r.status, 1);
  t.match(r.stderr, /over the 1048576 bytes/);
  writeFileSync(p.rulesFile, bigRules(MAX_RULES_BYTES - 8192));
  trustFile(p.home, p.rulesFile);
  t.equal(loadRuleSet(p.dir, p.home).active.length > 1000, true, 'just under the cap: read, trusted, used');
});

t.test('an untrusted file with errors is not logged by a door: only files that apply reach omni.log', async (t) => {
  const p = project('{ "rules": [ ');
  t.equal(routeCommand(TAR_COMMAND, { cwd: p.dir, home: p.home }).distiller, 'generic');
  t.notOk(existsSync(join(p.home, 'omni.log')));
});
