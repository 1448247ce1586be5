import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { distill, omni, ROOT } from '../helpers/omni.js';
import { detectStructured } from '../../lib/pipeline/guard.js';
import type { Line } from '../../lib/kit/types.js';

const noisy = (n: number) => Array.from({ length: n }, (_, i) => `Downloading package-${i % 5} ${i}%`).join('\n') + '\n';

const lines = (s: string): Line[] => s.split('\n').map((text, index) => ({ kind: 'line', text, eol: '\n', tier: 'text', index, end: 0 }));

t.test('JSON, NDJSON, YAML, CSV and TSV come back byte for byte', async (t) => {
  const big = (row: (i: number) => string) => Array.from({ length: 400 }, (_, i) => row(i)).join('\n') + '\n';
  const cases: Record<string, string> = {
    json: JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: 'Downloading x' })) }, null, 2),
    ndjson: big((i) => JSON.stringify({ level: 'info', msg: 'Downloading package', i })),
    yaml: 'apiVersion: v1\nkind: List\nitems:\n' + big((i) => `  - name: pod-${i}\n    status: Running`),
    csv: 'id,name,status\n' + big((i) => `${i},Downloading package,50%`),
    tsv: 'id\tname\tstatus\n' + big((i) => `${i}\tDownloading package\t50%`),
  };
  for (const [kind, text] of Object.entries(cases)) {
    const r = await distill(text);
    t.equal(r.output.toString(), text, `${kind} unchanged`);
    t.equal(r.changed, false, `${kind} reported unchanged`);
  }
});

t.test('binary passes through byte-identical', async (t) => {
  const bin = Buffer.concat([Buffer.from(noisy(200)), Buffer.from([0, 1, 2, 255, 254, 10])]);
  const r1 = await distill(bin);
  t.ok(r1.output.equals(bin), 'NUL bytes: identical');
  t.equal(r1.verbatim, 'binary');
  // A NUL after undecodable lines is still binary: the whole run goes through as it came.
  const late = Buffer.concat([Buffer.from([0xc3, 0x28, 10]), Buffer.from(noisy(300)), Buffer.from([0, 10])]);
  const r2 = await distill(late);
  t.ok(r2.output.equals(late), 'undecodable, then NUL: identical');
  t.equal(r2.verbatim, 'binary');
});

t.test('an undecodable byte costs its own line: it goes out as it came, and the rest is distilled', async (t) => {
  const bad = Buffer.from([0x63, 0xc3, 0x28, 0x64, 10]);
  const input = Buffer.concat([Buffer.from(noisy(300)), bad, Buffer.from(noisy(300))]);
  const r = await distill(input);
  t.equal(r.verbatim, null, 'not passed through');
  t.ok(r.outBytes < r.rawBytes / 4, `${r.rawBytes} -> ${r.outBytes} B`);
  t.ok(r.output.includes(bad), 'the line with the byte, byte for byte');
  t.equal(r.output.toString('latin1').split('\n').filter((l) => l.includes('\xc3(')).length, 1, 'once, on a line of its own');
});

t.test('two jest runs with one Latin-1 byte between them distil like the two runs alone', async (t) => {
  const jest = readFileSync(join(ROOT, 'corpus/cases/1062-jest-verbose-pass/output.txt'));
  const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1');
  const clean = await distill(Buffer.concat([jest, Buffer.from('cafe au lait\n'), jest]), { command: 'npx jest --verbose' });
  const dirty = await distill(Buffer.concat([jest, latin1, jest]), { command: 'npx jest --verbose' });
  t.equal(dirty.verbatim, null);
  t.equal(dirty.outBytes, clean.outBytes - 'cafe au lait\n'.length + latin1.length, `${dirty.rawBytes} -> ${dirty.outBytes} B, as ${clean.rawBytes} -> ${clean.outBytes} B`);
  t.ok(dirty.output.includes(latin1), 'the Latin-1 line as it came');
});

t.test('a stream past the hold window keeps distilling after an undecodable line', async (t) => {
  const log = (from: number, n: number) => Array.from({ length: n }, (_, i) => `2026-12-01 10:00:00,${String((from + i) % 1000).padStart(3, '0')} INFO worker.jobs [1594] job ${from + i} done\n`).join('');
  const input = Buffer.concat([Buffer.from(log(0, 4000)), Buffer.from('2026-12-01 10:00:01,000 INFO worker.jobs [1594] wrote r\xe9sum\xe9.txt\n', 'latin1'), Buffer.from(log(4000, 40000))]);
  t.ok(input.length > 1 << 20, `${input.length} B: far past the hold window`);
  const r = omni(['pipe', '--command', 'cat worker.log'], { input });
  t.equal(r.status, 0);
  t.ok(r.stdout.length < input.length / 20, `${input.length} -> ${r.stdout.length} B: the lines after the byte folded too`);
  t.ok(r.stdout.includes(Buffer.from('r\xe9sum\xe9', 'latin1')), 'the undecodable line as it came');
});

t.test("git log: a commit whose author is not UTF-8 stays as git printed it, the others go one per line", async (t) => {
  const commit = (i: number, author: string) =>
    `commit ${String(i).repeat(40).slice(0, 40)}\nAuthor: ${author} <dev${i}@example.com>\nDate:   Tue Sep ${i} 11:00:00 2026 +0000\n\n    Change number ${i} of the ledger\n\n    A body line that says more about change ${i}.\n\n`;
  const latin1 = Buffer.from('Author: Jos\xe9 Mu\xf1oz <dev3@example.com>\n', 'latin1');
  const parts = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => Buffer.from(commit(i, i === 3 ? 'Jos\xe9 Mu\xf1oz' : 'Kim Keeper'), i === 3 ? 'latin1' : 'utf8'));
  const input = Buffer.concat(parts);
  t.ok(input.includes(latin1));
  const r = await distill(input, { command: 'git log' });
  t.equal(r.verbatim, null, 'distilled');
  t.ok(r.output.includes(latin1), 'the Latin-1 author line, byte for byte');
  t.notOk(r.output.includes(Buffer.from('\ufffd')), 'no replacement character made up from it');
  t.equal(r.output.toString('latin1').split('Jos').length, 2, 'the author once');
  const text = r.output.toString('latin1');
  for (const i of [1, 2, 4, 5, 6, 7, 8]) t.match(text, new RegExp(`^${String(i).repeat(7)} 2026-09-0${i} Kim Keeper: Change number ${i} of the ledger$`, 'm'), `commit ${i} on one line`);
  t.match(text, /^commit 3{40}$/m, 'commit 3 as git printed it');
});

t.test('CRLF terminators are kept on the lines that survive', async (t) => {
  const text = noisy(300).replace(/\n/g, '\r\n') + 'final line\r\n';
  const r = await distill(text);
  const out = r.output.toString();
  t.ok(r.changed, 'noise was folded');
  t.ok(out.endsWith('final line\r\n'), 'last line keeps \\r\\n');
  t.notOk(/[^\r]\n/.test(out.replace(/\]\n/g, ']\r\n')), 'every kept input line still ends in \\r\\n');
});

t.test('carriage-return redraws fold to their final state', async (t) => {
  const bar = Array.from({ length: 100 }, (_, i) => `\r[${'#'.repeat(i % 40)}] ${i}%`).join('') + '\r[done] 100%\n';
  const text = 'Installing\n' + bar + 'Installed 3 packages\n';
  const r = await distill(text);
  const out = r.output.toString();
  t.match(out, /^Installing\n\[done\] 100%\nInstalled 3 packages\n/);
  t.match(out, /100 progress redraws/);
  t.match(out, /omni retrieve [0-9a-f]{16}/, 'the footer names the raw handle');
});

t.test('the guard tells log lines from JSON and prose from YAML', async (t) => {
  t.equal(detectStructured(lines('[INFO] starting\n[INFO] done')), null);
  t.equal(detectStructured(lines('[1/4] Resolving packages...\n[2/4] Fetching')), null);
  t.equal(detectStructured(lines('[\n  1,\n  2\n]')), 'json');
  t.equal(detectStructured(lines('Tests: 3 passed\nTime: 2s\nRan all test suites.')), null);
  t.equal(detectStructured(lines('name: x\nversion: 1\ndeps:\n  - a')), 'yaml');
  t.equal(detectStructured(lines('a,b,c\n1,2,3\n4,5,6')), 'csv');
  t.equal(detectStructured(lines('total 12\ndrwxr-xr-x 2 root root 4096 .\n-rw-r--r-- 1 root root 10 a.txt')), null);
});

t.test('progress counters in brackets are not JSON', async (t) => {
  t.equal(detectStructured(lines('[  3%] Building C object src/CMakeFiles/a.dir/a.c.o\n[  6%] Building C object b.c.o')), null);
  t.equal(detectStructured(lines('[1/4] Resolving packages...')), null);
  t.equal(detectStructured(lines('[12:00:01] Starting compilation')), null);
  t.equal(detectStructured(lines('[1, 2, 3]')), 'json');
  t.equal(detectStructured(lines('[\n  {"a": 1}\n]')), 'json');
  t.equal(detectStructured(lines('[42]')), 'json');
});

t.test('frame gives each line its size as it came, the bytes lineByteLength counts', async (t) => {
  const { frame } = await import('../../lib/pipeline/frame.js');
  const { RunState } = await import('../../lib/kit/stage.js');
  const { lineByteLength } = await import('../../lib/kit/marker.js');
  const input = Buffer.concat([
    Buffer.from('plain\r\nünïcödé ✓\n\x1b[32mgreen\x1b[0m\n[##  ] 10%\r[####] 100%\n\n'),
    Buffer.from([0xc3, 0x28, 10]), // not UTF-8: its exact bytes
    Buffer.from('last, no newline'),
  ]);
  const f = frame(new RunState());
  const got: Line[] = [];
  f.on('data', (b: { items: Line[] }) => got.push(...b.items));
  const done = new Promise((r) => f.on('end', r));
  f.end(input);
  await done;
  t.equal(got.length, 7);
  let at = 0;
  for (const l of got) {
    t.equal(l.size, l.end - at, `${JSON.stringify(l.text)}: its bytes in the input`);
    const { size, ...without } = l;
    t.equal(lineByteLength(without as Line), size, 'what lineByteLength counts without it');
    at = l.end;
  }
});

t.test('frame cuts the same lines however the input is chunked (a line across chunks, a NUL past one)', async (t) => {
  const { frame } = await import('../../lib/pipeline/frame.js');
  const { RunState } = await import('../../lib/kit/stage.js');
  const text = Buffer.concat([
    Buffer.from('plain\r\nünïcödé ✓\n\x1b[32mgreen\x1b[0m\n[##  ] 10%\r[####] 100%\n\n'),
    Buffer.from([0xc3, 0x28, 10]),
    Buffer.from('a longer line that several chunks share between them\nshort\nlast, no newline'),
  ]);
  const framed = async (input: Buffer, cuts: number[]) => {
    const run = new RunState();
    const f = frame(run);
    const got: Array<Record<string, unknown>> = [];
    let end = 0;
    f.on('data', (b: { items: Line[]; end: number }) => { end = b.end; for (const l of b.items) got.push({ ...l, bytes: l.bytes?.toString('hex') }); });
    const done = new Promise((r) => f.on('end', r));
    let at = 0;
    for (const c of [...cuts, input.length]) { if (c > at) f.write(input.subarray(at, c)); at = Math.max(at, c); }
    f.end();
    await done;
    return { got, end, passthrough: run.passthrough };
  };
  const cutsOf = (n: number, k: number, seed: number): number[] => {
    const cuts: number[] = [];
    for (let i = 0; i < 1 + (k % 6); i++) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; cuts.push(seed % n); }
    return cuts.sort((a, b) => a - b);
  };
  const whole = await framed(text, []);
  for (let k = 0; k < 60; k++) {
    const cuts = cutsOf(text.length, k, k + 1);
    t.same(await framed(text, cuts), whole, `cut at ${cuts.join(',')}`);
  }
  // A NUL in the chunk that ends a line begun in the one before: binary from there, every byte counted.
  const binary = Buffer.from('one\ntwo, begun and ended\n\0three\n');
  for (let k = 0; k < 30; k++) {
    const cuts = cutsOf(binary.length, k, k + 101);
    const r = await framed(binary, cuts);
    t.equal(r.passthrough, 'binary', `binary, cut at ${cuts.join(',')}`);
    t.equal(r.end, binary.length);
  }
});

t.test("a rule's streamed table that pauses after its first line is still judged as a table", async (t) => {
  // The hold window can end after one line (a pause in the producer); a rule's `.*` must not
  // get the rest of a TSV because one line was too little to call it one.
  const { guard } = await import('../../lib/pipeline/guard.js');
  const { RunState } = await import('../../lib/kit/stage.js');
  const judged = async (family: string) => {
    const run = new RunState();
    run.family = family;
    const g = guard(run);
    const out: Line[] = [];
    g.on('data', (b: { items: Line[] }) => out.push(...b.items));
    const done = new Promise((r) => g.on('end', r));
    const line = (text: string, index: number): Line => ({ kind: 'line', text, eol: '\n', tier: 'text', index, end: 0 });
    g.write({ items: [line('y p /\t1/ e.-_.//J/f', 0)], end: 20 });
    run.startStreaming();
    const heldAfterOne = out.length;
    g.write({ items: [line('x._kE\tH/x-/ zZ-_', 1), line('F_S_/..-6\t2wsP._  5-', 2)], end: 60 });
    g.end();
    await done;
    return { verdict: run.passthrough, heldAfterOne, lines: out.length };
  };
  const rules = await judged('rules');
  t.equal(rules.verdict, 'tsv', 'judged on the lines that came after the pause');
  t.equal(rules.heldAfterOne, 0, 'its first line waited for a second');
  t.equal(rules.lines, 3, 'every line goes on');
  const builtIn = await judged('test');
  t.equal(builtIn.heldAfterOne, 1, "a built-in distiller's run is not held: its first line goes on at the pause");
});
