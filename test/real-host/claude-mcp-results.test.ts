/**
 * MCP tool results with the real host: the pinned Claude Code CLI (2.1.332) runs headless
 * against the loopback stand-in model, with a stand-in MCP server
 * (test/fixtures/mcp/standin-server.mjs) loaded from the project's .mcp.json, and omni
 * installed by the real `omni init`. Every assertion is on the tool_result the CLI sent the
 * model, compared with a baseline run of the same script without omni.
 *
 * A third run (no omni) is the reply-shape probe behind docs/claude-code-findings.md §7: a
 * throwaway hook answers each `say` call with one reply shape, and the test reads what the
 * model received for each and whether the transcript recorded a hook error.
 *
 * Run: npx tap --disable-coverage test/real-host/claude-mcp-results.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachments, claudeBin, omniBin, REPO, runClaude, type RunResult } from './harness.js';
import type { RecordedRequest } from './standin.js';
import { POST_TOOL_MATCHER } from '../../lib/hosts/claude/settings.js';
import { needs } from '../helpers/needs.js';

const FIXTURES = join(REPO, 'test', 'fixtures', 'mcp');
const LOG_FILE = join(REPO, 'corpus', 'cases', '743-postgres-log', 'output.txt');
const LOG = readFileSync(LOG_FILE, 'utf8');
const PNG = readFileSync(join(FIXTURES, 'chart.png')).toString('base64');
const JSON_DOC = readFileSync(join(FIXTURES, 'issues.json'), 'utf8');
const ERROR_LINE = '2026-11-29 22:39:13.424 UTC [9418] ERROR:  relation "no_such_table" does not exist at character 15';

const server = { command: process.execPath, args: [join(FIXTURES, 'standin-server.mjs'), LOG_FILE] };
// The same stand-in under the name omni's own server has: its results must pass untouched.
const FILES = { '.mcp.json': JSON.stringify({ mcpServers: { standin: server, omni: server } }), 'notes.txt': 'one line\n' };
const PROJECT = { enableAllProjectMcpServers: true };

const NOISY_BASH = 'for i in $(seq 1 400); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "added 400 packages in 3s"';
const SCRIPT = [
  { tool: 'mcp__standin__noisy_log', input: {} }, // 0
  { tool: 'mcp__standin__log_and_image', input: {} }, // 1
  { tool: 'mcp__standin__json_text', input: {} }, // 2
  { tool: 'mcp__standin__structured', input: {} }, // 3
  { tool: 'mcp__standin__image', input: {} }, // 4
  { tool: 'mcp__standin__failing_log', input: {} }, // 5
  { tool: 'mcp__omni__noisy_log', input: {} }, // 6: the server name omni's own server has
  { tool: 'Bash', input: { command: NOISY_BASH, description: 'the matcher still covers Bash' } }, // 7
  { tool: 'Read', input: { file_path: '{{PROJ}}/notes.txt' } }, // 8: and Read
  { text: 'All steps done.' },
];

const SHAPES = ['string', 'blocks', 'call_tool_result', 'mcp_image', 'api_image', 'unknown_block', 'empty', 'legacy_string', 'legacy_blocks', 'both', 'top_level'] as const;
const PROBE = [...SHAPES.map((s) => ({ tool: 'mcp__standin__say', input: { text: `SHAPE:${s} ORIGINAL\nthe original second line` } })), { text: 'done' }];

const canRun = existsSync(claudeBin()) && existsSync(omniBin());

/** The raw tool_result block the CLI sent the model for a tool-use id (first request that has it). */
function resultBlock(requests: RecordedRequest[], id: string): { content: unknown; is_error?: boolean } | null {
  for (const r of requests) {
    for (const m of Array.isArray(r.body?.messages) ? r.body.messages : []) {
      if (m?.role !== 'user' || !Array.isArray(m.content)) continue;
      for (const b of m.content) if (b?.type === 'tool_result' && b.tool_use_id === id) return b;
    }
  }
  return null;
}

/** The content as sent, without the prompt-cache mark the CLI may add to the latest block. */
function contentOf(run: RunResult, step: number): unknown {
  const b = resultBlock(run.requests, run.toolUseIds[step]);
  const strip = (c: unknown): unknown => (Array.isArray(c) ? c.map((x) => { const { cache_control: _c, ...rest } = x as Record<string, unknown>; return rest; }) : c);
  return b ? strip(b.content) : undefined;
}

/** Run-specific paths and the host's random names for saved blobs, so two runs compare. */
function norm(v: unknown, run: RunResult): string {
  return JSON.stringify(v ?? null)
    .split(run.dir).join('<RUN>')
    .replace(/-tmp-omni-real-host-[A-Za-z0-9]+-proj/g, '<SLUG>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>')
    .replace(/mcp-standin-blob-\d+-[a-z0-9]+\.png/g, '<BLOB>.png');
}

function hookErrors(run: RunResult, id?: string) {
  return ['hook_error_during_execution', 'hook_non_blocking_error', 'hook_blocking_error', 'hook_cancelled']
    .flatMap((k) => attachments(run.transcript, k))
    .filter((a) => id === undefined || a.toolUseID === id)
    .map((a) => `${a.type} ${a.hookName}: ${String(a.content ?? a.stderr ?? '').slice(0, 200)}`);
}

/**
 * Did the CLI run omni's PostToolUse hook for this step's tool? The transcript records only
 * hooks that printed something, so this reads the CLI's debug log (each tool is called once).
 */
function omniRanFor(run: RunResult, step: number): boolean {
  const tool = (SCRIPT[step] as { tool: string }).tool;
  const debug = readFileSync(join(run.dir, 'debug.log'), 'utf8');
  return debug.split('\n').some((l) => l.includes(`Hooks: PostToolUse:${tool} [`) && l.includes(omniBin()) && l.includes('finished with status 0'));
}

t.test('MCP tool results through the real Claude Code CLI with omni installed by `omni init`', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  const [base, omni] = await Promise.all([
    runClaude({ script: SCRIPT, withOmni: false, files: FILES, projectSettings: PROJECT, tag: 'mcpbase', timeoutMs: 150_000 }),
    runClaude({ script: SCRIPT, withOmni: true, files: FILES, projectSettings: PROJECT, tag: 'mcpomni', timeoutMs: 150_000 }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });
  t.equal(omni.version, '2.1.332', 'the pinned CLI ran');
  t.equal(omni.exitCode, 0, `the omni run ended normally (${omni.stderr.slice(0, 300)})`);
  t.equal(base.exitCode, 0, 'the baseline run ended normally');
  const settings = JSON.parse(readFileSync(join(omni.home, '.claude', 'settings.json'), 'utf8'));
  t.same(settings.hooks.PostToolUse.map((g: { matcher: string }) => g.matcher), [POST_TOOL_MATCHER], '`omni init` registered one PostToolUse matcher for Bash, Read and MCP tools');
  t.same(hookErrors(omni), [], 'no hook error, rejection or cancellation in the transcript');

  t.test('a noisy log from an MCP tool reaches the model distilled, in the tool\'s own shape', async (t) => {
    const b = contentOf(base, 0) as { type: string; text: string }[];
    const o = contentOf(omni, 0) as { type: string; text: string }[];
    t.same(b, [{ type: 'text', text: LOG }], 'baseline: the model gets the whole log as one text block');
    t.ok(Array.isArray(o) && o.length === 1 && o[0].type === 'text', 'with omni: still one text block');
    const text = o[0].text;
    t.ok(Buffer.byteLength(text) < Buffer.byteLength(LOG) / 3, `${Buffer.byteLength(LOG)} B -> ${Buffer.byteLength(text)} B`);
    t.ok(text.includes(ERROR_LINE), 'the ERROR line is there, whole');
    t.ok(text.endsWith('LOG:  database system is shut down\n'), 'the last line is there');
    const handles = [...text.matchAll(/\[omni: [^\]\n]* — omni retrieve ([0-9a-f]{16})\]/g)].map((m) => m[1]);
    t.ok(handles.length > 0, 'markers name their handles');
    const r = spawnSync(process.execPath, [omniBin(), 'retrieve', handles[0]], { env: { ...process.env, OMNI_HOME: join(omni.dir, 'omni-home') }, encoding: 'utf8' });
    t.equal(r.status, 0, 'the handle is in the run\'s store');
    const logLines = new Set(LOG.split('\n'));
    t.ok(r.stdout.length > 0 && r.stdout.trimEnd().split('\n').every((l) => logLines.has(l)), 'and gives back lines of the log, exactly');
    t.ok(omniRanFor(omni, 0), 'omni\'s hook ran for this call');
    t.comment(`model saw: ${JSON.stringify(text.slice(0, 400))} …`);
  });

  t.test('text and image in one result: the text is distilled, the image reaches the model byte for byte', async (t) => {
    const b = contentOf(base, 1) as any[];
    const o = contentOf(omni, 1) as any[];
    t.equal(o.length, b.length, `as many blocks as without omni (${b.length})`);
    t.ok(o[0].text.length < LOG.length / 3, 'the log is distilled');
    t.same(o[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, 'the image block, its bytes exactly the server\'s');
    t.equal(norm(o.slice(1), omni), norm(b.slice(1), base), 'the image and the host\'s own note as without omni');
  });

  t.test('JSON text, structured content and an image come through as without omni, byte for byte', async (t) => {
    for (const [step, label] of [[2, 'JSON text'], [3, 'structuredContent'], [4, 'image']] as const) {
      t.equal(norm(contentOf(omni, step), omni), norm(contentOf(base, step), base), label);
    }
    t.same(contentOf(omni, 2), [{ type: 'text', text: JSON_DOC }], 'the JSON document exactly as the server sent it');
    t.equal(contentOf(omni, 3), JSON.stringify(JSON.parse(JSON_DOC)), 'structuredContent: the host sends its JSON, untouched');
    t.same((contentOf(omni, 4) as any[])[0], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
  });

  t.test('a failing MCP call (isError) reaches the model verbatim', async (t) => {
    const b = resultBlock(base.requests, base.toolUseIds[5]);
    const o = resultBlock(omni.requests, omni.toolUseIds[5]);
    t.equal(o?.is_error, true, 'an error result');
    t.equal(norm(o?.content, omni), norm(b?.content, base), 'byte for byte what the host sends without omni');
    t.match(String(o?.content), /ERROR: {2}relation "no_such_table" does not exist/);
  });

  t.test('omni\'s own server\'s results are never touched, and its hook does not even run', async (t) => {
    t.same(contentOf(omni, 6), [{ type: 'text', text: LOG }], 'the whole log, as the tool sent it');
    t.ok(omniRanFor(omni, 2), 'while it ran for the stand-in server\'s silent results');
    t.notOk(omniRanFor(omni, 6), 'the matcher skips the omni server');
  });

  t.test('the one matcher still covers Bash and Read', async (t) => {
    const b = base.results[7]!;
    const o = omni.results[7]!;
    t.ok(o.text.length < b.text.length / 4 && o.text.endsWith('added 400 packages in 3s'), `Bash distilled: ${b.text.length} B -> ${o.text.length} B`);
    t.ok(omniRanFor(omni, 7), 'omni\'s hook ran for Bash');
    t.ok(omniRanFor(omni, 8), 'and for Read');
    t.equal(omni.results[8]!.text, base.results[8]!.text, 'a one-line Read is left as it is');
  });
});

t.test('which PostToolUse reply shapes Claude Code applies to an MCP tool\'s result', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()}`)) return;
  // Hooks run in the project directory; the log goes next to it, in the run's directory.
  const hook = (label: string, matcher: string) => ({ matcher, hooks: [{ type: 'command', command: `node ${JSON.stringify(join(FIXTURES, 'probe-hook.cjs'))} ${label} "$CLAUDE_PROJECT_DIR/../probe.log"` }] });
  const run = await runClaude({
    script: PROBE,
    withOmni: false,
    files: FILES,
    projectSettings: PROJECT,
    tag: 'mcpprobe',
    timeoutMs: 150_000,
    userSettings: { hooks: { PostToolUse: [hook('reply', 'mcp__standin__say'), hook('server-only', 'mcp__standin')] } },
  });
  t.teardown(() => run.cleanup());
  t.equal(run.exitCode, 0, `the probe run ended normally (${run.stderr.slice(0, 300)})`);
  const got = (s: (typeof SHAPES)[number]) => contentOf(run, SHAPES.indexOf(s));
  const original = [{ type: 'text', text: 'SHAPE:%s ORIGINAL\nthe original second line' }];
  const orig = (s: string) => JSON.parse(JSON.stringify(original).replace('%s', s));

  t.equal(got('string'), 'REPLACED string', 'updatedToolOutput as a string: applied, the model gets that string');
  t.same(got('blocks'), [{ type: 'text', text: 'REPLACED blocks 1' }, { type: 'text', text: 'REPLACED blocks 2' }], 'updatedToolOutput as content blocks: applied block for block');
  t.equal(got('call_tool_result'), JSON.stringify({ content: [{ type: 'text', text: 'REPLACED call_tool_result' }] }), 'a CallToolResult object is not unwrapped: the model gets its JSON as text');
  t.same(got('api_image'), [{ type: 'text', text: 'REPLACED api_image' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }], 'an image in the model API\'s form passes');
  t.same(got('mcp_image'), [{ type: 'text', text: 'REPLACED mcp_image' }, { type: 'image', data: PNG, mimeType: 'image/png' }], 'an image in MCP\'s form is passed on unchecked (a real API would refuse that block)');
  t.same(got('unknown_block'), [{ type: 'bogus', text: 'REPLACED unknown_block' }], 'an unknown block type is passed on unchecked too');
  t.equal(got('empty'), '(mcp__standin__say completed with no output)', 'an empty array: the host\'s "no output" note');
  t.equal(got('legacy_string'), 'REPLACED legacy_string', 'updatedMCPToolOutput (deprecated) still applies to MCP tools');
  t.same(got('legacy_blocks'), [{ type: 'text', text: 'REPLACED legacy_blocks' }]);
  t.equal(got('both'), 'REPLACED both (updatedToolOutput)', 'both keys: updatedToolOutput wins');
  t.same(got('top_level'), orig('top_level'), 'updatedToolOutput outside hookSpecificOutput: ignored');
  t.same(hookErrors(run), [], 'no shape is rejected with a hook error record: for MCP tools the CLI checks none');
  const fired = readFileSync(join(run.dir, 'probe.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { label: string });
  t.equal(fired.filter((f) => f.label === 'reply').length, SHAPES.length, 'the exact-name matcher fired for every call');
  t.equal(fired.filter((f) => f.label === 'server-only').length, 0, '`mcp__standin` (no `__.*`) matches nothing');
});
