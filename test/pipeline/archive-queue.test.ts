import t from 'tap';
import { createPipeline } from '../../lib/pipeline/create.js';
import { distillBuffer } from '../../lib/pipeline/run.js';
import { describeRun, type RunRequest } from '../../lib/pipeline/describe.js';
import { handleOf } from '../../lib/store/archive.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import type { Archive } from '../../lib/kit/types.js';

/**
 * A streamed run archives the markers of the batches that reach render together in one write
 * (one SQLite transaction), not one write per 64 KiB batch, and still writes no marker before
 * the write that archived its lines.
 */

/** ~64 KiB of lines the generic fold folds: runs of one template, between lines that stay. */
function chunk(k: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < 60_000; i++) {
    lines.push(`unique line ${k}-${i} says ${['alpha', 'beta', 'gamma', 'delta'][i % 4]} once`);
    for (let j = 0; j < 12; j++) lines.push(`Downloading package-${j}@1.${k}.${i} (${100 + j} kB)`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

interface Recorded { archive: Archive; calls: number[]; stored: Map<string, Buffer> }

function recording(): Recorded {
  const calls: number[] = [];
  const stored = new Map<string, Buffer>();
  const putMany = (data: Buffer[]) => {
    calls.push(data.length);
    return data.map((d) => { const h = handleOf(d); stored.set(h, Buffer.from(d)); return h; });
  };
  return { archive: { put: (d) => putMany([d])[0], putMany }, calls, stored };
}

const req: RunRequest = { door: 'pipe', hold: { bytes: 16 << 10, ms: 1e9, idleMs: 1e9 } };

t.test('a fast stream: its batches are archived in a few writes, each marker after its own', async (t) => {
  const rec = recording();
  const p = createPipeline(describeRun(req), { archive: rec.archive });
  const seen: string[] = [];
  let early = 0;
  const out: Buffer[] = [];
  p.on('data', (b: Buffer) => {
    out.push(b);
    for (const l of b.toString().split('\n')) {
      const h = MARKER_RE.exec(l)?.[2];
      if (!h) continue;
      seen.push(h);
      if (!rec.stored.has(h)) early++;
    }
  });
  const done = new Promise<void>((r) => p.on('end', () => r()));
  const chunks = Array.from({ length: 12 }, (_, k) => chunk(k));
  // Written in one turn of the event loop, as a pipe's reads arrive when omni is the slower side.
  for (const c of chunks) p.write(c);
  p.end({ exitCode: 0 });
  await done;
  t.ok(p.report.streamed, 'past the hold window');
  t.ok(seen.length > 20, `markers went out (${seen.length})`);
  t.equal(early, 0, 'no marker left before the write that archived its lines');
  const writes = rec.calls.filter((n) => n > 0).length;
  t.ok(writes <= chunks.length / 3, `the markers of ${chunks.length} batches in ${writes} archive writes`);
  t.ok(seen.every((h) => rec.stored.has(h)), 'every marker names archived bytes');
  t.ok(Buffer.concat(out).length < Buffer.concat(chunks).length, 'distilled');
});

t.test('a batch that waits is not held past the end of the input, nor past the queue\'s time', async (t) => {
  const rec = recording();
  const p = createPipeline(describeRun(req), { archive: rec.archive });
  const out: Buffer[] = [];
  p.on('data', (b: Buffer) => out.push(b));
  p.write(chunk(0));
  p.write(chunk(1));
  // No end yet: the waiting batches still go out, within the queue's time.
  await new Promise((r) => setTimeout(r, 300));
  const before = Buffer.concat(out).length;
  t.ok(before > 0, `out before the input ended (${before} bytes)`);
  t.ok(Buffer.concat(out).toString().includes('omni retrieve'), 'markers among them');
  const done = new Promise<void>((r) => p.on('end', () => r()));
  p.end({ exitCode: 0 });
  await done;
});

t.test('the queue changes no byte: streamed output equals the buffered run over the same batches', async (t) => {
  const input = Buffer.concat(Array.from({ length: 6 }, (_, k) => chunk(k)));
  const a = recording();
  const b = recording();
  const streamedOut = await new Promise<Buffer>((resolve) => {
    const p = createPipeline(describeRun(req), { archive: a.archive });
    const out: Buffer[] = [];
    p.on('data', (x: Buffer) => out.push(x));
    p.on('end', () => resolve(Buffer.concat(out)));
    for (let i = 0; i < input.length; i += 64 << 10) p.write(input.subarray(i, i + (64 << 10)));
    p.end({ exitCode: 0 });
  });
  const oneByOne = await new Promise<Buffer>((resolve) => {
    const p = createPipeline(describeRun(req), { archive: b.archive });
    const out: Buffer[] = [];
    p.on('data', (x: Buffer) => out.push(x));
    p.on('end', () => resolve(Buffer.concat(out)));
    (async () => {
      for (let i = 0; i < input.length; i += 64 << 10) {
        p.write(input.subarray(i, i + (64 << 10)));
        await new Promise((r) => setTimeout(r, 40));
      }
      p.end({ exitCode: 0 });
    })();
  });
  t.ok(b.calls.length > a.calls.length, `batches one by one: ${b.calls.length} writes, together: ${a.calls.length}`);
  t.ok(streamedOut.equals(oneByOne), 'the same bytes either way');
  // A buffered run (the hook) is not streamed and never waits on a timer.
  const held = await distillBuffer(describeRun(req), input, { archive: recording().archive });
  t.ok(held.output.length > 0, 'a buffered run renders at once');
});
