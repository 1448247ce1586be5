/**
 * P8 Secrets stay masked (rule 10): on generated outputs that embed secrets of every shape
 * (test/helpers/secrets.ts, several seeds, a multi-line key block too) among noisy real lines,
 * through every door, the output holds no secret value whenever omni distils the run (exit 0 and
 * not passed through byte for byte: structured data, a reshaping tail, a read), and it is never
 * larger than the input whatever the exit.
 */
import t from 'tap';
import fc from 'fast-check';
import { closeStores } from '../helpers/doors.js';
import { checkNotLarger } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';
import { DOOR_RUNS, runDoor, samples, type DoorName } from '../helpers/property-doors.js';
import { blockOf, build, TEXT_CASES, type Block, type InputSpec } from '../helpers/generators.js';
import { pemBlock, secretShapes } from '../helpers/secrets.js';
import { distillBuffer } from '../../lib/pipeline/run.js';
import { describeRun } from '../../lib/pipeline/describe.js';

t.teardown(closeStores);

/** Secret lines (one block each) and the value each must not leak. */
const SECRET_LINES = new Map<string, string>();
for (const seed of [11, 12, 13]) {
  for (const s of secretShapes(seed)) SECRET_LINES.set(s.line, s.secret);
  const pem = pemBlock(seed);
  SECRET_LINES.set(pem.lines.join('\n'), pem.secret);
}
const secretBlock: fc.Arbitrary<Block> = fc.constantFrom(...SECRET_LINES.keys()).map((s) => ({ k: 'line' as const, s }));

/** Noisy text around one real case (no invalid UTF-8: that run would pass through by rule), and 1-4 secrets. */
const spec: fc.Arbitrary<InputSpec> = fc.option(fc.constantFrom(...TEXT_CASES), { freq: 4 }).chain((own) =>
  fc.record({
    blocks: fc.tuple(fc.array(blockOf(own, true), { minLength: 1, maxLength: 5 }), fc.array(secretBlock, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { minLength: 4, maxLength: 4 })).map(([noise, secrets, at]) => {
      const out = [...noise];
      secrets.forEach((b, i) => out.splice(at[i] % (out.length + 1), 0, b));
      return out;
    }),
    eol: fc.boolean(),
  }),
);

const PASS_REASONS = new Set(['json', 'ndjson', 'yaml', 'csv', 'tsv', 'binary', 'invalid-utf8', 'passthrough', 'error']);

const stats = { checked: 0, passedThrough: 0, failing: 0 };

for (const door of ['pipe', 'hook', 'pipe-stream', 'exec'] as DoorName[]) {
  t.test(`P8 secrets stay masked (${door})`, async (t) => {
    const [n, cost] = DOOR_RUNS[door];
    await holds(t, `P8 (${door})`, samples(door, { spec }), async (s) => {
      const r = await runDoor(door, s);
      const larger = checkNotLarger(r.input, r.output);
      if (larger) return larger;
      if (r.exitCode !== 0) { stats.failing++; return null; }
      // Whether the run passes through byte for byte by rule (structured, a reshaping tail, a
      // read): the pipeline's own verdict on the same bytes and command.
      const ref = await distillBuffer(describeRun({ door: 'pipe', command: s.command }), build(s.spec));
      if ((ref.verbatim && PASS_REASONS.has(ref.verbatim)) || ref.distiller === 'read') { stats.passedThrough++; return null; }
      stats.checked++;
      const out = r.output.toString('utf8');
      for (const b of s.spec.blocks) {
        const secret = b.k === 'line' ? SECRET_LINES.get(b.s) : undefined;
        if (secret && out.includes(secret)) return `the secret ${JSON.stringify(secret.slice(0, 24))}… of ${JSON.stringify(b.k === 'line' ? b.s.slice(0, 60) : '')} reached the output`;
      }
      return null;
    }, { numRuns: runs(n, cost), timeLimitMs: cost === 'slow' ? 8_000 : 10_000 });
  });
}

t.test('P8 checked enough distilled runs', async (t) => {
  t.comment(`${stats.checked} distilled runs checked, ${stats.passedThrough} passed through by rule, ${stats.failing} failing exits`);
  t.ok(stats.checked >= 60, `${stats.checked} runs were checked for secrets`);
});
