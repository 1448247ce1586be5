/**
 * The stream classes every pipeline stage is built from.
 *
 * A run that streams (exec, pipe: bytes arrive over time, output must flow under backpressure)
 * uses node:stream. A buffered run (`distillBuffer`, behind every hook: the whole payload is
 * written at once and the result read at the end) needs none of that, and node:stream costs a
 * hook process more than its distillation: loading it and compiling the functions a run calls
 * (~13M instructions), then a nextTick, a buffer and a state machine per batch per stage, ~25M
 * instructions of a ~205M hook call in all (callgrind, main thread, 20 KB payload). So stages
 * built inside `buffered()` are `SyncStream`s: each stage does its work inside `write` and
 * `end`, the same transform and flush functions, in the same order, with every chunk handed
 * on before `push` returns. node:stream is loaded only when a streaming run first needs it.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Duplex, DuplexOptions, Transform, TransformOptions } from 'node:stream';

let nodeStream: typeof import('node:stream') | undefined;
function streams(): typeof import('node:stream') {
  if (!nodeStream) {
    // A runtime require: the bundle does not evaluate node:stream until a streaming run asks.
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    nodeStream = req('node:stream') as typeof import('node:stream');
  }
  return nodeStream;
}

/** Set while a buffered run builds its stages. */
let building = false;

type Done = (err?: Error | null, data?: unknown) => void;
/** What a stage's options may hold: a Transform's or a Duplex's functions. */
interface Options {
  transform?: unknown;
  flush?: unknown;
  write?: unknown;
  final?: unknown;
}

/**
 * A Transform (or Duplex) that works synchronously: `write` runs `transform` (or `write`) at
 * once, each pushed chunk reaches the 'data' listeners before `push` returns, `end` runs
 * `flush` (or `final`) and then emits 'end'; a failure is `destroy(err)`, which emits 'error'.
 * Only what the pipeline uses: no buffering and no backpressure (`write` always returns true,
 * so 'drain' never comes), `pause` and `resume` do nothing.
 */
class SyncStream extends EventEmitter {
  writableEnded = false;
  destroyed = false;
  private ended = false;

  constructor(private readonly o: Options) {
    super();
  }

  push(chunk: unknown): boolean {
    if (chunk === null) {
      this.finish();
      return false;
    }
    if (!this.destroyed) this.emit('data', chunk);
    return true;
  }

  write(chunk: unknown, enc?: BufferEncoding | Done, cb?: Done): boolean {
    const done = typeof enc === 'function' ? enc : cb;
    if (this.destroyed || this.writableEnded) return false;
    const fn = (this.o.transform ?? this.o.write) as (this: unknown, chunk: unknown, enc: BufferEncoding, cb: Done) => void;
    try {
      fn.call(this, chunk, 'buffer' as BufferEncoding, (err, data) => {
        if (err) this.destroy(err);
        else if (data !== undefined && data !== null) this.push(data);
        done?.(err);
      });
    } catch (err) {
      // A stage that throws fails like one that reports its error: the pipeline fails open.
      this.destroy(err as Error);
    }
    return true;
  }

  end(): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    try {
      if (this.o.final) {
        // A Duplex: its own `final` decides when its readable side ends (push(null)).
        (this.o.final as (this: unknown, cb: Done) => void).call(this, (err) => { if (err) this.destroy(err); });
        return this;
      }
      const flushed: Done = (err, data) => {
        if (err) return void this.destroy(err);
        if (data !== undefined && data !== null) this.push(data);
        this.finish();
      };
      if (this.o.flush) (this.o.flush as (this: unknown, cb: Done) => void).call(this, flushed);
      else flushed();
    } catch (err) {
      this.destroy(err as Error);
    }
    return this;
  }

  pipe<T extends { write(chunk: unknown): unknown; end(): unknown }>(dest: T, opts?: { end?: boolean }): T {
    this.on('data', (chunk) => dest.write(chunk));
    if (opts?.end !== false) this.once('end', () => dest.end());
    return dest;
  }

  destroy(err?: Error | null): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (err) this.emit('error', err);
    this.emit('close');
    return this;
  }

  pause(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  private finish(): void {
    if (this.ended || this.destroyed) return;
    this.ended = true;
    this.emit('end');
  }
}

/** A Transform stage: synchronous when built inside `buffered()`, node:stream's otherwise. */
export function transform(opts: TransformOptions): Transform {
  return building ? (new SyncStream(opts) as unknown as Transform) : new (streams().Transform)(opts);
}

/** A Duplex, on the same terms as `transform`. */
export function duplex(opts: DuplexOptions): Duplex {
  return building ? (new SyncStream(opts) as unknown as Duplex) : new (streams().Duplex)(opts);
}

/** True while a buffered run builds its stages: a stage made now is synchronous and runs on no event loop turn. */
export function buildingBuffered(): boolean {
  return building;
}

/** Builds stages (a whole pipeline) for a buffered run: every stream made inside is synchronous. */
export function buffered<T>(build: () => T): T {
  const was = building;
  building = true;
  try {
    return build();
  } finally {
    building = was;
  }
}

/**
 * For a stage that builds another later (the sniffing distill stage picks its distiller at the
 * first batch): builds it the way this stage was built.
 */
export function sameKind(): <T>(build: () => T) => T {
  const sync = building;
  return (build) => {
    const was = building;
    building = sync;
    try {
      return build();
    } finally {
      building = was;
    }
  };
}
