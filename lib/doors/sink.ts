import type { Readable } from 'node:stream';
import { SPOOL_CAP_BYTES } from '../pipeline/spool.js';
import type { HoldWindow } from '../pipeline/describe.js';

/**
 * Copies a readable to a sink that may go away (`| head -1`): on EPIPE the run stops
 * writing quietly instead of crashing, and `done` is still called once.
 */
export function writeSafely(src: Readable, sink: NodeJS.WritableStream, done: () => void): void {
  let finished = false;
  let broken = false;
  const end = () => { if (!finished) { finished = true; done(); } };
  sink.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') {
      broken = true;
      src.resume(); // drain the rest so the producer is not blocked
      return;
    }
    broken = true;
  });
  src.on('data', (b: Buffer) => {
    if (broken) return;
    if (!sink.write(b)) {
      src.pause();
      sink.once('drain', () => src.resume());
    }
  });
  src.on('end', end);
  src.on('error', end);
}

/**
 * The hold-back window for the streaming doors: OMNI_HOLD_MS, OMNI_HOLD_IDLE_MS and
 * OMNI_HOLD_BYTES override the defaults (2 s, 500 ms quiet, 256 KiB; lib/pipeline/describe.ts).
 * Unset or invalid values keep the default.
 *
 * When nobody watches the stream, hold to the end (up to the spool cap): a host's pre-hook
 * rewrite (it alone sets OMNI_SESSION_ID) and the MCP tool (OMNI_BUFFERED=1) hand the model
 * the output only when the command ends, so streaming early buys nothing and would cost a slow
 * failing run its verbatim delivery (it would end condensed, with a marker).
 */
export function holdWindow(env: NodeJS.ProcessEnv): Partial<HoldWindow> {
  const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
  const w: { -readonly [K in keyof HoldWindow]?: number } = {};
  if (env.OMNI_SESSION_ID || env.OMNI_BUFFERED === '1') {
    w.ms = Infinity;
    w.bytes = SPOOL_CAP_BYTES;
  }
  const idle = num(env.OMNI_HOLD_IDLE_MS);
  if (idle !== undefined) w.idleMs = idle;
  const ms = num(env.OMNI_HOLD_MS);
  const bytes = num(env.OMNI_HOLD_BYTES);
  if (ms !== undefined) w.ms = ms;
  if (bytes !== undefined) w.bytes = bytes;
  return w;
}
