/**
 * P5 Deterministic (issue 10): the same input and the same store state (a copy of the store's
 * files, after earlier deliveries to the same reader so the ledger has something to fold) give
 * the same bytes, through the hook, the buffered pipe, the pipe door and exec held to the end.
 */
import t from 'tap';
import fc from 'fast-check';
import { loadCorpus } from '../helpers/corpus.js';
import { closeStores, copyHome, execDir, execInProcess, hookBash, hookText, HOLD_NEVER, pipeBuffered, pipeStream, type Reader, propHome } from '../helpers/doors.js';
import { checkIdentical } from '../helpers/markers.js';
import { holds, runs, sweep, type SweepFailure } from '../helpers/property.js';
import { build, commandOf, EXEC_CASES, inputSpec, TEXT_CASES, type InputSpec } from '../helpers/generators.js';

t.teardown(closeStores);

interface Det { command: string; priors: InputSpec[]; main: InputSpec }
const det = (cases: string[]): fc.Arbitrary<Det> => fc.constantFrom(...cases).chain((own) => fc.record({
  command: fc.constant(commandOf(own)),
  priors: fc.array(inputSpec({ text: true, own }), { maxLength: 2 }),
  main: inputSpec({ text: true, own }),
}));

let n = 0;
/** A store where `reader` was already delivered `priors` (through the hook). */
async function state(reader: Reader, command: string, priors: Buffer[]): Promise<string> {
  const home = propHome();
  for (const p of priors) await hookBash(hookText(p), { command, home, reader });
  return home;
}
const readerAt = (cwd: string): Reader => ({ sessionId: `11111111-2222-4333-8444-${String(++n).padStart(12, '0')}`, cwd });

type Door = 'hook' | 'pipe' | 'pipe-stream' | 'exec';
async function deliver(door: Door, home: string, reader: Reader, command: string, input: Buffer): Promise<Buffer> {
  switch (door) {
    case 'hook': return (await hookBash(hookText(input), { command, home, reader })).output;
    case 'pipe': return pipeBuffered(input, { command, home, cwd: reader.cwd });
    case 'pipe-stream': return pipeStream([{ bytes: input, pauseMs: 0 }], { command, home, env: HOLD_NEVER, sessionId: reader.sessionId });
    case 'exec': return (await execInProcess({ command, chunks: [{ bytes: input, pause: 0 }], exitCode: 0 }, { home, hold: HOLD_NEVER, sessionId: reader.sessionId })).output;
  }
}

/** How many first runs folded lines as already shown (the ledger really took part). */
let ledgerFolds = 0;
async function twice(door: Door, command: string, priors: Buffer[], input: Buffer): Promise<string | null> {
  // The pipe and exec doors read the ledger's project scope from the process's cwd.
  const reader = readerAt(door === 'hook' ? `/home/dev/det-${n}` : door === 'exec' ? execDir() : process.cwd());
  const home = await state(reader, command, priors);
  const [a, b] = [copyHome(home), copyHome(home)];
  const x = await deliver(door, a, reader, command, input);
  const y = await deliver(door, b, reader, command, input);
  if (x.includes('lines already shown')) ledgerFolds++;
  const why = checkIdentical(x, y);
  return why && `two runs on copies of one store differ: ${why}`;
}

for (const door of ['hook', 'pipe', 'pipe-stream', 'exec'] as Door[]) {
  t.test(`P5 ${door}`, async (t) => {
    const slow = door === 'exec' || door === 'pipe-stream';
    await holds(t, `P5 (${door})`, det(door === 'exec' ? EXEC_CASES : TEXT_CASES), (d) => twice(door, d.command, d.priors.map(build), build(d.main)), {
      numRuns: runs(slow ? 4 : 15, slow ? 'slow' : 'cheap'), timeLimitMs: 10_000,
    });
  });
}

t.test('P5 hook on corpus cases, after the same reader saw two earlier cases', async (t) => {
  const cases = loadCorpus().filter((c) => c.kind !== 'binary');
  const failures: SweepFailure[] = [];
  const sample = cases.filter((_, i) => i % 12 === 0);
  const before = ledgerFolds;
  for (const [i, c] of sample.entries()) {
    const priors = [cases[(i * 7 + 3) % cases.length].output, c.output];
    const why = await twice('hook', c.cmd, priors, c.output);
    if (why) failures.push({ case: c.name, reason: why });
  }
  sweep(t, 'P5 deterministic (hook, corpus)', sample.length, failures);
  t.ok(ledgerFolds > before, `the ledger folded already-shown lines in ${ledgerFolds - before} of ${sample.length} runs`);
});
