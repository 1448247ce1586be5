// omni_run in bounded memory: a command printing 200 MB of distinct lines (nothing for the exec
// door to fold, so the exec child hands the server ~200 MB) leaves the server's peak RSS far
// below the output. Before, the server held the whole output (and its copies): 160 MB took it
// to 1 GiB. The peak is the kernel's high-water mark (VmHWM), read after the call: no timing.
import t from 'tap';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, tempHome } from '../helpers/omni.js';
import { HOST_RESULT_CHARS } from '../../lib/mcp/capped-output.js';

type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean };

const home = tempHome();
const project = realpathSync(tempHome());
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, OMNI_HOME: join(home, 'omni'), TMPDIR: home };
// 200 MB: 3.3 million distinct 61-byte lines (a number, then a word the line number makes unique,
// spelt in letters g-v so no two lines share a template the generic fold would take).
const LINES = 3_300_000;
writeFileSync(join(project, 'big.js'), `let s = '';
for (let i = 1; i <= ${LINES}; i++) {
  s += 'line ' + String(i).padStart(9, '0') + ' of the big output ' + (i * 7919 % 1000003).toString(16).padStart(8, '0').replace(/[0-9a-f]/g, (c) => String.fromCharCode(103 + parseInt(c, 16))) + ' ok\\n';
  if (s.length > 1 << 16) { process.stdout.write(s); s = ''; }
}
process.stdout.write(s + 'the last line\\n');
`);
// And 1 MB: its whole cut fits the archive, so head + retrieved + tail is the output.
writeFileSync(join(project, 'mid.js'), `for (let i = 1; i <= 20000; i++) console.log('mid line ' + i + ' ' + String(i).replace(/\\d/g, (d) => String.fromCharCode(103 + Number(d))) + ' ' + 'x'.repeat(34));\n`);

const client = new Client({ name: 'omni-test', version: '0' });
const transport = new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp'], env, cwd: project, stderr: 'pipe' });
await client.connect(transport);
t.teardown(() => client.close());
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as Result;
const peakKiB = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const MARK = /\n\[omni: ([^\]\n]*) — omni retrieve ([0-9a-f]{16})\]\n/;

t.test('a 200 MB output: the server stays small; the result says what was cut and names its archive', async (t) => {
  const pid = transport.pid!;
  const before = peakKiB(pid);
  const r = await call('omni_run', { command: 'node big.js' });
  const peak = peakKiB(pid);
  t.comment(`server peak RSS ${Math.round(before / 1024)} MiB before the call, ${Math.round(peak / 1024)} MiB after a 200 MB output`);
  // Measured: ~70 MiB (the Node baseline, the head and tail, the archived 8 MiB of the cut).
  // Before: over 1 GiB. The bound is generous.
  t.ok(peak < 250 * 1024, `peak RSS ${Math.round(peak / 1024)} MiB < 250 MiB`);
  t.equal(r.isError, false);
  const text = r.content[0]?.text ?? '';
  t.ok(Buffer.byteLength(text) <= HOST_RESULT_CHARS, `${Buffer.byteLength(text)} B: within what the host takes`);
  t.ok(text.startsWith('line 000000001 of the big output'), 'the head, from the first line');
  t.ok(text.endsWith('the last line\n'), 'the tail, to the last line');
  const m = MARK.exec(text);
  t.ok(m, 'one marker between head and tail');
  t.match(m?.[1] ?? '', /MiB cut from the middle of .* of output: omni_run hands on at most .*; the first 8\.0 MiB of the cut archived, the rest not kept/);
  const head = text.slice(0, m!.index + 1);
  t.match(head, /ok\n$/, 'the head ends at a line end');
  t.equal(r.content[1]?.text, 'exit code: 0');
  const got = await call('omni_retrieve', { handle: m![2] });
  t.notOk(got.isError, 'the archived cut retrieves');
  // omni_retrieve is itself an MCP result: it hands on what it has (the first 8 MiB of the cut
  // follow the head exactly).
  t.ok((got.content[0]?.text ?? '').startsWith('line ' + String(head.split('\n').length).padStart(9, '0')), 'the cut starts with the line after the head');
});

t.test('a 1 MB output: the whole cut is archived, and head + cut + tail are the output', async (t) => {
  const r = await call('omni_run', { command: 'node mid.js' });
  const text = r.content[0]?.text ?? '';
  const m = MARK.exec(text);
  t.ok(m, 'a marker');
  t.notMatch(m?.[1] ?? '', /not kept/, 'all of the cut is archived');
  const got = await call('omni_retrieve', { handle: m![2] });
  const whole = text.slice(0, m!.index + 1) + (got.content[0]?.text ?? '') + text.slice(m!.index + m![0].length);
  const raw = spawnSync(process.execPath, [join(project, 'mid.js')], { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout;
  t.equal(whole, raw, 'byte for byte');
});
