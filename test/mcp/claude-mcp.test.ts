/**
 * Proof from a real MCP host: the pinned Claude Code CLI (2.1.332) loads `omni mcp` from the
 * project's .mcp.json (no omni hooks installed: the MCP path alone, as Cursor gets it), plays
 * scripted tool calls against the loopback stand-in, and the assertions read the tool_result
 * the CLI sent to the model.
 *
 * Run: npx tap --disable-coverage test/mcp/claude-mcp.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { claudeBin, omniBin, runClaude } from '../real-host/harness.js';
import { tempHome } from '../helpers/omni.js';
import { needs } from '../helpers/needs.js';

const NOISE = (n: number, last: string) =>
  `for i in $(seq 1 ${n}); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "${last}"`;
const OK_CMD = NOISE(400, 'added 400 packages in 3s');
// Over 10,000 characters on purpose: Claude Code 2.1.332 cuts the middle out of an MCP *error*
// result that large ("... [N characters truncated] ..."), so omni_run reports a failing command
// as a normal result whose text says `exit code: N`.
const FAIL_CMD = `${NOISE(300, 'npm error code E404')}; exit 3`;

const canRun = existsSync(claudeBin()) && existsSync(omniBin());
const raw = (cmd: string) => spawnSync('sh', ['-c', cmd], { encoding: 'utf8' }).stdout;

t.test('Claude Code as the MCP host: omni_run and omni_retrieve results reach the model', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()}`)) return;
  // Archive handles are content addresses, so the exec door run here names the same handle the
  // MCP server's run will: the script can ask for it before the host runs anything.
  const pre = spawnSync(process.execPath, [omniBin(), 'exec', OK_CMD], { env: { ...process.env, OMNI_HOME: tempHome(), OMNI_BUFFERED: '1' }, encoding: 'utf8' });
  const handle = /omni retrieve ([0-9a-f]{16})/.exec(pre.stdout)?.[1];
  t.ok(handle, 'the noisy command folds into a marker');

  const run = await runClaude({
    withOmni: false,
    tag: 'mcp',
    files: {
      '.mcp.json': JSON.stringify({ mcpServers: { omni: { command: process.execPath, args: [omniBin(), 'mcp'] } } }),
    },
    projectSettings: { enableAllProjectMcpServers: true },
    script: [
      { tool: 'mcp__omni__omni_run', input: { command: OK_CMD } },
      { tool: 'mcp__omni__omni_run', input: { command: FAIL_CMD } },
      { tool: 'mcp__omni__omni_retrieve', input: { handle } },
      { tool: 'mcp__omni__omni_run', input: {} },
      { text: 'done' },
    ],
    timeoutMs: 120_000,
  });
  t.teardown(() => run.cleanup());
  t.equal(run.timedOut, false, 'the CLI finished');
  const [ok, fail, back, bad] = run.results;
  t.ok(ok, `the model got omni_run's result (stderr: ${run.stderr.slice(0, 300)})`);
  if (!ok || !fail || !back || !bad) return;

  const full = raw(OK_CMD);
  t.equal(ok.isError, false);
  t.ok(Buffer.byteLength(ok.text) < full.length / 4, `the model saw ${Buffer.byteLength(ok.text)} bytes, not ${full.length}`);
  t.match(ok.text, /added 400 packages in 3s\n/, 'the last line reached the model');
  t.match(ok.text, `omni retrieve ${handle}`, 'with the marker naming the handle');
  t.match(ok.text, /exit code: 0/);

  t.equal(fail.isError, false, 'a failing command is a normal result (an error result would be cut)');
  t.ok(raw(FAIL_CMD).length > 10_000, 'the failure is larger than the host cuts error results at');
  t.ok(fail.text.startsWith(raw(FAIL_CMD)), 'the failing output reached the model byte for byte');
  t.match(fail.text, /exit code: 3/);

  t.equal(back.isError, false);
  const folded = ok.text.replace(/\[omni: [^\]\n]*? — omni retrieve [0-9a-f]{16}\]\n/, () => back.text);
  t.equal(folded.replace(/exit code: 0$/, ''), full, 'distilled + retrieved = the raw output, as the model received them');

  t.equal(bad.isError, true, 'bad input: an error result, and the server kept serving');
  t.match(bad.text, /command/);
});
