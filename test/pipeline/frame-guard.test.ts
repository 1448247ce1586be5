import t from 'tap';
import { distill } from '../helpers/omni.js';
import { detectStructured } from '../../lib/pipeline/guard.js';
import type { Line } from '../../lib/pipeline/types.js';

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

t.test('binary and invalid UTF-8 pass through byte-identical', async (t) => {
  const bin = Buffer.concat([Buffer.from(noisy(200)), Buffer.from([0, 1, 2, 255, 254, 10])]);
  const r1 = await distill(bin);
  t.ok(r1.output.equals(bin), 'NUL bytes: identical');
  const bad = Buffer.concat([Buffer.from(noisy(300)), Buffer.from([0xc3, 0x28, 10]), Buffer.from(noisy(300))]);
  const r2 = await distill(bad);
  t.ok(r2.output.equals(bad), 'invalid UTF-8: identical');
  t.equal(r2.verbatim, 'invalid-utf8');
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
