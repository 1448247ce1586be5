/**
 * Generated samples through each door, for the p*.test.ts properties: one shape (`Sample`) that
 * every door can take, and one runner per door that returns what went in and what came out.
 */
import fc from 'fast-check';
import { CROSSING_PAUSE_S, execInProcess, freshReader, HOLD_SHORT, hookBash, hookText, pipeBuffered, pipeStream, retrieverFor, propHome, scratch } from './doors.js';
import { build, chunked, command, commandOf, cuts, EXEC_CASES, execCommand, exitCode, inputSpec, TEXT_CASES, type InputSpec } from './generators.js';
import type { Retrieve } from './markers.js';

export interface Sample {
  spec: InputSpec;
  command: string;
  exitCode: number;
  /** Where a streaming door's producer pauses (past the hold window). */
  cuts: Array<{ at: number; pause: boolean }>;
}

/** `command`: the command line the sample stands for (the owner of its lines). */
export interface DoorRun { input: Buffer; output: Buffer; retrieve: Retrieve; exitCode: number; home: string; command: string }

export type DoorName = 'pipe' | 'pipe-stream' | 'exec' | 'hook';

/** Samples for a door: text only for the hook (a host hands it decoded text), replayable commands for exec. */
export function samples(door: DoorName, opts: { spec?: fc.Arbitrary<InputSpec> } = {}): fc.Arbitrary<Sample> {
  const text = door === 'hook';
  // Most samples grow around one real case and carry its command, so its distiller is routed.
  const own = fc.option(fc.constantFrom(...(door === 'exec' ? EXEC_CASES : TEXT_CASES)), { freq: 6 });
  return own.chain((c) => fc.record({
    spec: opts.spec ?? inputSpec({ text, own: c }),
    command: c ? fc.constant(commandOf(c)) : door === 'exec' ? execCommand : command,
    exitCode: door === 'hook' || door === 'pipe' ? fc.constant(0) : exitCode,
    cuts,
  }));
}

/** One store per door and test file: archives only add blobs, so runs do not change each other's output. */
const homes = new Map<DoorName, string>();
const homeOf = (d: DoorName) => { let h = homes.get(d); if (!h) { h = propHome(); homes.set(d, h); } return h; };
const resultsDir = scratch('omni-tool-results-');

/** Per door: runs made, and outputs that differ from their input (how much the property had to check). */
export const doorStats: Record<DoorName, { runs: number; changed: number }> = { pipe: { runs: 0, changed: 0 }, 'pipe-stream': { runs: 0, changed: 0 }, exec: { runs: 0, changed: 0 }, hook: { runs: 0, changed: 0 } };

/** `hold`: the streaming doors' hold window (default: short, so a pause crosses it). */
export async function runDoor(door: DoorName, s: Sample, opts: { hold?: Record<string, string>; sessionId?: string } = {}): Promise<DoorRun> {
  const r = { ...(await drive(door, s, opts)), command: s.command };
  doorStats[door].runs++;
  if (!r.output.equals(r.input)) doorStats[door].changed++;
  return r;
}

async function drive(door: DoorName, s: Sample, opts: { hold?: Record<string, string>; sessionId?: string }): Promise<Omit<DoorRun, 'command'>> {
  const hold = opts.hold ?? HOLD_SHORT;
  const home = homeOf(door);
  const retrieve = retrieverFor(home);
  const bytes = build(s.spec);
  switch (door) {
    case 'pipe':
      return { input: bytes, output: await pipeBuffered(bytes, { command: s.command, home }), retrieve, exitCode: 0, home };
    case 'pipe-stream': {
      const chunks = chunked(bytes, s.cuts, CROSSING_PAUSE_S).map((c) => ({ bytes: c.bytes, pauseMs: c.pause * 1000 }));
      return { input: bytes, output: await pipeStream(chunks, { command: s.command, home, env: hold, sessionId: opts.sessionId }), retrieve, exitCode: s.exitCode, home };
    }
    case 'exec': {
      const r = await execInProcess({ command: s.command, chunks: chunked(bytes, s.cuts, CROSSING_PAUSE_S), exitCode: s.exitCode }, { home, hold });
      if (r.exitCode !== s.exitCode) throw new Error(`exec returned ${r.exitCode}, the child exited ${s.exitCode}`);
      return { input: r.raw, output: r.output, retrieve, exitCode: r.exitCode, home };
    }
    case 'hook': {
      const d = await hookBash(hookText(bytes), { command: s.command, home, reader: freshReader(), persistedDir: resultsDir });
      return { input: d.input, output: d.output, retrieve, exitCode: 0, home };
    }
  }
}

/** Default runs per door: exec starts a child per run, pipe-stream waits out its pauses. */
export const DOOR_RUNS: Record<DoorName, [number, 'cheap' | 'slow']> = {
  pipe: [60, 'cheap'],
  hook: [40, 'cheap'],
  'pipe-stream': [10, 'slow'],
  exec: [8, 'slow'],
};
