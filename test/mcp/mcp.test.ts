// `omni mcp` end to end: the SDK's own client spawns the built server (`node dist/omni.cjs mcp`)
// over stdio, with a fresh OMNI_HOME, and calls every tool as a host would.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, omni, tempHome } from '../helpers/omni.js';

type Content = { type: string; text?: string; resource?: { uri: string; blob?: string; text?: string } };
type Result = { content: Content[]; isError?: boolean };

const home = tempHome();
const project = realpathSync(tempHome());
// HOME too: omni_run reads the user's Claude Code permission rules, and the real ones are not the test's.
const env = { ...process.env, HOME: home, OMNI_HOME: home } as Record<string, string>;
const script = join(project, 'noisy.sh');
writeFileSync(script, [
  'i=0; while [ $i -lt 400 ]; do echo "Downloading package-$((i%7)) $i%"; i=$((i+1)); done',
  'echo "final line"',
  'exit ${1:-0}',
].join('\n'));
const raw = (code: number) => spawnSync('sh', ['-c', `sh ${script} ${code} 2>&1`]).stdout;

const client = new Client({ name: 'omni-test', version: '0' });
const transport = new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp'], env, cwd: project, stderr: 'pipe' });
let serverStderr = '';
transport.stderr?.on('data', (b: Buffer) => { serverStderr += b.toString(); });
await client.connect(transport);
t.teardown(() => client.close());

const call = async (name: string, args: Record<string, unknown>): Promise<Result> => (await client.callTool({ name, arguments: args })) as Result;
const text = (r: Result, i = 0) => r.content[i]?.text ?? '';
const MARKER = /\[omni: [^\]\n]*? — omni retrieve ([0-9a-f]{16})\]\n/g;

t.test('lists the six tools, each with a description', async (t) => {
  const { tools } = await client.listTools();
  t.same(tools.map((x) => x.name).sort(), ['omni_goal', 'omni_recall', 'omni_remember', 'omni_retrieve', 'omni_run', 'omni_stats']);
  for (const tool of tools) t.ok(tool.description && tool.description.length < 300, `${tool.name} has a short description`);
  const run = tools.find((x) => x.name === 'omni_run')!;
  t.same(run.inputSchema.required, ['command']);
});

t.test('omni_run distils a noisy command; omni_retrieve gives back exactly what each marker removed', async (t) => {
  const r = await call('omni_run', { command: `sh ${script} 0` });
  const out = text(r);
  const full = raw(0);
  t.equal(r.isError, false);
  t.equal(text(r, 1), 'exit code: 0');
  t.ok(Buffer.byteLength(out) < full.length / 4, `${Buffer.byteLength(out)} bytes < a quarter of ${full.length}`);
  t.ok(out.endsWith('final line\n'), 'the last line is kept');
  const handles = [...out.matchAll(MARKER)].map((m) => m[1]);
  t.ok(handles.length > 0, 'a marker names a handle');
  // Put every marker's retrieved bytes back in its place: that must be the raw output.
  let rebuilt = out;
  for (const h of handles) {
    const got = await call('omni_retrieve', { handle: h });
    t.notOk(got.isError, `handle ${h} retrieves`);
    rebuilt = rebuilt.replace(new RegExp(`\\[omni: [^\\]\\n]*? — omni retrieve ${h}\\]\\n`), () => text(got));
  }
  t.equal(rebuilt, full.toString(), 'distilled output + retrieved runs = the raw output, byte for byte');
  // The same handle through the typed subcommand: one store, one code path.
  const typed = omni(['retrieve', handles[0]], { env: { OMNI_HOME: home } });
  t.equal(typed.stdout.toString(), text(await call('omni_retrieve', { handle: handles[0] })));
});

t.test('a failing command comes back verbatim with its exit code, as a normal result (an error result gets cut by hosts)', async (t) => {
  const r = await call('omni_run', { command: `sh ${script} 3` });
  t.equal(r.isError, false);
  t.equal(text(r), raw(3).toString(), 'byte for byte');
  t.equal(text(r, 1), 'exit code: 3');
  // Past exec's 2 s streaming window, too: nobody watches an MCP call's stream, so the run is
  // held to the end and the gate still sees the exit code.
  const slow = await call('omni_run', { command: `sh ${script} 0; sleep 2.5; exit 4` });
  t.equal(slow.isError, false);
  t.equal(text(slow), raw(0).toString(), 'a slow failing run is verbatim too');
  t.equal(text(slow, 1), 'exit code: 4');
});

t.test('output that is not UTF-8 keeps its exact bytes (base64 resource)', async (t) => {
  const r = await call('omni_run', { command: "printf 'bad \\377\\376 bytes\\n'; exit 1" });
  t.equal(r.isError, false);
  const res = r.content.find((c) => c.type === 'resource')?.resource;
  t.ok(res?.blob, 'a blob resource');
  t.same(Buffer.from(res!.blob!, 'base64'), Buffer.from([...Buffer.from('bad '), 0xff, 0xfe, ...Buffer.from(' bytes\n')]));
  t.ok(r.content.some((c) => c.text === 'exit code: 1'));
});

t.test('cwd, stdin isolation and timeout', async (t) => {
  const sub = join(project, 'sub dir');
  mkdirSync(sub, { recursive: true });
  t.equal(text(await call('omni_run', { command: 'pwd' })), `${project}\n`, 'default: the server cwd');
  t.equal(text(await call('omni_run', { command: 'pwd', cwd: sub })), `${sub}\n`, 'cwd given');
  t.equal(text(await call('omni_run', { command: 'pwd', cwd: 'sub dir' })), `${sub}\n`, 'relative cwd: against the project');
  // The command must not read the MCP channel: cat sees end of input at once.
  const cat = await call('omni_run', { command: 'cat; echo after-cat' });
  t.equal(text(cat), 'after-cat\n');
  const slow = await call('omni_run', { command: 'echo started; sleep 30; echo never', timeout_ms: 4000 });
  t.equal(slow.isError, false);
  t.match(text(slow), /^started\n/);
  t.notMatch(text(slow), /never/);
  t.match(text(slow, 1), /^exit code: 143 \(timed out after 4000 ms\)$/);
});

t.test('bad input is a clear tool error and the server keeps serving', async (t) => {
  const missing = await call('omni_run', {});
  t.equal(missing.isError, true);
  t.match(text(missing), /omni_run.*command/);
  const wrongType = await call('omni_run', { command: 42 });
  t.equal(wrongType.isError, true);
  t.match(text(wrongType), /command/);
  const empty = await call('omni_run', { command: '   ' });
  t.match(text(empty), /the command is empty/);
  const noDir = await call('omni_run', { command: 'true', cwd: '/nonexistent/omni-x' });
  t.equal(noDir.isError, true);
  t.match(text(noDir), /cwd \/nonexistent\/omni-x does not exist/);
  const badTimeout = await call('omni_run', { command: 'true', timeout_ms: -5 });
  t.equal(badTimeout.isError, true);
  t.match(text(badTimeout), /timeout_ms/);
  const unknown = await call('omni_retrieve', { handle: 'ffffffffffffffff' });
  t.equal(unknown.isError, true);
  t.match(text(unknown), /no archived block has handle ffffffffffffffff/);
  const notHandle = await call('omni_retrieve', { handle: '--help' });
  t.equal(notHandle.isError, true);
  t.match(text(notHandle), /is not a handle/);
  const badSince = await call('omni_stats', { since: 'yesterday' });
  t.equal(badSince.isError, true);
  t.match(text(badSince), /--since takes a duration/);
  const noTool = await call('omni_nope', {});
  t.equal(noTool.isError, true);
  t.match(text(noTool), /omni_nope not found/);
  // Still alive, and stats saw the runs above (the exec door recorded them).
  const stats = await call('omni_stats', { since: 'all' });
  t.notOk(stats.isError);
  t.match(text(stats), /^omni stats since the beginning \(all\)\n\d+ runs/);
  t.match(text(stats), /\bexec\b/, 'the door table names exec');
  // The CLI and MCP format the one service: off a terminal, the same report.
  const typedStats = omni(['stats', '--since', 'all'], { env: { OMNI_HOME: home } });
  t.equal(typedStats.status, 0);
  t.equal(text(stats), typedStats.stdout.toString().trimEnd(), 'omni_stats says what `omni stats` prints');
  const typedUnknown = omni(['retrieve', 'ffffffffffffffff'], { env: { OMNI_HOME: home } });
  t.equal(text(unknown), typedUnknown.stderr.toString().trim(), 'an unknown handle, in the same words');
  t.equal(serverStderr, '', 'nothing on the server stderr');
});

t.test('remember / recall round trip, shared with the typed subcommand', async (t) => {
  const before = await call('omni_recall', {});
  t.equal(text(before), `no facts or goal remembered for ${project}`);
  const r = await call('omni_remember', { fact: 'tests run with npm test -- --runInBand' });
  t.match(text(r), new RegExp(`^remembered fact \\d+ for ${project}$`));
  t.match(text(await call('omni_remember', { fact: '  ' })), /the fact is empty/);
  const after = await call('omni_recall', {});
  t.match(text(after), /Facts:\n\d+\. tests run with npm test -- --runInBand/);
  const typed = omni(['remember', '--list', '--cwd', project], { env: { OMNI_HOME: home } });
  t.match(typed.stdout.toString(), /tests run with npm test -- --runInBand/);
  const elsewhere = await call('omni_recall', { cwd: '/tmp' });
  t.match(text(elsewhere), /no facts or goal remembered for \/tmp/, 'facts belong to their project');
});

t.test('goal: show, pin, clear', async (t) => {
  t.equal(text(await call('omni_goal', {})), `no goal pinned for ${project}`);
  t.equal(text(await call('omni_goal', { text: 'make the parser streaming' })), `goal pinned for ${project}: make the parser streaming`);
  t.equal(text(await call('omni_goal', {})), `pinned goal for ${project}: make the parser streaming`);
  t.match(text(await call('omni_recall', {})), /Pinned goal: make the parser streaming/);
  const typed = omni(['goal', '--cwd', project], { env: { OMNI_HOME: home } });
  t.equal(typed.stdout.toString(), 'make the parser streaming\n');
  const both = await call('omni_goal', { text: 'x', clear: true });
  t.equal(both.isError, true);
  t.equal(text(await call('omni_goal', { clear: true })), `goal cleared for ${project}`);
  t.equal(text(await call('omni_goal', { clear: true })), `no goal was pinned for ${project}`);
});

t.test('stdout carries JSON-RPC only, even after a garbage line; stdin closing ends the server after it answers', async (t) => {
  const child = spawn(process.execPath, [OMNI, 'mcp'], { env, cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
  child.stderr.on('data', (b: Buffer) => { err += b.toString(); });
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    'this is not json {',
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'omni_run', arguments: { command: 'sleep 1; echo late' } } },
  ];
  child.stdin.end(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  const code = await new Promise((r) => child.on('close', r));
  t.equal(code, 0, 'exits 0 once stdin is closed');
  const msgs = out.trim().split('\n').map((l) => JSON.parse(l));
  t.ok(msgs.every((m) => m.jsonrpc === '2.0'), 'every stdout line is a JSON-RPC message');
  const answer = msgs.find((m) => m.id === 2);
  t.equal(answer?.result?.content?.[0]?.text, 'late\n', 'the call in progress answered before the server left');
  t.equal(err, '');
});
