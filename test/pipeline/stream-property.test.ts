import t from 'tap';
import fc from 'fast-check';
import { createPipeline } from '../../lib/pipeline/create.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { getBlob } from '../../lib/store/archive.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { tempHome } from '../helpers/omni.js';
import { maskedOnly } from '../helpers/markers.js';

/**
 * P2 (never larger) and the receipt rule, on generated streams, in both render paths:
 * held to the end, and streaming from the first batch (holdBytes 1: no timers, so a failing
 * case shrinks and replays exactly). Secret values masked in place owe no receipt, and a run
 * that exits 0 never delivers one.
 */
const RUNS = Number(process.env.OMNI_PROPERTY_RUNS) || 40;

const line = fc.oneof(
  fc.constantFrom('compiling module alpha', 'Error: it broke', 'warning: deprecated call', 'ok 3 - passes', 'done'),
  fc.nat(99).map((n) => `Downloading package-${n % 7} ${n}%`),
  fc.nat(50).map((n) => `\x1b[3${n % 8}mcoloured ${n}\x1b[0m`),
  fc.nat(40).map((n) => `\r[${'#'.repeat(n % 20)}] ${n}%\r[done] 100%`),
  fc.nat(9).map((n) => `API_KEY=sk-${'a'.repeat(20 + n)}`),
  fc.constant(''),
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[\n\r\0]/g, ' ')),
);
const stream = fc.record({
  lines: fc.array(fc.tuple(line, fc.nat(30)), { maxLength: 60 }),
  crlf: fc.boolean(),
  exit: fc.constantFrom(0, 0, 1, 2),
  chunk: fc.integer({ min: 1, max: 4096 }),
  streaming: fc.boolean(),
});

t.test('no output is larger than its input; no marker means the raw bytes; changes in place have a receipt', async (t) => {
  const home = tempHome();
  const store = new LazyStore(home);
  await fc.assert(
    fc.asyncProperty(stream, async ({ lines, crlf, exit, chunk, streaming }) => {
      const eol = crlf ? '\r\n' : '\n';
      const input = Buffer.from(lines.map(([l, n]) => (l.startsWith('Downloading') ? `${l}${eol}`.repeat(1 + n) : l + eol)).join(''));
      const p = createPipeline(describeRun({ door: 'exec', hold: { ms: Infinity, bytes: streaming ? 1 : undefined } }), { archive: store.archive() });
      const out: Buffer[] = [];
      const done = new Promise<void>((resolve) => { p.on('data', (b: Buffer) => out.push(b)); p.on('end', () => resolve()); });
      for (let i = 0; i < input.length; i += chunk) p.write(input.subarray(i, i + chunk));
      p.end({ exitCode: exit });
      await done;
      const output = Buffer.concat(out);
      if (output.length > input.length) throw new Error(`larger: ${output.length} > ${input.length}`);
      const text = output.toString('utf8');
      const handles = text.split('\n').map((l) => MARKER_RE.exec(l.replace(/\r$/, ''))?.[2]).filter((h): h is string => !!h);
      if (!handles.length && !output.equals(input) && !maskedOnly(input, output)) throw new Error('changed with no marker');
      if (exit === 0 && !p.report.passthrough && /sk-a{20}/.test(text)) throw new Error('a secret value went out');
      // Expand every fold marker in place; a marker naming the whole input is the receipt.
      let receipt = false;
      const expanded = text.split(/(?<=\n)/).map((l) => {
        const h = MARKER_RE.exec(l.replace(/\r?\n$/, ''))?.[2];
        if (!h) return Buffer.from(l);
        const blob = getBlob(store.get()!, h);
        if (!blob) throw new Error(`handle ${h} does not retrieve`);
        if (blob.equals(input)) { receipt = true; return Buffer.alloc(0); }
        return blob;
      });
      const back = Buffer.concat(expanded);
      if (!receipt && !back.equals(input) && !maskedOnly(input, back)) throw new Error('changed in place with no receipt naming the raw input');
    }),
    { numRuns: RUNS, seed: 20261201 },
  );
  store.close();
  t.pass(`${RUNS} generated streams`);
});
