import t from 'tap';
import { Transform } from 'node:stream';
import { createPipeline } from '../../lib/pipeline/create.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { tempHome } from '../helpers/omni.js';

const noise = (n: number) => Array.from({ length: n }, (_, i) => `Downloading package-${i % 7} ${i}%`).join('\n') + '\n';

async function runWith(ledger: () => Transform, chunks: Buffer[], hold: { bytes?: number } = {}): Promise<Buffer> {
  const store = new LazyStore(tempHome());
  const p = createPipeline(describeRun({ door: 'pipe', hold: { ms: Infinity, ...hold } }), { archive: store.archive(), ledger });
  const out: Buffer[] = [];
  const done = new Promise<void>((resolve) => { p.on('data', (b: Buffer) => out.push(b)); p.on('end', () => resolve()); });
  for (const c of chunks) p.write(c);
  p.end();
  await done;
  store.close();
  return Buffer.concat(out);
}

t.test('a stage that crashes while holding fails open to the exact input', async (t) => {
  const input = Buffer.from(noise(500) + 'last line\n');
  const boom = () => new Transform({ objectMode: true, transform(_b, _e, cb) { cb(new Error('boom')); } });
  const out = await runWith(boom, [input.subarray(0, 1000), input.subarray(1000)]);
  t.ok(out.equals(input), 'every byte, once, in order');
});

t.test('a stage that crashes after streaming began still delivers the rest of the input', async (t) => {
  const input = Buffer.from(noise(20000) + 'last line\n');
  let seen = 0;
  const late = () => new Transform({
    objectMode: true,
    transform(b, _e, cb) { seen++; if (seen > 3) cb(new Error('late boom')); else cb(null, b); },
  });
  const chunks: Buffer[] = [];
  for (let i = 0; i < input.length; i += 16384) chunks.push(input.subarray(i, i + 16384));
  const out = (await runWith(late, chunks, { bytes: 1 })).toString();
  t.ok(out.endsWith(input.subarray(-200_000).toString()), 'the raw input after the crash point arrives, exactly');
  t.ok(out.length <= input.length, 'nothing twice');
});

t.test('a buffered payload larger than the streaming spool still falls back to its exact bytes', async (t) => {
  const { distillBuffer } = await import('../../lib/pipeline/run.js');
  const { SPOOL_CAP_BYTES } = await import('../../lib/pipeline/spool.js');
  // No archive: nothing may be removed, so the gate must hand back every raw byte.
  const line = 'Downloading package-1 50%\n';
  const input = Buffer.from(line.repeat(Math.ceil((SPOOL_CAP_BYTES + (1 << 20)) / line.length)));
  const r = await distillBuffer(describeRun({ door: 'hook' }), input);
  t.ok(r.output.equals(input), `${input.length} bytes back, exactly`);
});
