// Claude Code's mcp_tool hook handlers call `omni_hook` on `omni mcp --hook-tool`. Proof on the
// whole corpus that the tool's reply is, byte for byte, what the hook door (`runHook`, the code
// behind `omni --post-hook`) replies to the same payload: Claude Code Bash payloads (PreToolUse,
// PostToolUse, PostToolUseFailure) and Read payloads built from every case, sent through the
// handler's own `input` template as the host fills it in, over the real MCP protocol to the built
// server. Each side has its own fresh store, fed the same calls in the same order.
import t from 'tap';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, ROOT, tempHome } from '../helpers/omni.js';
import { loadCorpus } from '../helpers/corpus.js';
import { runHook } from '../../lib/doors/hook.js';
import { HOOK_TOOL, hookToolInput, payloadFromArgs, renderTemplate } from '../../lib/hosts/claude/hook-tool.js';

const FIX = join(ROOT, 'test', 'fixtures', 'claude-code');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIX, name), 'utf8')) as Record<string, any>;
const BASE = { pre: fixture('PreToolUse.Bash.seq-1-300.json'), post: fixture('PostToolUse.Bash.seq-1-300.json'), fail: fixture('PostToolUseFailure.Bash.stdout-stderr-exit3.json'), read: fixture('PostToolUse.Read.whole-file.json') };

const project = realpathSync(tempHome());
const userHome = tempHome();
mkdirSync(join(userHome, '.claude'), { recursive: true });
// Both sides: the same user HOME (no rules), the same omni entry for rewrites, their own store.
const common = { ...process.env, HOME: userHome, OMNI_BIN: OMNI, CLAUDE_CONFIG_DIR: join(userHome, '.claude') } as Record<string, string>;
delete common.NODE_OPTIONS;
const refEnv = { ...common, OMNI_HOME: tempHome() };
// The server's environment as `omni init` registers it (omniServerEntry).
const toolEnv = { ...common, OMNI_HOME: tempHome(), MALLOC_ARENA_MAX: '1', OMNI_SET_MALLOC_ARENA_MAX: '1' };

const client = new Client({ name: 'omni-hook-test', version: '0' });
const transport = new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp', '--hook-tool'], env: toolEnv, cwd: project, stderr: 'pipe' });
let serverStderr = '';
transport.stderr?.on('data', (b: Buffer) => { serverStderr += b.toString(); });
await client.connect(transport);
t.teardown(() => client.close());

type Result = { content: { type: string; text?: string }[]; isError?: boolean };
async function viaTool(entry: string, payload: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name: HOOK_TOOL, arguments: renderTemplate(hookToolInput(entry), payload) })) as Result;
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  if (r.content.length !== 1 || r.content[0].type !== 'text') throw new Error(`not one text item: ${JSON.stringify(r.content)}`);
  return r.content[0].text ?? '';
}
const viaDoor = (entry: string, payload: Record<string, unknown>) => runHook(entry, Buffer.from(JSON.stringify(payload)), refEnv);

/** The payloads a case gives: the pre-hook for its command, then its success or its failure, then a Read of its output. */
function payloadsOf(c: ReturnType<typeof loadCorpus>[number], i: number): [string, Record<string, unknown>][] {
  const session = `00000000-0000-4000-8000-${String(i % 7).padStart(12, '0')}`;
  const id = `toolu_corpus_${String(i).padStart(4, '0')}`;
  const text = c.output.toString('utf8').replace(/\n$/, '');
  const common = { session_id: session, cwd: project, transcript_path: `${userHome}/.claude/projects/x/${session}.jsonl`, tool_use_id: id };
  const out: [string, Record<string, unknown>][] = [['pre-hook', { ...BASE.pre, ...common, tool_input: { command: c.cmd, description: c.name } }]];
  if (c.exitCode === 0) {
    out.push(['post-hook', { ...BASE.post, ...common, tool_input: { command: c.cmd, description: c.name }, tool_response: { ...BASE.post.tool_response, stdout: text } }]);
  } else {
    out.push(['post-hook-failure', { ...BASE.fail, ...common, tool_input: { command: c.cmd, description: c.name }, error: `Exit code ${c.exitCode}\n${text}` }]);
  }
  const lines = c.output.toString('utf8').split('\n').length;
  const file = join(project, `${c.name}.txt`);
  out.push(['post-hook', { ...BASE.read, ...common, tool_use_id: `${id}_r`, tool_input: { file_path: file }, tool_response: { type: 'text', file: { filePath: file, content: c.output.toString('utf8'), numLines: lines, startLine: 1, totalLines: lines } } }]);
  return out;
}

t.test('commands run through omni_run (opted in: --mcp-tools) do not inherit the server\'s malloc setting', async (t) => {
  const withTools = new Client({ name: 'omni-hook-test-tools', version: '0' });
  await withTools.connect(new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp', '--hook-tool', '--mcp-tools'], env: toolEnv, cwd: project, stderr: 'pipe' }));
  t.teardown(() => withTools.close());
  const r = (await withTools.callTool({ name: 'omni_run', arguments: { command: 'echo "arena=${MALLOC_ARENA_MAX:-unset} mark=${OMNI_SET_MALLOC_ARENA_MAX:-unset}"' } })) as Result;
  t.equal(r.content[0].text, 'arena=unset mark=unset\n');
  const plain = (await client.callTool({ name: 'omni_run', arguments: { command: 'true' } })) as Result;
  t.equal(plain.isError, true, 'the default hook server has no omni_run');
});

t.test('the template gives back the payload it was filled from', async (t) => {
  for (const p of Object.values(BASE)) {
    for (const entry of ['pre-hook', 'post-hook', 'post-hook-failure']) {
      const back = payloadFromArgs(renderTemplate(hookToolInput(entry), p));
      t.equal(back.entry, entry);
      t.equal(JSON.stringify(back.payload), JSON.stringify(p), `${p.hook_event_name} ${p.tool_name}: same fields, same order, same values`);
    }
  }
});

t.test('on the corpus, the tool replies exactly what the hook door replies', async (t) => {
  const corpus = loadCorpus();
  t.ok(corpus.length > 200, `${corpus.length} corpus cases`);
  let calls = 0;
  let replied = 0;
  let differ = 0;
  for (const [i, c] of corpus.entries()) {
    // Each case twice in a row: the second Read meets the ledger's "already shown".
    for (const [entry, payload] of [...payloadsOf(c, i), ...payloadsOf(c, i).slice(-1)]) {
      // A re-read names the clock time its store recorded the first read at: two stores, two clocks.
      const clock = (r: string) => r.replace(/(you read (?:them|it) at )\d\d:\d\d:\d\d/g, '$1<time>');
      const door = clock(await viaDoor(entry, payload));
      const tool = clock(await viaTool(entry, payload));
      calls++;
      if (door !== '') replied++;
      if (tool !== door) {
        differ++;
        if (differ <= 3) t.equal(tool, door, `${c.name} ${entry} ${payload.tool_name}: the tool's reply is the door's`);
      }
    }
  }
  t.equal(differ, 0, `${differ} of ${calls} calls differ`);
  // Not a vacuous match: most cases get a reply (pre-hook rewrites, distilled outputs, folded reads).
  t.ok(replied > corpus.length, `${replied} of ${calls} calls had a reply`);
  t.equal(serverStderr.trim(), '', 'the server wrote nothing on stderr');
});
