import { createPipeline, type RunEdges } from './create.js';
import { heldToEnd, type RunDescription } from './describe.js';
import { buffered } from '../kit/streams.js';

export interface DistillResult {
  output: Buffer;
  /** False when `output` is byte-identical to the input: a hook then sends no reply. */
  changed: boolean;
  rawBytes: number;
  outBytes: number;
  distiller: string;
  /** The distiller's family for stats (DistillerSpec.family). */
  family: string;
  /** Why the raw bytes went out, when they did. */
  verbatim: string | null;
  rawHandle: string | null;
}

/** Fixed write size, so a buffered payload is always cut into the same batches: the same input gives the same bytes. */
const CHUNK = 64 << 10;

/**
 * The buffered door into the one pipeline (the hook uses it): writes the payload, reads
 * the result. Never holds on a timer, so the result depends only on input and store.
 * `exitCode`: the producer's, when known (the hook's payloads are successes: 0).
 */
export async function distillBuffer(desc: RunDescription, input: Buffer, edges: RunEdges & { exitCode?: number | null; nodeStreams?: boolean } = {}): Promise<DistillResult> {
  // Written whole, read at the end: synchronous stages, no node:stream (../kit/streams.ts).
  // `nodeStreams` builds the same run on node:stream, for the test that holds the two equal.
  const make = () => createPipeline(heldToEnd(desc), edges);
  const p = edges.nodeStreams ? make() : buffered(make);
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    p.on('data', (b: Buffer) => chunks.push(b));
    p.on('end', resolve);
    p.on('error', reject);
  });
  for (let i = 0; i < input.length; i += CHUNK) p.write(input.subarray(i, i + CHUNK));
  p.end({ exitCode: edges.exitCode ?? null });
  await done;
  const output = Buffer.concat(chunks);
  const changed = !output.equals(input);
  return {
    output,
    changed,
    rawBytes: input.length,
    outBytes: output.length,
    distiller: p.report.distiller,
    family: p.report.family,
    verbatim: p.report.verbatim,
    rawHandle: p.report.rawHandle,
  };
}
