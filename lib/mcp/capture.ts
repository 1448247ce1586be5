import { Writable } from 'node:stream';
import type { Io } from '../cli/main.js';

/** A writable that keeps every byte written to it. */
export class Collector extends Writable {
  private chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    cb();
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
}

/**
 * Runs a CLI subcommand's `run(argv, io)` with both streams collected, so a tool answers
 * with exactly what the typed subcommand would print (one code path, not a second copy).
 */
export async function captureCli(run: (argv: string[], io: Io) => Promise<number>, argv: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await run(argv, { stdout, stderr });
  return { code, stdout: stdout.bytes(), stderr: stderr.text() };
}
