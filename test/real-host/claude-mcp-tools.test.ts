/**
 * What omni offers the model, proved with the real host: the pinned Claude Code CLI (2.1.332),
 * omni installed by the real `omni init` (mcp_tool transport), bypassPermissions, and a user
 * deny rule `Bash(npm test:*)`, against the loopback stand-in that records every request.
 *
 * - Default install: omni's server offers the model nothing. No model request carries an omni
 *   tool (by definition or by name) or omni's instructions, and `omni stats` counts no cost.
 * - `omni init --mcp-tools`: the tools are offered; omni_run refuses `npm test`, which the Bash
 *   deny rule names (before, it ran it: a second shell the rule did not reach). Their bytes per
 *   request, measured from the request bodies, are the figure `omni stats` nets against the
 *   saving, with the host's deferred tool list (default) and with whole definitions
 *   (ENABLE_TOOL_SEARCH=false).
 *
 * Run: npx tap --disable-coverage test/real-host/claude-mcp-tools.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeBin, omniBin, runClaude, type RunResult } from './harness.js';
import { mainRequests, offerBytes } from './offer-bytes.js';
import { needs } from '../helpers/needs.js';
import { INSTRUCTIONS } from '../../lib/mcp/server.js';

const NOISE = `for i in $(seq 1 400); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "added 400 packages in 3s"`;
// `npm test` leaves a file behind when it runs: whether it ran is read from the disk, not from omni.
const FILES = {
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node ran.js' } }, null, 2),
  'ran.js': "require('node:fs').writeFileSync(__dirname + '/npm-test-ran', 'yes');\nconsole.log('the tests ran');\n",
};
const DENY = { permissions: { deny: ['Bash(npm test:*)'] } };
const SCRIPT = [
  { tool: 'Bash', input: { command: 'npm test', description: 'run the tests' } }, // 0: denied by the host
  { tool: 'mcp__omni__omni_run', input: { command: 'npm test' } }, // 1: the same command through omni_run
  { tool: 'Bash', input: { command: NOISE, description: 'noisy success' } }, // 2: a hook call
  { text: 'done' },
];

const canRun = existsSync(claudeBin()) && existsSync(omniBin());
const INIT = { OMNI_CLAUDE_BIN: claudeBin() };

function stats(run: RunResult): { cost: { requests: number; bytes: number }; netSaved: number; total: { bytesSaved: number } } {
  const r = spawnSync(process.execPath, [omniBin(), 'stats', '--json', '--since', 'all'], { env: { PATH: process.env.PATH ?? '', HOME: run.home, OMNI_HOME: join(run.dir, 'omni-home') }, encoding: 'utf8' });
  return JSON.parse(r.stdout);
}

const ran = (run: RunResult) => existsSync(join(run.proj, 'npm-test-ran'));

t.test('omni init --claude offers the model no omni tool; --mcp-tools offers them, and omni_run obeys the Bash deny rule', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  const [plain, tools] = await Promise.all([
    runClaude({ script: SCRIPT, withOmni: true, files: FILES, userSettings: DENY, tag: 'plain', initEnv: INIT }),
    runClaude({ script: SCRIPT, withOmni: true, files: FILES, userSettings: DENY, tag: 'tools', initEnv: INIT, initArgs: ['--claude', '--mcp-tools'] }),
  ]);
  t.teardown(() => {
    plain.cleanup();
    tools.cleanup();
  });
  t.equal(plain.version, '2.1.332', 'the pinned CLI ran');
  for (const [name, run] of [['default', plain], ['--mcp-tools', tools]] as const) {
    t.equal(run.exitCode, 0, `${name}: the run ended normally (${run.stderr.slice(0, 300)})`);
    t.match(run.initOutput, /transport: mcp_tool handlers/, `${name}: init wired the mcp_tool transport`);
    t.equal(run.results[0]?.isError, true, `${name}: the host denied Bash npm test`);
    t.match(run.results[2]?.text ?? '', /omni retrieve [0-9a-f]{16}/, `${name}: the hooks ran (a noisy Bash output came back distilled)`);
  }

  t.test('default install: no request carries an omni tool or omni\'s instructions', async (t) => {
    const cj = JSON.parse(readFileSync(join(plain.home, '.claude.json'), 'utf8'));
    t.notOk(cj.mcpServers.omni.args.includes('--mcp-tools'), `the server entry: ${cj.mcpServers.omni.args.join(' ')}`);
    t.match(plain.initOutput, /offered to the model: no tool/);
    const reqs = mainRequests(plain.requests);
    t.ok(reqs.length >= 3, `${reqs.length} model requests`);
    for (const r of reqs) t.same(offerBytes(r.body, INSTRUCTIONS), { tools: 0, names: 0, instructions: 0, total: 0 }, `request ${r.seq}: nothing of omni`);
    t.notOk(JSON.stringify(reqs[0].body).includes('mcp__omni__'), 'the first request names no omni tool anywhere');
    t.notOk(JSON.stringify(reqs[0].body).includes('omni_run'), 'nor omni_run');
    t.notOk(ran(plain), 'npm test never ran');
    t.same(stats(plain).cost, { requests: 0, bytes: 0 }, 'omni stats: no cost');
  });

  t.test('--mcp-tools: offered; omni_run refuses what the Bash deny rule names', async (t) => {
    const cj = JSON.parse(readFileSync(join(tools.home, '.claude.json'), 'utf8'));
    t.ok(cj.mcpServers.omni.args.includes('--mcp-tools'), `the server entry: ${cj.mcpServers.omni.args.join(' ')}`);
    const refused = tools.results[1];
    t.equal(refused?.isError, true, 'omni_run answered with an error');
    t.match(refused?.text ?? '', /omni_run refused: the Bash permission rule "Bash\(npm test:\*\)" \(deny\)/, `the refusal names the rule: ${refused?.text.slice(0, 300)}`);
    t.notOk(ran(tools), 'npm test never ran');
    const reqs = mainRequests(tools.requests);
    const per = offerBytes(reqs[0].body, INSTRUCTIONS);
    t.ok(per.names > 0 && per.instructions > 0, `the deferred tool list names omni's tools and the prompt has its instructions: ${JSON.stringify(per)}`);
    for (const r of reqs) t.equal(offerBytes(r.body, INSTRUCTIONS).total, per.total, `request ${r.seq} carries the same ${per.total} B`);
    const s = stats(tools);
    t.ok(s.cost.requests >= 2, `omni stats counted ${s.cost.requests} model requests (the omni_run call and the Bash post-hook)`);
    t.equal(s.cost.bytes, s.cost.requests * per.total, `omni stats: ${per.total} B per request, what the host sent`);
    t.equal(s.netSaved, s.total.bytesSaved - s.cost.bytes, 'netted against the saving');
    t.comment(`omni's offer per model request, deferred tool list (2.1.332 default): ${per.total} B (${JSON.stringify(per)})`);
  });
});

t.test('--mcp-tools with whole definitions (ENABLE_TOOL_SEARCH=false): omni stats counts what the host sends', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  const run = await runClaude({ script: SCRIPT.slice(2), withOmni: true, files: FILES, tag: 'whole', initEnv: INIT, initArgs: ['--claude', '--mcp-tools'], env: { ENABLE_TOOL_SEARCH: 'false' } });
  t.teardown(() => run.cleanup());
  t.equal(run.exitCode, 0, `the run ended normally (${run.stderr.slice(0, 300)})`);
  const reqs = mainRequests(run.requests);
  const per = offerBytes(reqs[0].body, INSTRUCTIONS);
  t.ok(per.tools > 0 && per.names === 0, `whole definitions in tools: ${JSON.stringify(per)}`);
  const names = (reqs[0].body.tools as any[]).map((x) => x.name).filter((n: string) => n.startsWith('mcp__omni__')).sort();
  t.same(names, ['mcp__omni__omni_goal', 'mcp__omni__omni_recall', 'mcp__omni__omni_remember', 'mcp__omni__omni_retrieve', 'mcp__omni__omni_run', 'mcp__omni__omni_stats'], 'the six tools, and not omni_hook');
  const s = stats(run);
  t.ok(s.cost.requests >= 1, `${s.cost.requests} requests counted`);
  t.equal(s.cost.bytes, s.cost.requests * per.total, `omni stats: ${per.total} B per request, what the host sent`);
  t.comment(`omni's offer per model request, whole definitions: ${per.total} B (${JSON.stringify(per)})`);
});
