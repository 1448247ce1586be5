import t from 'tap';
import { frame } from '../../lib/pipeline/frame.js';
import { RunState } from '../../lib/kit/stage.js';
import type { Batch, Line } from '../../lib/kit/types.js';

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
