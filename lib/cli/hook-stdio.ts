/**
 * A hook's stdin and stdout as file descriptors. Building `process.stdin`/`process.stdout`
 * loads net/tty and constructs a stream each (a few ms of a call that should cost ~10 ms), and
 * a hook reads one payload to EOF and writes one reply: blocking reads and writes on fd 0/1
 * do that with nothing built. A descriptor the host left non-blocking (EAGAIN) hands over to
 * the stream for whatever is left, so no byte is lost either way.
 */
import { readSync, writeSync } from 'node:fs';

const CHUNK = 1 << 16;

function wouldBlock(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
}

/** All of a stream, to its end. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer | string>) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/** All of stdin, to EOF. */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(CHUNK);
    let n: number;
    try {
      n = readSync(0, buf, 0, CHUNK, null);
    } catch (err) {
      if (!wouldBlock(err)) throw err;
      chunks.push(await readAll(process.stdin));
      break;
    }
    if (n === 0) break;
    chunks.push(n === CHUNK ? buf : buf.subarray(0, n));
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Writes `text` to stdout whole; resolves once it is written (or handed to the stream). */
export function writeStdout(text: string): Promise<void> {
  const buf = Buffer.from(text);
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(1, buf, off, buf.length - off);
    return Promise.resolve();
  } catch (err) {
    if (!wouldBlock(err)) return Promise.reject(err);
    return new Promise((resolve) => {
      process.stdout.write(buf.subarray(off), () => resolve());
    });
  }
}
