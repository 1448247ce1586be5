/**
 * Proof with the real host for the fast transport: the pinned Claude Code CLI (2.1.332), omni
 * installed by the real `omni init` (which sees the CLI's version and wires `mcp_tool` handlers
 * on omni's MCP server), against the loopback stand-in. Every assertion is on what the CLI sent
 * to the model, compared with a baseline run of the same script without omni.
 *
 * Run: npx tap --disable-coverage test/real-host/claude-mcp-hooks.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachments, claudeBin, normalise, omniBin, runClaude, type RunResult } from './harness.js';
import { needs } from '../helpers/needs.js';
import { distill } from '../helpers/omni.js';

const NOISE = (n: number, last: string) =>
  `for i in $(seq 1 ${n}); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "${last}"`;
const READ_LINES = Array.from({ length: 40 }, (_, i) => `config line ${i + 1}: key_${i + 1} = value ${(i * 7919) % 1000}`).concat('the last line of the file');
// omni is installed through a one-line entry in the project (OMNI_BIN), so a step can keep its
// server from starting again: with `server-down` next to it, the server exits at once.
const WRAPPER = `if (process.argv.includes('--hook-tool') && require('node:fs').existsSync(__dirname + '/server-down')) process.exit(1);\nrequire(${JSON.stringify(omniBin())});\n`;
const NOISY_JS = `for (let i = 1; i <= 400; i++) console.log('Downloading https://registry.example.org/dep-' + (i % 3) + '.tgz 50%');
console.log('OMNI_SESSION_ID=' + (process.env.OMNI_SESSION_ID || 'unset'));
`;
const FILES = {
  'fixture.cfg': READ_LINES.join('\n') + '\n',
  'wrap/omni.cjs': WRAPPER,
  'noisy.js': NOISY_JS,
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node noisy.js' } }, null, 2),
};

// The server is a child of the CLI, as is the shell of each Bash call: the shell's parent is the
// CLI this test started, so this kills only that run's omni server (and reports what it killed).
// `[o]mni.cjs` matches the server's command line but not this shell's own, which holds the
// pattern too: with PIDs wrapped round, the shell could come first in pgrep's list and kill itself.
const KILL_SERVER = `for p in $(pgrep -P $PPID -f '[o]mni.cjs mcp --hook-tool'); do kill -9 $p && echo "killed $p"; done; sleep 1; echo done`;

// What step 0 prints, and the handle of the fold omni makes of it: archive handles are the
// content's hash, so the script can ask for `omni retrieve <handle>` before the run.
const STEP0_OUTPUT = spawnSync('/bin/bash', ['-c', NOISE(400, 'added 400 packages in 3s')], { encoding: 'utf8' }).stdout.replace(/\n$/, '');
const FOLD = /\[omni: [^\]]* — omni retrieve ([0-9a-f]{16})\]/.exec((await distill(STEP0_OUTPUT, { command: 'x', tool: 'Bash' })).output.toString());
const HANDLE = FOLD?.[1] ?? 'no-fold-found';

const SCRIPT = [
  { tool: 'Bash', input: { command: NOISE(400, 'added 400 packages in 3s'), description: 'noisy success' } }, // 0
  { tool: 'Bash', input: { command: NOISE(400, 'npm error code E404') + '; exit 3', description: 'noisy failure' } }, // 1
  { tool: 'Read', input: { file_path: '{{PROJ}}/fixture.cfg' } }, // 2
  { tool: 'Read', input: { file_path: '{{PROJ}}/fixture.cfg' } }, // 3: a repeat read, folded by the ledger
  { tool: 'Bash', input: { command: 'npm test', description: 'run the tests' } }, // 4: rewritten by the pre-hook (--rewrite)
  { tool: 'Bash', input: { command: KILL_SERVER, description: 'kill the omni MCP server' } }, // 5
  { tool: 'Bash', input: { command: NOISE(400, 'added 400 packages in 3s'), description: 'noisy success, server restarted' } }, // 6
  { tool: 'Bash', input: { command: `touch {{PROJ}}/wrap/server-down; ${KILL_SERVER}`, description: 'kill it for good' } }, // 7
  { tool: 'Bash', input: { command: NOISE(400, 'added 400 packages in 3s'), description: 'noisy success, server gone' } }, // 8
  { tool: 'Read', input: { file_path: '{{PROJ}}/fixture.cfg' } }, // 9: repeat read, server gone
  { tool: 'Bash', input: { command: `node ${omniBin()} retrieve ${HANDLE}`, description: 'expand the fold of step 0' } }, // 10
  { text: 'All steps done.' },
];

const canRun = existsSync(claudeBin()) && existsSync(omniBin());
// Another CLI (OMNI_TEST_CLAUDE, e.g. when finding the first version that runs mcp_tool
// handlers: find-mcp-tool-version.sh) is wired with mcp_tool handlers whatever its version.
const PINNED = !process.env.OMNI_TEST_CLAUDE;
const FORCE: Record<string, string> = PINNED ? {} : { OMNI_CLAUDE_TRANSPORT: 'mcp_tool' };

t.test('the real CLI with omni wired through mcp_tool handlers by `omni init --rewrite`', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  const [base, omni] = await Promise.all([
    runClaude({ script: SCRIPT, withOmni: false, files: FILES, tag: 'base' }),
    // With the rewrite opted in, so PreToolUse goes through the handler too (step 4).
    runClaude({ script: SCRIPT, withOmni: true, initArgs: ['--rewrite'], files: FILES, tag: 'omni', initEnv: { OMNI_CLAUDE_BIN: claudeBin(), OMNI_BIN: '{{PROJ}}/wrap/omni.cjs', ...FORCE } }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });
  if (PINNED) t.equal(omni.version, '2.1.332', 'the pinned CLI ran');
  else {
    let log = '';
    try { log = readFileSync(join(omni.dir, 'debug.log'), 'utf8'); } catch { /* none */ }
    const calls = log.split('mcp_tool calling omni/omni_hook').length - 1;
    const replaced = log.split('(omni/omni_hook) replaced tool output').length - 1;
    t.comment(`CLI ${omni.version}: mcp_tool calls ${calls}, outputs replaced ${replaced}, step 0 ${base.results[0]?.text.length} B -> ${omni.results[0]?.text.length} B`);
  }
  t.equal(omni.exitCode, 0, `the omni run ended normally (${omni.stderr.slice(0, 300)})`);
  t.equal(base.exitCode, 0, 'the baseline run ended normally');
  t.match(omni.initOutput, /transport: mcp_tool handlers/, '`omni init` chose the mcp_tool transport');
  const settings = JSON.parse(readFileSync(join(omni.home, '.claude', 'settings.json'), 'utf8'));
  t.equal(settings.hooks.PostToolUse[0].hooks[0].type, 'mcp_tool', 'PostToolUse is an mcp_tool handler');
  t.equal(settings.hooks.SessionStart[0].hooks[0].type, 'command', 'SessionStart stays a command hook');
  const seen = (run: RunResult, i: number) => run.results[i];

  t.test('a noisy successful Bash command reaches the model distilled', async (t) => {
    const b = seen(base, 0)!;
    const o = seen(omni, 0)!;
    t.ok(o.text.length < b.text.length / 4, `${b.text.length} B -> ${o.text.length} B`);
    t.ok(o.text.endsWith('added 400 packages in 3s'), 'the last line is there');
    t.match(o.text, /\[omni: .* — omni retrieve [0-9a-f]{16}\]/, 'the fold names its archive handle');
  });

  t.test('a failing Bash command reaches the model verbatim', async (t) => {
    const b = seen(base, 1)!;
    const o = seen(omni, 1)!;
    t.equal(o.isError, true);
    t.equal(normalise(o.text, omni), normalise(b.text, base), 'byte for byte what the host sends without omni');
  });

  t.test('a repeated Read reaches the model folded, in Read\'s shape', async (t) => {
    t.equal(normalise(seen(omni, 2)!.text, omni), normalise(seen(base, 2)!.text, base), 'the first read is untouched');
    const b = seen(base, 3)!;
    const o = seen(omni, 3)!;
    t.ok(o.text.length < b.text.length, `${b.text.length} B -> ${o.text.length} B`);
    t.match(o.text, /^\s*\d+\t\[omni: lines 1-\d+: unchanged since you read them at \d\d:\d\d:\d\d — omni retrieve [0-9a-f]{16}\]$/, 'one numbered marker naming when it was read and its handle');
  });

  t.test('the model is never offered the internal tool, nor (default install) omni\'s own tools', async (t) => {
    const bodies = omni.requests.filter((r) => /\/v1\/messages/.test(r.url)).map((r) => JSON.stringify(r.body));
    t.ok(bodies.length > 0, `${bodies.length} model requests`);
    t.same(bodies.filter((b) => b.includes('omni_hook')).length, 0, 'no request names omni_hook');
    const tools = (omni.requests.find((r) => Array.isArray((r.body as any)?.tools))?.body as any)?.tools.map((x: any) => x.name) ?? [];
    t.notOk(tools.includes('mcp__omni__omni_hook'), `tools list: ${tools.join(', ')}`);
    t.notOk(bodies.some((b) => b.includes('mcp__omni__omni_run')), 'omni_run is not offered (opt-in: claude-mcp-tools.test.ts)');
    t.match(seen(omni, 0)!.text, /omni retrieve [0-9a-f]{16}/, 'the server was connected: its hook tool distilled step 0');
  });

  t.test('omni retrieve, a later call, gives back exactly the lines the fold of step 0 hid', async (t) => {
    t.match(seen(omni, 0)!.text, `omni retrieve ${HANDLE}]`, 'step 0 was folded under the handle computed beforehand');
    const raw = seen(base, 0)!.text.split('\n');
    t.equal(seen(omni, 10)!.text, raw.slice(1, -2).join('\n'), 'the hidden lines, byte for byte');
  });

  t.test('PreToolUse through the mcp_tool handler rewrites a plain allow-listed command into omni exec (bypassPermissions, --rewrite)', async (t) => {
    const b = seen(base, 4)!;
    const o = seen(omni, 4)!;
    t.match(b.text, /OMNI_SESSION_ID=unset/, 'without omni the command ran as typed');
    t.match(o.text, new RegExp(`OMNI_SESSION_ID=${omni.sessionId}`), 'with omni it ran through omni exec, with the session id');
    t.ok(o.text.length < b.text.length / 4, `distilled by exec: ${b.text.length} B -> ${o.text.length} B`);
  });

  t.test('a killed server is started again by the host on the next call', async (t) => {
    t.match(seen(omni, 5)!.text, /killed \d+/, 'the Bash step killed the server');
    const o = seen(omni, 6)!;
    t.ok(o.text.length < seen(base, 6)!.text.length / 4, `distilled again: ${seen(base, 6)!.text.length} B -> ${o.text.length} B`);
  });

  t.test('with the server killed and unable to start, the next calls get their original output', async (t) => {
    t.match(seen(omni, 7)!.text, /killed \d+/, 'the Bash step killed the server');
    t.equal(normalise(seen(omni, 8)!.text, omni), normalise(seen(base, 8)!.text, base), 'Bash: the original output');
    t.equal(normalise(seen(omni, 9)!.text, omni), normalise(seen(base, 9)!.text, base), 'Read: the original output');
    t.equal(omni.exitCode, 0, 'the session went on to its end');
  });

  t.test('no hook error before the kill', async (t) => {
    const before = new Set(omni.toolUseIds.slice(0, 5));
    const bad = ['hook_error_during_execution', 'hook_non_blocking_error', 'hook_blocking_error', 'hook_cancelled']
      .flatMap((k) => attachments(omni.transcript, k))
      .filter((a) => before.has(a.toolUseID));
    t.equal(omni.transcript.length > 0, true, 'the transcript was read');
    t.same(bad.map((a) => `${a.type} ${a.hookEvent}: ${String(a.content ?? a.stderr ?? '').slice(0, 200)}`), [], 'none');
  });
});
