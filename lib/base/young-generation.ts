/**
 * A bound on V8's young generation for a process that streams.
 *
 * V8 doubles a semi-space (1, 2, 4, 8, 16 MiB) each time the bytes surviving its scavenges add
 * up to its size, so a process that allocates fast for long, as `omni pipe` does over a large
 * log, always ends with two 16 MiB semi-spaces, both resident: 32 MiB of its peak RSS, whatever
 * it keeps live (a stream's live data is a few MiB). At 8 MiB a semi-space scavenges twice as
 * often for about the same CPU on that stream (at 4 MiB the CPU grows by a quarter). The maximum
 * is a start-up flag (`--max-semi-space-size` set at run time changes nothing), but the growth
 * factor is read at every growth: set to 1 once the semi-spaces have reached the bound, it keeps
 * them there. The flag at start-up did worse: with its maximum at 8 MiB, some runs promoted
 * nearly every byte they allocated to the old generation (peak RSS 113-153 MiB, measured).
 *
 * The setting is the process's: only a door whose process is the run calls this (through
 * ./v8-flag.ts, which keeps the code cache good for the next process).
 */
import { lazyRequire } from './lazy-require.js';
import { setV8Flag } from './v8-flag.js';

/** The largest semi-space a streaming door lets V8 grow to. */
export const STREAM_SEMI_SPACE_BYTES = 8 << 20;

const v8 = lazyRequire<typeof import('node:v8')>('node:v8');

let held = false;

/**
 * Stops the young generation growing once its semi-spaces have reached `semiBytes` each; cheap
 * to call often (a heap-space read until then, nothing after). True once held.
 */
export function holdYoungGeneration(semiBytes: number = STREAM_SEMI_SPACE_BYTES): boolean {
  if (held) return true;
  try {
    const spaces = v8().getHeapSpaceStatistics();
    const young = spaces.find((s) => s.space_name === 'new_space');
    // `space_size` counts both semi-spaces.
    if (!young || young.space_size < 2 * semiBytes) return false;
    setV8Flag('--semi-space-growth-factor=1');
  } catch {
    /* a runtime without these: the young generation grows as V8 decides */
  }
  return (held = true);
}
