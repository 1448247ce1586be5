import type { Readable } from 'node:stream';

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
