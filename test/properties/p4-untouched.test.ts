/**
 * P4 Untouched (issue 10): structured data (JSON, NDJSON, YAML, CSV, TSV) and binary come back
 * byte for byte through every door, secrets inside them included. Text with bytes that are not
 * UTF-8 is text: each line that is not goes out whole as it came, the rest is distilled and
 * nothing is lost (P1). The corpus half: corpus.test.ts.
 */
import t from 'tap';
import fc from 'fast-check';
import { closeStores, freshReader, hookBash, hookText, HOLD_SHORT, pipeBuffered, pipeStream, execInProcess, retrieverFor, CROSSING_PAUSE_S, propHome } from '../helpers/doors.js';
import { checkIdentical, checkNothingLost, checkUndecodableKept } from '../helpers/markers.js';
import type { Structured } from '../helpers/generators.js';
import { holds, runs } from '../helpers/property.js';
import { buildStructured, chunked, command, cuts, execCommand, structured } from '../helpers/generators.js';

t.teardown(closeStores);
const home = propHome();
const retrieve = retrieverFor(home);

/** Structured and binary: byte for byte. Undecodable text: its lines as they came, nothing lost. */
const untouched = (s: Structured, input: Buffer, output: Buffer): string | null =>
  s.k === 'invalid-utf8' ? checkUndecodableKept(input, output) ?? checkNothingLost(input, output, retrieve) : checkIdentical(input, output);

t.test('P4 pipe', async (t) => {
  await holds(t, 'P4 (pipe)', fc.record({ s: structured, command }), async ({ s, command }) => {
    const input = buildStructured(s);
    return untouched(s, input, await pipeBuffered(input, { command, home }));
  }, { numRuns: runs(80) });
});

t.test('P4 hook (text the host decoded: no invalid UTF-8)', async (t) => {
  const text = structured.filter((s) => s.k !== 'invalid-utf8');
  await holds(t, 'P4 (hook)', fc.record({ s: text, command }), async ({ s, command }) => {
    const input = Buffer.from(hookText(buildStructured(s)));
    const d = await hookBash(input.toString('utf8'), { command, home, reader: freshReader() });
    return d.replied ? `the hook replied to structured data: ${checkIdentical(d.input, d.replied) ?? 'with the same bytes'}` : null;
  }, { numRuns: runs(40) });
});

t.test('P4 pipe-stream (pauses past the hold window)', async (t) => {
  await holds(t, 'P4 (pipe-stream)', fc.record({ s: structured, command, cuts }), async ({ s, command, cuts }) => {
    const input = buildStructured(s);
    const chunks = chunked(input, cuts, CROSSING_PAUSE_S).map((c) => ({ bytes: c.bytes, pauseMs: c.pause * 1000 }));
    return untouched(s, input, await pipeStream(chunks, { command, home, env: HOLD_SHORT }));
  }, { numRuns: runs(10, 'slow'), timeLimitMs: 8_000 });
});

t.test('P4 exec (a real child, pauses past the hold window)', async (t) => {
  await holds(t, 'P4 (exec)', fc.record({ s: structured, command: execCommand, cuts, exitCode: fc.constantFrom(0, 1) }), async ({ s, command, cuts, exitCode }) => {
    const input = buildStructured(s);
    const r = await execInProcess({ command, chunks: chunked(input, cuts, CROSSING_PAUSE_S), exitCode }, { home, hold: HOLD_SHORT });
    return untouched(s, input, r.output);
  }, { numRuns: runs(8, 'slow'), timeLimitMs: 8_000 });
});
