/**
 * The template fold (lib/distillers/engine.ts, the generic fold every 'run' distiller leaves its
 * other lines to): runs of lines that share one template, numbers and ids aside, keep their
 * first and last line and the middle becomes a marker that quotes one of them. On generated
 * output (runs of alike lines in many shapes, some of their lines saying a failure or a warning
 * in the same shape, words, blank lines) through the pipe door:
 *   - a fold never hides a line with a failure or warning word;
 *   - it never hides the run's last line: a marker is followed by a line of the run it folds;
 *   - the text its marker quotes is a real line of the lines it hides;
 *   - and nothing is lost (P1).
 */
import t from 'tap';
import fc from 'fast-check';
import { closeStores, pipeBuffered, propHome, retrieverFor } from '../helpers/doors.js';
import { checkNothingLost, markersIn, splitLines } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';

t.teardown(closeStores);
const home = propHome();
const retrieve = retrieverFor(home);

/** Shapes of alike lines: `#` a number, `%` a hex id; `~` where a word may go in a line that reports trouble. */
const SHAPES = [
  '==#==    by 0x%: build (tree.c:#) ~',
  '  built dist/part#.js (# B) ~',
  'ok # - four words in line # ~',
  '[#/#] Compiling crate_# v0.#.0 ~',
  'Downloading pkg-# #% ~',
  '2026-12-01 10:00:#,# INFO worker.jobs [#] job # done ~',
  '@mono/api:build:   wrote dist/mod#.js (# bytes) ~',
  '[gw#] [ #%] PASSED tests/test_g.py::test_g_# ~',
  '   # | sku-# | # | in stock ~',
  'executing % for step # ~',
];
/** Words a line of a run may carry that make it say a failure or a warning. */
const TROUBLE = ['failed', 'error', 'warning', 'deprecated', 'Killed', 'denied', 'FATAL', 'timed out'];

type Block =
  | { k: 'run'; shape: number; n: number; seeds: number[]; trouble: Array<[number, number]> }
  | { k: 'words'; s: string }
  | { k: 'blank' };

const word = fc.constantFrom('alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel');
const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('run' as const), shape: fc.nat(SHAPES.length - 1), n: fc.integer({ min: 1, max: 40 }), seeds: fc.array(fc.nat(99_999), { minLength: 4, maxLength: 4 }), trouble: fc.array(fc.tuple(fc.nat(39), fc.nat(TROUBLE.length - 1)), { maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => ({ k: 'words' as const, s: w.join(' ') })) },
  { weight: 1, arbitrary: fc.constant({ k: 'blank' as const }) },
);

function lineOf(shape: string, i: number, seeds: number[], trouble: string | null): string {
  let k = 0;
  const s = shape.replace(/[#%]/g, (c) => {
    const v = (seeds[k++ % seeds.length] + i * (k + 1) * 7919) % 100_000;
    return c === '#' ? String(v) : (0x1000000 + v * 2654435).toString(16).slice(-8);
  });
  return s.replace(' ~', trouble ? ` ${trouble}` : '');
}

function build(blocks: Block[]): Buffer {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.k === 'blank') out.push('');
    else if (b.k === 'words') out.push(b.s);
    else {
      const bad = new Map(b.trouble.map(([at, w]) => [at % b.n, TROUBLE[w]]));
      for (let i = 0; i < b.n; i++) out.push(lineOf(SHAPES[b.shape], i, b.seeds, bad.get(i) ?? null));
    }
  }
  return Buffer.from(out.join('\n') + '\n');
}

/** The test's own reading of a template: digits and hex ids masked. */
const shapeOf = (s: string) => s.replace(/0x[0-9a-f]+|\b[0-9a-f]{7,}\b|\d+/gi, '#');
const TROUBLE_RE = new RegExp(TROUBLE.join('|'));
const QUOTED = /^\d+ lines like "(.*)" folded$/;

function check(input: Buffer, output: Buffer): string | null {
  const lost = checkNothingLost(input, output, retrieve);
  if (lost) return lost;
  const outLines = splitLines(output).map((l) => l.body.toString('utf8'));
  const inLines = splitLines(input).map((l) => l.body.toString('utf8'));
  for (const m of markersIn(output)) {
    const blob = retrieve(m.handle);
    if (!blob) return `marker ${m.text} retrieves nothing`;
    if (blob.equals(input)) continue; // the receipt for squeezed blank lines: it names the whole output
    const hidden = splitLines(blob).map((l) => l.body.toString('utf8'));
    const bad = hidden.find((h) => TROUBLE_RE.test(h));
    if (bad !== undefined) return `the fold ${m.text} hides a line that says trouble: ${JSON.stringify(bad)}`;
    const next = outLines[m.line + 1];
    if (next === undefined) return `the fold ${m.text} is the output's last line: the run's last line is hidden`;
    if (shapeOf(next) !== shapeOf(hidden[hidden.length - 1])) return `after the fold ${m.text} comes ${JSON.stringify(next)}, not the last line of its run (${JSON.stringify(hidden[hidden.length - 1])})`;
    if (!inLines.includes(next)) return `after the fold ${m.text} comes ${JSON.stringify(next)}, which is no input line`;
    const q = QUOTED.exec(m.note);
    if (q && !hidden.includes(q[1])) return `the fold ${m.text} quotes ${JSON.stringify(q[1])}, which is none of the ${hidden.length} lines it hides`;
  }
  return null;
}

// `tool`: a program on PATH no spec owns is generic's (one run by its path, `./tool`, is read by
// the spec its first lines name).
t.test('the template fold keeps trouble, the run\'s last line and quotes a real line (pipe door, generic)', async (t) => {
  await holds(t, 'template fold', fc.array(block, { minLength: 1, maxLength: 12 }), async (blocks) => {
    const input = build(blocks);
    return check(input, await pipeBuffered(input, { command: 'tool --run', home }));
  }, { numRuns: runs(150) });
});

t.test('the checker fails a fold that breaks the rule', async (t) => {
  // A run of 30 alike lines: the fold is real, and each way of breaking it is caught.
  const input = build([{ k: 'run', shape: 0, n: 30, seeds: [1, 2, 3, 4], trouble: [] }]);
  const output = await pipeBuffered(input, { command: 'tool --run', home });
  t.equal(check(input, output), null, 'the real fold holds');
  const lines = output.toString('utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('[omni:'));
  t.ok(at > 0, 'there is a fold');
  const noLast = [...lines.slice(0, at + 1), ''].join('\n');
  t.match(check(input, Buffer.from(noLast)) ?? '', /last line|lost|not give back/, 'a fold that ends the output');
  const quoted = lines.map((l, i) => (i === at ? l.replace(/lines like "[^"]*"/, 'lines like "invented line"') : l)).join('\n');
  t.ok(check(input, Buffer.from(quoted)), 'a quote of no hidden line');
});
