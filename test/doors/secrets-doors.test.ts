/**
 * Secrets through every door (issue: 13 of 20 common shapes reached the model, and short outputs
 * were masked by pipe but delivered raw by the post-hook and exec). The same bytes, each of
 * the secret shapes real tools print (test/helpers/secrets.ts), go through: the buffered and the
 * streamed pipe door, the `omni pipe` process, exec in process (held and streamed) and the
 * `omni exec` process, the post-hook for Claude Code, Codex, Gemini CLI (with and without
 * OMNI_REPLACE_AS_ERROR) and Pi, and the MCP hook tool (`omni mcp --hook-tool`). What each
 * hands on holds no secret value, is never larger than its input, and masks each line the same way.
 * What passes byte for byte by rule (a failing exit, structured data, a read) stays so, unless
 * OMNI_MASK=all.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runHook } from '../../lib/doors/hook.js';
import { createOmniExtension } from '../../lib/doors/pi.js';
import { redactLine } from '../../lib/pipeline/redact.js';
import { HOOK_TOOL, hookToolInput, renderTemplate } from '../../lib/hosts/claude/hook-tool.js';
import { OMNI, ROOT, tempHome } from '../helpers/omni.js';
import { baseEnv, closeStores, execInProcess, execProcess, freshReader, HOLD_NEVER, HOLD_SHORT, hookBash, hookRead, hookText, pipeBuffered, pipeProcess, pipeStream, propHome, scratch } from '../helpers/doors.js';
import { pemBlock, secretShapes, type SecretShape } from '../helpers/secrets.js';

t.teardown(closeStores);

const SHAPES = secretShapes(5);
const PEM = pemBlock(5);
const SECRETS = [...SHAPES.map((s) => s.secret), PEM.secret];

// A noisy passing run that omni distils (corpus 028, `go test -v ./...`, 8 KB -> 0.4 KB) with
// the secret lines spread through it, and a key block among them.
const CASE = readFileSync(join(ROOT, 'corpus', 'cases', '028-go-test-verbose-pass', 'output.txt'), 'utf8').replace(/\n$/, '').split('\n');
const GO = 'go test -v ./...';
function noisy(): Buffer {
  const out: string[] = [];
  const every = Math.max(1, Math.floor(CASE.length / (SHAPES.length + 1)));
  let k = 0;
  CASE.forEach((l, i) => {
    out.push(l);
    if (i % every === every - 1 && k < SHAPES.length) out.push(SHAPES[k++].line);
    if (i === Math.floor(CASE.length / 2)) out.push(...PEM.lines);
  });
  while (k < SHAPES.length) out.push(SHAPES[k++].line);
  return Buffer.from(out.join('\n') + '\n');
}
const LONG = noisy();
/** The short case of the finding: the secret on one of two lines, nothing to distil. */
const short = (s: SecretShape) => Buffer.from(`deploying\n${s.line}\n`);
const DEPLOY = 'deploy --prod';

type Door = (input: Buffer, command: string) => Promise<string>;

const home = propHome();
const dir = realpathSync(scratch('omni-secret-doors-'));

const sample = (p: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', p), 'utf8'));

async function codexHook(input: Buffer, command: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  // A successful call (exit 0 in the rollout next to it): the output is the tool_response string.
  const p = sample('hosts/codex/PostToolUse.Bash.seq-1-300.json');
  const sessions = mkdtempSync(join(dir, 'sessions-'));
  const rollout = join(sessions, 'rollout-2026-11-30T00-00-00-test.jsonl');
  writeFileSync(rollout, readFileSync(join(ROOT, 'test', 'fixtures', 'hosts', 'codex', 'rollout.bypass.jsonl')));
  p.transcript_path = rollout;
  p.tool_input = { command };
  p.tool_response = input.toString('utf8');
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), { ...baseEnv(), OMNI_HOME: home, ...env });
  if (!reply) return input.toString('utf8');
  const reason: string = JSON.parse(reply).reason;
  return reason.replace(/^Process exited with code 0\nOutput:\n/, '');
}

async function geminiHook(input: Buffer, command: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const p = sample('hosts/gemini/after-tool-seq-300.json');
  const text = hookText(input);
  p.tool_input = { command, description: 'run it' };
  p.tool_response = { llmContent: `<untrusted_context>\nOutput: ${text}\nProcess Group PGID: 16688\n</untrusted_context>`, returnDisplay: text };
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), { ...baseEnv(), OMNI_HOME: home, ...env });
  if (!reply) return text;
  const reason: string = JSON.parse(reply).reason;
  const m = /^<untrusted_context>\nOutput: ([\s\S]*)\nProcess Group PGID: \d+\n<\/untrusted_context>$/.exec(reason);
  if (!m) throw new Error(`unexpected Gemini reply: ${reason.slice(0, 200)}`);
  return m[1];
}

async function piHook(input: Buffer, command: string): Promise<string> {
  const text = input.toString('utf8');
  const handlers: Record<string, (ev: unknown, ctx: unknown) => Promise<unknown>> = {};
  createOmniExtension({ env: { OMNI_HOME: home } })({ on: (name: string, h: (ev: unknown, ctx: unknown) => Promise<unknown>) => { handlers[name] = h; } } as never);
  const ev = { toolName: 'bash', input: { command }, content: [{ type: 'text' as const, text }], isError: false, details: undefined };
  const patch = (await handlers.tool_result(ev, { cwd: dir, sessionManager: { getSessionId: () => 'pi-secrets' } })) as { content: Array<{ text: string }> } | undefined;
  return patch ? patch.content[0].text : text;
}

// The MCP hook tool: Claude Code's mcp_tool handler calling `omni_hook` on the built server.
const toolHome = tempHome();
const client = new Client({ name: 'omni-secrets-test', version: '0' });
const transport = new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp', '--hook-tool'], env: { ...(baseEnv() as Record<string, string>), OMNI_HOME: toolHome, HOME: toolHome }, cwd: dir, stderr: 'pipe' });
await client.connect(transport);
t.teardown(() => client.close());
async function mcpHookTool(input: Buffer, command: string): Promise<string> {
  const p = sample('claude-code/PostToolUse.Bash.seq-1-300.json');
  const r = freshReader();
  p.session_id = r.sessionId;
  p.cwd = dir;
  p.tool_input = { command, description: 'run it' };
  p.tool_response = { ...p.tool_response, stdout: hookText(input), stderr: '' };
  const res = (await client.callTool({ name: HOOK_TOOL, arguments: renderTemplate(hookToolInput('post-hook'), p) })) as { content: Array<{ text?: string }> };
  const reply = res.content[0].text ?? '';
  return reply ? JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout : hookText(input);
}

/** Two chunks, the second after a pause past the hold window: the streamed path. */
const halves = (b: Buffer) => {
  const nl = b.indexOf(10, b.length >> 1) + 1;
  return [b.subarray(0, nl), b.subarray(nl)];
};

const DOORS: Record<string, Door> = {
  'pipe (buffered)': async (b, c) => (await pipeBuffered(b, { command: c, home })).toString('utf8'),
  'omni pipe (process)': async (b, c) => pipeProcess(b, { command: c, home }).toString('utf8'),
  'pipe (streamed)': async (b, c) => {
    const [x, y] = halves(b);
    return (await pipeStream([{ bytes: x, pauseMs: 0 }, { bytes: y, pauseMs: 200 }], { command: c, home, env: HOLD_SHORT })).toString('utf8');
  },
  'exec (held)': async (b, c) => (await execInProcess({ command: c, chunks: [{ bytes: b, pause: 0 }], exitCode: 0 }, { home, hold: HOLD_NEVER })).output.toString('utf8'),
  'exec (streamed)': async (b, c) => {
    const [x, y] = halves(b);
    return (await execInProcess({ command: c, chunks: [{ bytes: x, pause: 0 }, { bytes: y, pause: 0.2 }], exitCode: 0 }, { home, hold: HOLD_SHORT })).output.toString('utf8');
  },
  'omni exec (process)': async (b, c) => execProcess({ command: c, chunks: [{ bytes: b, pause: 0 }], exitCode: 0 }, { home, hold: HOLD_NEVER }).output.toString('utf8'),
  'Claude Code post-hook': async (b, c) => (await hookBash(hookText(b), { command: c, home, reader: freshReader() })).output.toString('utf8'),
  'Codex post-hook': (b, c) => codexHook(b, c),
  'Gemini CLI post-hook': (b, c) => geminiHook(b, c),
  'Gemini CLI post-hook (OMNI_REPLACE_AS_ERROR=1)': (b, c) => geminiHook(b, c, { OMNI_REPLACE_AS_ERROR: '1' }),
  'Pi extension': (b, c) => piHook(b, c),
  'MCP hook tool': (b, c) => mcpHookTool(b, c),
};

/** The hook doors get the text without its final newline (the host strips it): compare like with like. */
const same = (a: string) => a.replace(/\n$/, '');

t.test('a noisy passing run with every shape: no door hands on a secret value, none grows, each line masked the same way', async (t) => {
  for (const [name, door] of Object.entries(DOORS)) {
    const out = await door(LONG, GO);
    for (const [i, s] of SECRETS.entries()) t.notOk(out.includes(s), `${name}: ${i < SHAPES.length ? SHAPES[i].name : 'PEM block'} is masked`);
    t.ok(Buffer.byteLength(same(out)) <= LONG.length, `${name}: ${Buffer.byteLength(out)} <= ${LONG.length} B`);
    for (const s of SHAPES) t.ok(out.includes(redactLine(s.line).text), `${name}: ${s.name} shown as ${redactLine(s.line).text.slice(0, 60)}`);
    t.notMatch(out, /\[omni: [^\]]*(secret|redact)/, `${name}: no marker speaks of the secrets`);
  }
});

t.test('a short output (the secret on one of two lines): every door delivers the same masked bytes', async (t) => {
  for (const s of SHAPES) {
    const input = short(s);
    const want = `deploying\n${redactLine(s.line).text}`;
    for (const [name, door] of Object.entries(DOORS)) {
      const out = await door(input, DEPLOY);
      t.equal(same(out), want, `${s.name} via ${name}`);
    }
  }
});

t.test('what passes byte for byte by rule stays so; OMNI_MASK=all masks it too', async (t) => {
  const s = SHAPES.find((x) => x.name === 'github')!;
  const failing = Buffer.from(`running\n${s.line}\nError: deploy failed\n`);
  const exec = (env: Record<string, string>) => execInProcess({ command: DEPLOY, chunks: [{ bytes: failing, pause: 0 }], exitCode: 3 }, { home, hold: { ...HOLD_NEVER, ...env } });
  t.ok((await exec({})).output.equals(failing), 'a failing exit: the raw bytes');
  t.equal((await exec({ OMNI_MASK: 'all' })).output.toString(), `running\n${redactLine(s.line).text}\nError: deploy failed\n`, 'OMNI_MASK=all: masked');

  const json = Buffer.from(JSON.stringify({ name: 'app', token: s.secret, api_key: SHAPES[0].secret }, null, 2) + '\n');
  t.ok((await pipeBuffered(json, { command: 'cat config.json', home })).equals(json), 'structured data: byte for byte');
  const pipeAll = await pipeStream([{ bytes: json, pauseMs: 0 }], { command: 'cat config.json', home, env: { ...HOLD_NEVER, OMNI_MASK: 'all' } });
  t.notOk(pipeAll.toString().includes(s.secret), 'OMNI_MASK=all: structured text masked');
  t.equal(JSON.parse(pipeAll.toString()).name, 'app', 'and still the same JSON around the masks');

  // A reshaping tail's output is the tail's (passed through), invalid UTF-8 and all.
  const sorted = Buffer.concat([Buffer.from(`A=1\n${s.line}\nBIN=`), Buffer.from([0xff, 0xfe]), Buffer.from('\nZ=2\n')]);
  t.ok((await pipeBuffered(sorted, { command: 'env | sort', home })).equals(sorted), 'a reshaping tail (env | sort): byte for byte');
  const sortedAll = await pipeStream([{ bytes: sorted, pauseMs: 0 }], { command: 'env | sort', home, env: { ...HOLD_NEVER, OMNI_MASK: 'all' } });
  t.same(sortedAll, Buffer.concat([Buffer.from(`A=1\n${redactLine(s.line).text}\nBIN=`), Buffer.from([0xff, 0xfe]), Buffer.from('\nZ=2\n')]), 'OMNI_MASK=all: masked, every other byte as it came');

  const env = Buffer.from(`HOME=/home/dev\n${s.line}\nLANG=C.UTF-8\n`);
  t.ok((await pipeBuffered(env, { command: 'cat .env', home })).equals(env), 'a read (cat): delivered unchanged');
  const reader = freshReader();
  const read = await hookRead(env.toString(), { path: `${reader.cwd}/.env`, home, reader });
  t.equal(read.replied, null, 'the Read tool: no reply, unchanged');
  const p = sample('claude-code/PostToolUse.Read.offset50-limit20.json');
  const content = env.toString();
  p.tool_input = { file_path: `${dir}/.env` };
  p.tool_response = { type: 'text', file: { filePath: `${dir}/.env`, content, numLines: 4, startLine: 1, totalLines: 4 } };
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), { ...baseEnv(), OMNI_HOME: tempHome(), OMNI_MASK: 'all' });
  const f = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.file;
  t.equal(f.content, `HOME=/home/dev\n${redactLine(s.line).text}\nLANG=C.UTF-8\n`, 'OMNI_MASK=all: the Read tool gets the masked file');
  t.equal(f.startLine, 1, 'every line at its number');
});

t.test('a Read reply changed in place is sent only when every line is its own line or a masked form of it', async (t) => {
  const { inPlace } = await import('../../lib/hosts/claude/adapter.js');
  t.same(inPlace('a\nTOKEN=abcdef\nb', 'a\nTOKEN=***\nb', 5), { content: 'a\nTOKEN=***\nb', startLine: 5 });
  t.equal(inPlace('\nx\ny', 'x\ny\n[omni: 1 blank lines removed — omni retrieve 0123456789abcdef]', 1), null, 'a squeezed blank line and a receipt: the same count, other lines: refused');
  t.equal(inPlace('A=ab B=defg', 'A=*** B=***', 1), null, 'a mask stands for three characters or more');
  t.equal(inPlace('same', 'same', 1), null, 'nothing changed: no reply');
});
