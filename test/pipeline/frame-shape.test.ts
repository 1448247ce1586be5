import t from 'tap';
import { frame } from '../../lib/pipeline/frame.js';
import { RunState } from '../../lib/kit/stage.js';
import type { Batch, Line } from '../../lib/kit/types.js';
import { asCame, cameBytes, sizeOf } from '../../lib/pipeline/render-output.js';

/** Every line frame cuts from `input`, in order. */
async function cut(input: Buffer): Promise<Line[]> {
  const f = frame(new RunState());
  const lines: Line[] = [];
  f.on('data', (b: Batch) => { for (const it of b.items) if (it.kind === 'line') lines.push(it); });
  const done = new Promise((r) => f.on('end', r));
  f.end(input);
  await done;
  return lines;
}

// The stages after frame read the same fields of every line: lines that all have one shape keep
// those reads monomorphic. A field a stage sets later is present (undefined) from the start.
t.test('every line frame cuts has the same fields, whatever kind of line it is', async (t) => {
  const input = Buffer.concat([
    Buffer.from('plain\r\nwindows line\n\x1b[32m✓\x1b[0m colour\n[##  ] 10%\r[####] 100%\n'),
    Buffer.from([0xc3, 0x28, 0x0a]), // not UTF-8: kept as bytes
    Buffer.from('no terminator'),
  ]);
  const lines = await cut(input);
  t.equal(lines.length, 6);
  t.ok(lines[3].raw !== undefined, 'the redraw kept its raw form');
  t.ok(lines[4].bytes !== undefined, 'the undecodable line kept its bytes');
  const shape = Object.keys(lines[0]).join(',');
  for (const l of lines) t.equal(Object.keys(l).join(','), shape, JSON.stringify(l.text));
  for (const k of ['raw', 'bytes', 'plain', 'prefix', 'out', 'redacted', 'masked']) t.ok(k in lines[0], `${k} is there from the start`);
});

// Render counts a fold's hidden lines by cameBytes before it decides whether the fold pays: it
// must say exactly what asCame's text or bytes would weigh, or a fold could be made or refused
// on a wrong count.
t.test('cameBytes is the byte length of asCame, for every kind of line frame cuts', async (t) => {
  const input = Buffer.concat([
    Buffer.from('plain\r\nwindows line\n\x1b[32m✓\x1b[0m colour\n[##  ] 10%\r[####] 100%\n😀 emoji\n'),
    Buffer.from([0xc3, 0x28, 0x0d, 0x0a]), // not UTF-8, CRLF
    Buffer.from('no terminator'),
  ]);
  const lines = await cut(input);
  for (const l of lines) t.equal(cameBytes(l), sizeOf(asCame(l)), JSON.stringify(l.text));
  lines[0].masked = 'pl***✓';
  t.equal(cameBytes(lines[0]), sizeOf(asCame(lines[0])), 'a masked line counts its masked text');
  const synthetic: Line = { kind: 'line', text: 'made ✓ here', eol: '\n', tier: 'text', index: 0, end: 0 };
  t.equal(cameBytes(synthetic), sizeOf(asCame(synthetic)), 'a line no frame cut (no size) is counted from its text');
});
