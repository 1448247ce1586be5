// What `omni mcp` offers the model, by its flags: `--hook-tool` (what `omni init --claude`
// registers) lists omni_hook alone and sends no instructions; `--hook-tool --mcp-tools` and bare
// `omni mcp` offer omni_run and the others with the instructions. Before, the hook server
// offered all six tools and the instructions to every session. And the cost of an offer: one
// row per model request the server learns of, in bytes computed from its own tools/list answer.
import t from 'tap';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, ROOT, omni, tempHome } from '../helpers/omni.js';
import { HOOK_TOOL, hookToolInput, renderTemplate } from '../../lib/hosts/claude/hook-tool.js';
import { MODEL_TOOLS, offersModelTools } from '../../lib/hosts/mcp-offer.js';
import { INSTRUCTIONS } from '../../lib/mcp/server.js';
import { defersTools, perRequestBytes } from '../../lib/mcp/offer-cost.js';

const post = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'claude-code', 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
const project = realpathSync(tempHome());

async function server(args: string[], extra: Record<string, string> = {}) {
  const home = tempHome();
  mkdirSync(join(home, '.claude'), { recursive: true });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, OMNI_HOME: join(home, 'omni'), ...extra };
  const client = new Client({ name: 'omni-offer-test', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp', ...args], env, cwd: project, stderr: 'pipe' }));
  const { tools } = await client.listTools();
  const cost = () => JSON.parse(omni(['stats', '--json', '--since', 'all'], { env: { HOME: home, OMNI_HOME: env.OMNI_HOME } }).stdout.toString()).cost;
  return { client, tools, names: tools.map((x) => x.name).sort(), instructions: client.getInstructions(), cost, env };
}

const hookCall = (client: Client, session: string) =>
  client.callTool({ name: HOOK_TOOL, arguments: renderTemplate(hookToolInput('post-hook'), { ...post, session_id: session, cwd: project }) });

t.test('--hook-tool (the default install): omni_hook alone, no instructions, no cost', async (t) => {
  const s = await server(['--hook-tool'], { CLAUDECODE: '1' });
  t.teardown(() => s.client.close());
  t.same(s.names, [HOOK_TOOL]);
  t.equal(s.instructions, undefined, 'no instructions about tools the model cannot use');
  await hookCall(s.client, 'sess-a');
  t.same(s.cost(), { requests: 0, bytes: 0 }, 'nothing offered, nothing counted');
});

t.test('--hook-tool --mcp-tools: the six tools, omni_hook and the instructions; each tool call ended counts one request', async (t) => {
  const s = await server(['--hook-tool', '--mcp-tools'], { CLAUDECODE: '1' });
  t.teardown(() => s.client.close());
  t.same(s.names, [...MODEL_TOOLS, HOOK_TOOL].sort());
  t.equal(s.instructions, INSTRUCTIONS);
  const per = perRequestBytes(s.tools, INSTRUCTIONS, { CLAUDECODE: '1' });
  t.equal(per, Buffer.byteLength(`\n\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## omni\n${INSTRUCTIONS}`) + MODEL_TOOLS.reduce((n, x) => n + `mcp__omni__${x}\n`.length, 0), 'deferred: the instructions section and one line per tool name');
  await hookCall(s.client, 'sess-b');
  await s.client.callTool({ name: HOOK_TOOL, arguments: renderTemplate(hookToolInput('pre-hook'), { ...post, hook_event_name: 'PreToolUse', session_id: 'sess-b', cwd: project }) });
  await s.client.callTool({ name: 'omni_recall', arguments: {} });
  t.same(s.cost(), { requests: 2, bytes: 2 * per }, 'the post-hook and the omni_recall call; not the pre-hook (the same tool call)');
});

t.test('bare `omni mcp` (Cursor, a user): the six tools and the instructions; whole definitions counted', async (t) => {
  const s = await server([]);
  t.teardown(() => s.client.close());
  t.same(s.names, [...MODEL_TOOLS].sort());
  t.equal(s.instructions, INSTRUCTIONS);
  await s.client.callTool({ name: 'omni_stats', arguments: {} });
  const whole = s.tools.reduce((n, x) => n + Buffer.byteLength(JSON.stringify({ name: `mcp__omni__${x.name}`, description: x.description, input_schema: x.inputSchema })), 0);
  t.ok(whole > 1500, `${whole} B of definitions`);
  t.equal(s.cost().bytes, perRequestBytes(s.tools, INSTRUCTIONS, {}), 'one request');
  t.ok(perRequestBytes(s.tools, INSTRUCTIONS, {}) > whole, 'whole definitions and the instructions');
});

t.test('which flags offer tools, and when Claude Code defers them', async (t) => {
  t.ok(offersModelTools([]));
  t.ok(offersModelTools(['--cwd', '/x']));
  t.notOk(offersModelTools(['--hook-tool']));
  t.ok(offersModelTools(['--hook-tool', '--mcp-tools']));
  t.ok(defersTools({ CLAUDECODE: '1' }));
  t.ok(defersTools({ CLAUDECODE: '1', ENABLE_TOOL_SEARCH: 'true' }));
  t.notOk(defersTools({ CLAUDECODE: '1', ENABLE_TOOL_SEARCH: 'false' }));
  t.notOk(defersTools({ CLAUDECODE: '1', ENABLE_TOOL_SEARCH: 'auto' }), 'auto: omni\'s few tools stay under the threshold');
  t.notOk(defersTools({}), 'another host');
});
