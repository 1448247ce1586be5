/**
 * A rule cannot hang a call, a session or an `omni exec`. The rule is the textbook
 * catastrophic pattern, `^(a+)+$`, and the output holds lines of 40 `a`s and a `b`: a
 * backtracking engine takes 2^40 steps on each, and before the linear engine (lib/rules/linear.ts)
 * one such line stalled the post-hook, every later call to the warm MCP hook server, and an
 * `omni exec` that no longer heard SIGTERM. Every door here is the built bundle, so this also
 * proves the engine's flag is switched on inside the processes users run. A door that does not
 * answer fails its test when the generous deadline passes (no timing is asserted).
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, tempHome } from '../helpers/omni.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';
import { HOOK_TOOL, hookToolInput, renderTemplate } from '../../lib/hosts/claude/hook-tool.js';
import { userRulesPath } from '../../lib/rules/load.js';

/** How long a door may take before the test calls it stalled: far beyond any real run here. */
const DEADLINE_MS = 30_000;

const EVIL = 'a'.repeat(40) + 'b';
const ALL_A = 'a'.repeat(60);
/** Catastrophic lines between lines the rule does hide (all `a`s) and a tool's plain lines. */
const OUTPUT = [
  ...Array.from({ length: 12 }, () => ALL_A),
  EVIL,
  ...Array.from({ length: 12 }, () => ALL_A),
  ...Array.from({ length: 20 }, (_, i) => `${EVIL} ${i}`.replace(' ', '')),
  'adversary: done',
].join('\n') + '\n';

function setUp() {
  const home = tempHome();
  writeFileSync(userRulesPath(home), JSON.stringify({ rules: [{ name: 'nested', match: { program: 'adversary' }, hide: ['^(a+)+$'], unit: 'run of a', units: 'runs of a' }] }));
  const bin = join(home, 'bin');
  mkdirSync(bin);
  // The tool: prints the output, then keeps running (a dev server, a watcher) until killed.
  // Its pid is written down, so a stalled omni's tool can be cleaned up after the test.
  writeFileSync(join(bin, 'adversary'), `#!/bin/sh\necho $$ > '${join(home, 'tool.pid')}'\ncat '${join(home, 'output.txt')}'\n[ "$1" = serve ] && exec sleep 120\nexit 0\n`);
  chmodSync(join(bin, 'adversary'), 0o755);
  writeFileSync(join(home, 'output.txt'), OUTPUT);
  const env: NodeJS.ProcessEnv = { ...process.env, OMNI_HOME: home, HOME: home, PATH: `${bin}:${process.env.PATH}` };
  delete env.NODE_OPTIONS;
  return { home, env };
}

const HIDDEN = /^\[omni: 12 runs of a hidden by rule nested — omni retrieve [0-9a-f]{16}\]$/m;

t.test('omni pipe: the catastrophic pattern runs in linear time, and hides what it matches', async (t) => {
  const { env } = setUp();
  const r = spawnSync(process.execPath, [OMNI, 'pipe', '--command', 'adversary --all'], { input: OUTPUT, env, timeout: DEADLINE_MS, killSignal: 'SIGKILL', encoding: 'utf8' });
  t.equal(r.signal, null, 'it answered (not killed at the deadline)');
  t.equal(r.status, 0);
  t.match(r.stdout, HIDDEN, 'the rule hid its lines');
  t.ok(r.stdout.includes(`\n${EVIL}\n`), 'the line it does not match stays');
});

const payload = (cwd: string, command: string, stdout: string, id: string) => {
  const pl = JSON.parse(readFileSync(join(CLAUDE_SAMPLES, 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  return { ...pl, cwd, tool_use_id: id, tool_input: { command, description: 'run it' }, tool_response: { ...pl.tool_response, stdout } };
};

t.test('omni --post-hook: the hook answers', async (t) => {
  const { home, env } = setUp();
  const r = spawnSync(process.execPath, [OMNI, '--post-hook'], { input: JSON.stringify(payload(home, 'adversary --all', OUTPUT, 'toolu_hang_1')), env, timeout: DEADLINE_MS, killSignal: 'SIGKILL', encoding: 'utf8' });
  t.equal(r.signal, null, 'it answered');
  t.equal(r.status, 0);
  t.match(JSON.parse(r.stdout).hookSpecificOutput.updatedToolOutput.stdout, HIDDEN);
});

t.test('omni exec: SIGTERM ends it while the rule is at work, with 128+15', async (t) => {
  const { home, env } = setUp();
  const child = spawn(process.execPath, [OMNI, 'exec', 'adversary', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => {
    // A stalled omni leaves its tool sleeping in a process group of its own.
    try { process.kill(-Number(readFileSync(join(home, 'tool.pid'), 'utf8')), 'SIGKILL'); } catch { /* gone */ }
  });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // The tool prints everything and sleeps; omni distils it and, the tool quiet, streams it.
  // (With a backtracking engine it is still inside the first catastrophic line at the deadline.)
  await new Promise<void>((resolve) => {
    const give = setTimeout(resolve, DEADLINE_MS);
    child.stdout.on('data', () => { if (/hidden by rule nested[\s\S]*adversary: done\n/.test(out)) { clearTimeout(give); resolve(); } });
  });
  child.kill('SIGTERM');
  const deadline = setTimeout(() => { try { process.kill(child.pid!, 'SIGKILL'); } catch { /* gone */ } }, DEADLINE_MS);
  const end = await ended;
  clearTimeout(deadline);
  t.same(end, { code: 143, signal: null }, 'omni exec heard SIGTERM, passed it on and exited with the tool\'s 128+15 (not killed at the deadline)');
  t.match(out, /hidden by rule nested/, 'what the tool printed was distilled before the signal');
});

t.test('the warm MCP hook server: a call with the catastrophic rule is answered, and so is the next', async (t) => {
  const { home, env } = setUp();
  const client = new Client({ name: 'omni-rules-hang', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp', '--hook-tool'], env: env as Record<string, string>, cwd: home, stderr: 'pipe' });
  await client.connect(transport);
  t.teardown(async () => {
    const pid = transport.pid;
    await client.close().catch(() => {});
    if (pid) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  });
  type Result = { content: { type: string; text?: string }[] };
  const call = async (p: Record<string, unknown>) => {
    const r = (await client.callTool({ name: HOOK_TOOL, arguments: renderTemplate(hookToolInput('post-hook'), p) }, undefined, { timeout: DEADLINE_MS })) as Result;
    return r.content[0]?.text ?? '';
  };
  const first = await call(payload(home, 'adversary --all', OUTPUT, 'toolu_hang_warm_1')).catch((e: Error) => `no answer: ${e.message}`);
  t.match(first, /hidden by rule nested/, 'the call with the catastrophic lines is answered');
  const plain = Array.from({ length: 40 }, (_, i) => `Downloading package-${i % 7} ${i}%`).join('\n') + '\ndone';
  const second = await call(payload(home, './fetch-all.sh', plain, 'toolu_hang_warm_2')).catch((e: Error) => `no answer: ${e.message}`);
  t.match(second, /lines like .* folded/, 'the next call is answered as usual: the server goes on');
});
