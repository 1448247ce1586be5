/**
 * A rule goes through the same guards as a built-in distiller, on inputs nobody chose, through
 * every door (pipe, pipe-stream, exec, hook): a user rule that claims every corpus program and
 * hides everything (`.*` and other broad patterns) never removes a line classify calls a
 * failure (the failure vocabulary is mixed into every input: `Killed`, `Out of memory`,
 * `CONFLICT (…)`, `! [rejected]`, `ECONNREFUSED`, `Timed out`…), never adds a false marker,
 * loses nothing, grows nothing; and structured, binary and invalid UTF-8 input (two-column
 * CSV and YAML lists too) comes back byte for byte.
 */
import t from 'tap';
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import stripAnsi from 'strip-ansi';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeStores, CROSSING_PAUSE_S, execInProcess, freshReader, hookBash, hookText, HOLD_SHORT, pipeStream, propHome, retrieverFor, scratch } from '../helpers/doors.js';
import { samples, type DoorName, type Sample } from '../helpers/property-doors.js';
import { build, buildStructured, chunked, command, COMMANDS, cuts, execCommand, structured, type InputSpec } from '../helpers/generators.js';
import { checkFailuresKept, checkHandles, checkIdentical, checkNotLarger, checkNothingLost, checkUndecodableKept, type Retrieve } from '../helpers/markers.js';
import { holds, runs } from '../helpers/property.js';
import { FAILURE_VOCABULARY } from './vocabulary.js';
import { distillBuffer } from '../../lib/pipeline/run.js';
import { describeRun } from '../../lib/pipeline/describe.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { userRulesPath } from '../../lib/rules/load.js';
import { producerArgv, programOf } from '../../lib/distillers/shared.js';

t.teardown(closeStores);

/** Every program a corpus command runs (and the shells), so the rule claims whatever no answer owns. */
const PROGRAMS = [...new Set(['sh', 'bash', ...COMMANDS.map((c) => programOf(producerArgv(c))).filter(Boolean)])].sort();
/** Patterns that match every line, or nearly: the worst a trusted rule can say. */
const BROAD = [['.*'], ['^$|.'], ['[\\s\\S]*'], ['\\S', '^$'], ['^.{0,16}'], ['^[^\\n]*$', '.']];

let written = 0;
/** The user's rules file in `home`: one rule, `hide` the given patterns, for every program. Replaced whole (a new inode), so the cache rereads it. */
function writeRule(home: string, hide: string[], program: string[] = PROGRAMS): void {
  const f = userRulesPath(home);
  const tmp = `${f}.${++written}.tmp`;
  writeFileSync(tmp, JSON.stringify({ rules: [{ name: 'hide-all', match: { program }, hide }] }));
  renameSync(tmp, f);
}

const homes = new Map<DoorName, string>();
const homeOf = (d: DoorName) => { let h = homes.get(d); if (!h) { h = propHome(); homes.set(d, h); } return h; };
const owned = { pipe: 0, runs: 0 };

/** The bytes through one door, with the rule in that door's home. */
async function through(door: DoorName, bytes: Buffer, s: { command: string; exitCode: number; cuts: Sample['cuts'] }): Promise<{ input: Buffer; output: Buffer; retrieve: Retrieve }> {
  const home = homeOf(door);
  const retrieve = retrieverFor(home);
  switch (door) {
    case 'pipe': {
      const store = new LazyStore(home);
      try {
        const r = await distillBuffer(describeRun({ door: 'pipe', command: s.command, cwd: home, rules: { home } }), bytes, { archive: store.archive() });
        owned.runs++;
        if (r.distiller === 'rule:user:hide-all') owned.pipe++;
        return { input: bytes, output: r.output, retrieve };
      } finally {
        store.close();
      }
    }
    case 'pipe-stream': {
      const chunks = chunked(bytes, s.cuts, CROSSING_PAUSE_S).map((c) => ({ bytes: c.bytes, pauseMs: c.pause * 1000 }));
      return { input: bytes, output: await pipeStream(chunks, { command: s.command, home, env: HOLD_SHORT }), retrieve };
    }
    case 'exec': {
      const r = await execInProcess({ command: s.command, chunks: chunked(bytes, s.cuts, CROSSING_PAUSE_S), exitCode: s.exitCode }, { home, hold: HOLD_SHORT });
      return { input: r.raw, output: r.output, retrieve };
    }
    case 'hook': {
      const d = await hookBash(hookText(bytes), { command: s.command, home, reader: freshReader(), persistedDir: scratch('omni-rules-results-') });
      return { input: d.input, output: d.output, retrieve };
    }
  }
}

/** A door's sample with lines of the failure vocabulary put between its blocks. */
const withVocabulary = (door: DoorName) =>
  fc.record({
    s: samples(door),
    at: fc.array(fc.record({ pos: fc.nat(), line: fc.constantFrom(...FAILURE_VOCABULARY) }), { minLength: 1, maxLength: 4 }),
    hide: fc.constantFrom(...BROAD),
  }).map(({ s, at, hide }) => {
    const blocks = [...s.spec.blocks];
    for (const { pos, line } of at) blocks.splice(pos % (blocks.length + 1), 0, { k: 'failure', s: line });
    const spec: InputSpec = { blocks, eol: s.spec.eol };
    return { ...s, spec, hide, vocabulary: at.map((a) => a.line) };
  });

/**
 * Each inserted line of the failure vocabulary is a whole line of the output. Checked apart
 * from classify (which checkFailuresKept asks), so the property holds the rule to the
 * vocabulary even where classify would not call a line a failure.
 */
function vocabularyKept(output: Buffer, lines: string[]): string | null {
  const shown = new Set(stripAnsi(output.toString('utf8')).split(/\r?\n/));
  const missing = lines.find((l) => !shown.has(l));
  return missing === undefined ? null : `the failure line ${JSON.stringify(missing)} is not a line of the output`;
}

const DOORS: Array<[DoorName, number, number]> = [
  // door, generated text inputs, structured inputs
  ['pipe', runs(50), runs(60)],
  ['hook', runs(30), runs(30)],
  ['pipe-stream', runs(8, 'slow'), runs(6, 'slow')],
  ['exec', runs(6, 'slow'), runs(5, 'slow')],
];

for (const [door, nText] of DOORS) {
  t.test(`${door}: a hide-everything rule keeps every failure line, loses nothing, grows nothing`, async (t) => {
    await holds(t, `rules keep failures (${door})`, withVocabulary(door), async (s) => {
      writeRule(homeOf(door), s.hide);
      const r = await through(door, build(s.spec), s);
      return vocabularyKept(r.output, s.vocabulary) ?? checkFailuresKept(r.input, r.output, r.retrieve, s.command) ?? checkNothingLost(r.input, r.output, r.retrieve) ?? checkNotLarger(r.input, r.output) ?? checkHandles(r.output, r.retrieve);
    }, { numRuns: nText, timeLimitMs: door === 'pipe' || door === 'hook' ? 10_000 : 8_000 });
  });
}

t.test('the rule owned most pipe runs (the property tested the rule, not the built-ins)', async (t) => {
  t.ok(owned.pipe >= owned.runs * 0.3, `the rule owned ${owned.pipe} of ${owned.runs} pipe runs`);
});

// Structured output the guard must pass through even when it is small: two-column CSV and TSV,
// YAML lists and nested keys, with the generator P4 uses for the rest.
// Long enough that hiding them would pay for a marker and clear the gate: the guard, not the
// fold's arithmetic, must be what leaves them alone.
const cell = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._\/-]{3,23}$/);
type Small = { k: 'csv2' | 'tsv2'; rows: Array<[string, string]>; crlf: boolean } | { k: 'yaml-list'; items: string[]; under: string | null } | { k: 'yaml-nested'; keys: Array<[string, string]> };
const small: fc.Arbitrary<Small> = fc.oneof(
  fc.record({ k: fc.constantFrom('csv2' as const, 'tsv2' as const), rows: fc.array(fc.tuple(cell, cell), { minLength: 12, maxLength: 60 }), crlf: fc.boolean() }),
  fc.record({ k: fc.constant('yaml-list' as const), items: fc.array(cell, { minLength: 12, maxLength: 60 }), under: fc.option(fc.stringMatching(/^[a-z][a-z_]{0,10}$/)) }),
  fc.record({ k: fc.constant('yaml-nested' as const), keys: fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z_]{0,10}$/), cell.map((c) => c.replace(/[:#]/g, '') || 'x')), { minLength: 12, maxLength: 40 }) }),
);
function buildSmall(s: Small): Buffer {
  switch (s.k) {
    case 'csv2':
    case 'tsv2': {
      const sep = s.k === 'csv2' ? ',' : '\t';
      const eol = s.crlf ? '\r\n' : '\n';
      return Buffer.from(s.rows.map(([a, b]) => `${a.trim() || 'a'}${sep}${b.trim() || 'b'}`).join(eol) + eol);
    }
    case 'yaml-list': return Buffer.from((s.under ? `${s.under}:\n` : '') + s.items.map((i) => `${s.under ? '  ' : ''}- ${i}`).join('\n') + '\n');
    case 'yaml-nested': return Buffer.from(s.keys.map(([k, v], i) => (i % 3 === 0 ? `${k}:` : `  ${k}: ${v}`)).join('\n') + '\n');
  }
}

for (const [door, , nStructured] of DOORS) {
  t.test(`${door}: structured and binary output is never touched by the rule, nor a line that is not UTF-8`, async (t) => {
    const input = door === 'hook' ? fc.oneof(structured.filter((s) => s.k !== 'invalid-utf8').map(buildStructured), small.map(buildSmall)) : fc.oneof(structured.map(buildStructured), small.map(buildSmall));
    const arb = fc.record({ bytes: input, command: door === 'exec' ? execCommand : command, cuts, hide: fc.constantFrom(...BROAD) });
    await holds(t, `rules leave structured output alone (${door})`, arb, async (s) => {
      writeRule(homeOf(door), s.hide);
      const bytes = door === 'hook' ? Buffer.from(hookText(s.bytes)) : s.bytes;
      const r = await through(door, bytes, { command: s.command, exitCode: 0, cuts: s.cuts });
      // Text with bytes that are not UTF-8 is text: the rule may hide its other lines, never those.
      return isUtf8(r.input) ? checkIdentical(r.input, r.output) : checkUndecodableKept(r.input, r.output);
    }, { numRuns: nStructured, timeLimitMs: 8_000 });
  });
}

t.test('the small structured shapes reached the rule on main: they are the ones the guard now passes', async (t) => {
  const home = propHome();
  writeRule(home, ['.*'], ['foo']);
  const store = new LazyStore(home);
  t.teardown(() => store.close());
  const csv = buildSmall({ k: 'csv2', rows: Array.from({ length: 30 }, (_, i): [string, string] => [`package-name-${i}`, `1.${i}.0`]), crlf: false });
  const list = buildSmall({ k: 'yaml-list', items: Array.from({ length: 30 }, (_, i) => `item number ${i} of the list`), under: null });
  for (const [name, bytes] of [['two-column CSV', csv], ['a YAML list', list]] as const) {
    const r = await distillBuffer(describeRun({ door: 'pipe', command: 'foo --list', cwd: home, rules: { home } }), bytes, { archive: store.archive() });
    t.equal(r.output.toString(), bytes.toString(), `${name}: byte for byte`);
    t.equal(r.distiller, 'rule:user:hide-all', `${name}: the rule owns the command`);
    t.ok(r.verbatim === 'csv' || r.verbatim === 'yaml', `${name}: the guard passed it through (${r.verbatim})`);
  }
});
