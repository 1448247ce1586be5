/**
 * MCP tool results through the hook door, on PostToolUse payloads the real Claude Code CLI
 * 2.1.332 sent for the stand-in MCP server (test/fixtures/mcp/standin-server.mjs, captured as
 * docs/claude-code-findings.md §7 describes): the text parts are distilled through the one
 * pipeline, everything else goes back byte for byte, and omni's own tools are never touched.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHook } from '../../lib/doors/hook.js';
import { claude, isOmniMcpTool } from '../../lib/hosts/claude/adapter.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';
import { ROOT, omni, tempHome } from '../helpers/omni.js';

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));
const LOG = readFileSync(join(ROOT, 'corpus', 'cases', '743-postgres-log', 'output.txt'), 'utf8');
const PNG = readFileSync(join(ROOT, 'test', 'fixtures', 'mcp', 'chart.png')).toString('base64');

function envFor(home = tempHome()): NodeJS.ProcessEnv {
  return { HOME: home, OMNI_HOME: home, PATH: process.env.PATH };
}
const post = (payload: unknown, env = envFor()) => runHook('post-hook', Buffer.from(JSON.stringify(payload)), env);

/**
 * The lines of `text` with every `omni retrieve <handle>` marker replaced by what the handle
 * gives back, sorted: a similarity fold hides lines that were not next to each other, so only
 * the set of lines can be compared with the original's.
 */
function restoredLines(text: string, home: string): string[] {
  const back = text.replace(/\[omni: [^\]\n]*? — omni retrieve ([0-9a-f]{16})\]\n?/g, (_m, h: string) => {
    const r = omni(['retrieve', h], { env: { OMNI_HOME: home } });
    if (r.status !== 0) throw new Error(`omni retrieve ${h} failed: ${r.stderr}`);
    const s = r.stdout.toString('utf8');
    return s.endsWith('\n') ? s : `${s}\n`;
  });
  return back.split('\n').filter((l) => l !== '').sort();
}

t.test('the captured payloads are what the stand-in server returned', async (t) => {
  const p = sample('PostToolUse.mcp.noisy_log.json');
  t.equal(p.tool_name, 'mcp__standin__noisy_log');
  t.same(p.mcp_server, { name: 'standin', source: 'project' });
  t.same(p.tool_response, [{ type: 'text', text: LOG }], 'one text block holding the log exactly');
  const img = sample('PostToolUse.mcp.image.json').tool_response;
  t.same(img[0], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, 'images arrive in the model API\'s form');
  t.match(img[1].text, /^\[Image: source: .*\.png\]$/, 'followed by the host\'s own note');
});

t.test('a noisy log from an MCP tool is distilled in the result\'s own shape, and every hidden line is retrievable', async (t) => {
  const home = tempHome();
  const p = sample('PostToolUse.mcp.noisy_log.json');
  const reply = await post(p, envFor(home));
  t.not(reply, '', 'a reply');
  const out = JSON.parse(reply).hookSpecificOutput;
  t.equal(out.hookEventName, 'PostToolUse');
  t.notOk('updatedMCPToolOutput' in out, 'the key the CLI prefers for every tool');
  const blocks = out.updatedToolOutput;
  t.ok(Array.isArray(blocks) && blocks.length === 1 && blocks[0].type === 'text', 'one text block, as the tool sent it');
  const text: string = blocks[0].text;
  t.ok(text.length < LOG.length / 3, `${LOG.length} B -> ${text.length} B`);
  t.match(text, /ERROR: {2}relation "no_such_table" does not exist at character 15/, 'the error line is kept');
  t.ok(text.endsWith('LOG:  database system is shut down\n'), 'the last line is kept, with the text\'s own final newline');
  t.match(text, /\[omni: .* — omni retrieve [0-9a-f]{16}\]/, 'markers name their handles');
  t.same(restoredLines(text, home), LOG.split('\n').filter((l) => l !== '').sort(), 'kept + retrieved = every line of the log, none lost, none made up');
});

t.test('text and image in one result: the text is distilled, the image and the host\'s note come back untouched, in order', async (t) => {
  const p = sample('PostToolUse.mcp.log_and_image.json');
  const reply = await post(p);
  const blocks = JSON.parse(reply).hookSpecificOutput.updatedToolOutput;
  t.equal(blocks.length, p.tool_response.length, 'as many blocks as the host sent');
  t.ok(blocks[0].text.length < LOG.length / 3, 'the log is distilled');
  t.same(blocks.slice(1), p.tool_response.slice(1), 'the image block and the note are the host\'s own');
  t.equal(blocks[1].source.data, PNG, 'the image bytes are exactly the server\'s');
});

t.test('structured content, JSON text, images and a result over the host\'s token cap get no reply', async (t) => {
  for (const name of ['PostToolUse.mcp.json_text.json', 'PostToolUse.mcp.structured.json', 'PostToolUse.mcp.image.json', 'PostToolUse.mcp.over-token-cap.json']) {
    t.equal(await post(sample(name)), '', name);
  }
  t.equal(typeof sample('PostToolUse.mcp.structured.json').tool_response, 'string', 'structuredContent arrives as its JSON, a string');
});

t.test('a failed MCP call (isError) arrives as PostToolUseFailure and is never answered', async (t) => {
  const p = sample('PostToolUseFailure.mcp.failing_log.json');
  t.equal(p.hook_event_name, 'PostToolUseFailure');
  t.equal(await post(p), '');
  t.equal(await runHook('post-hook-failure', Buffer.from(JSON.stringify(p)), envFor()), '');
  t.equal(await runHook('hook', Buffer.from(JSON.stringify(p)), envFor()), '');
});

t.test('omni\'s own MCP tools are never touched, whatever the server is called', async (t) => {
  const own = sample('PostToolUse.mcp.omni-server.json');
  t.equal(own.tool_name, 'mcp__omni__noisy_log');
  t.equal(await post(own), '', 'the server omni registers');
  t.equal(await post({ ...own, mcp_server: undefined }), '', 'known by the tool name alone');
  const renamed = { ...sample('PostToolUse.mcp.noisy_log.json'), tool_name: 'mcp__distiller__omni_retrieve', mcp_server: { name: 'distiller', source: 'user' } };
  t.equal(await post(renamed), '', 'omni_* tools under another server name');
  t.ok(isOmniMcpTool('mcp__plugin_omni_omni__omni_run', 'plugin_omni_omni'));
  t.notOk(isOmniMcpTool('mcp__standin__noisy_log', 'standin'));
  t.notOk(isOmniMcpTool('mcp__omnibus__list', 'omnibus'), 'a server whose name only starts with omni is not omni');
});

t.test('OMNI_PASSTHROUGH=1 leaves MCP results alone', async (t) => {
  t.equal(await post(sample('PostToolUse.mcp.noisy_log.json'), { ...envFor(), OMNI_PASSTHROUGH: '1' }), '');
});

t.test('the adapter reads only content-block arrays, and keeps every part but text out of the neutral shape', async (t) => {
  const p = sample('PostToolUse.mcp.log_and_image.json');
  const input = claude.read(p);
  t.match(input, { kind: 'post-tool', tool: 'mcp', name: 'mcp__standin__log_and_image' });
  t.same(input && input.kind === 'post-tool' && input.tool === 'mcp' ? input.texts.length : -1, 2, 'the log and the host\'s note');
  for (const bad of [null, 7, {}, { content: [] }, [], [{ type: 'text', text: 1 }], [{ text: 'x' }], ['x']]) {
    t.equal(claude.read({ ...p, tool_response: bad }), null, JSON.stringify(bad));
  }
  t.equal(claude.read({ ...p, tool_response: [{ type: 'image', source: {} }] }), null, 'no text part: nothing to do');
  const same = claude.read(p);
  if (same && same.kind === 'post-tool' && same.tool === 'mcp') t.equal(claude.replyMcp!(p, same, same.texts), '', 'unchanged texts: no reply');
});
