/**
 * Inputs nobody chose (issue 10): fast-check arbitraries over plain, printable specs (so a
 * shrunk counterexample reads as what it is), and `build(spec)` that turns a spec into bytes.
 *
 * Blocks mix real corpus lines and slices, repeated runs, `\r` redraws, ANSI colour, CRLF,
 * invalid UTF-8 and NUL, very long lines, secrets and failure lines; inputs may be empty; the
 * command comes from the corpus cmd.txt set, so distillers are routed.
 */
import fc from 'fast-check';
import { loadCorpus, type CorpusCase } from './corpus.js';
import { programsOf } from './doors.js';

const corpus: CorpusCase[] = loadCorpus();
const textCases = corpus.filter((c) => c.kind !== 'binary' && c.kind !== 'structured' && isUtf8(c.output) && c.output.length > 0);

function isUtf8(b: Buffer): boolean {
  try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; }
}

/** Real lines: every distinct line of every text case (without terminators). */
export const CORPUS_LINES: string[] = [...new Set(textCases.flatMap((c) => c.output.toString('utf8').split('\n').map((l) => l.replace(/\r$/, ''))))].filter((l) => l.length < 2000);
/** Real lines that state failures, so failing inputs have something to keep. */
export const FAILURE_SAMPLES = CORPUS_LINES.filter((l) => /\b(error|Error|FAIL|failed|panicked|Traceback)\b/.test(l)).slice(0, 400);
/** Every corpus command (routing), and those the exec replay can stand in for. */
export const COMMANDS: string[] = [...new Set(corpus.map((c) => c.cmd).filter(Boolean))].sort();
export const EXEC_COMMANDS: string[] = COMMANDS.filter((c) => programsOf(c) !== null);

export type Block =
  | { k: 'case'; c: string }
  | { k: 'slice'; c: string; from: number; n: number }
  | { k: 'line'; s: string }
  | { k: 'repeat'; s: string; n: number }
  | { k: 'numbered'; s: string; n: number }
  | { k: 'redraw'; frames: string[] }
  | { k: 'colour'; s: string; code: number }
  | { k: 'crlf'; lines: string[] }
  | { k: 'bytes'; hex: string }
  | { k: 'long'; unit: string; n: number }
  | { k: 'secret'; s: string }
  | { k: 'failure'; s: string }
  | { k: 'blank'; n: number };

export interface InputSpec {
  blocks: Block[];
  /** The input ends with a newline. */
  eol: boolean;
}

const caseNames = textCases.map((c) => c.name);
const byName = new Map(textCases.map((c) => [c.name, c]));
const caseLines = new Map<string, string[]>();
function linesOf(name: string): string[] {
  let l = caseLines.get(name);
  if (!l) { l = byName.get(name)!.output.toString('utf8').split('\n'); caseLines.set(name, l); }
  return l;
}

const realLine = fc.constantFrom(...CORPUS_LINES);
const SECRETS = [
  'export DATABASE_PASSWORD=hunter2hunter2',
  'API_KEY=sk-proj-abcdefghijklmnopqrstuvwx',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig',
  'x-api-key: 8d7f6e5d4c3b2a1908f7e6d5',
  'PGPASSWORD=s3cr3t-pg-pass psql -h db',
  'GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'postgres://app:hunter2@db:5432/shop',
];

export const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('slice' as const), c: fc.constantFrom(...caseNames), from: fc.nat(400), n: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('line' as const), s: realLine }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('repeat' as const), s: realLine, n: fc.integer({ min: 2, max: 80 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('numbered' as const), s: realLine, n: fc.integer({ min: 2, max: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('redraw' as const), frames: fc.array(fc.oneof(realLine, fc.integer({ min: 0, max: 100 }).map((p) => `${String(p).padStart(3)}% [${'#'.repeat(p >> 3).padEnd(13)}]`)), { minLength: 2, maxLength: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('colour' as const), s: realLine, code: fc.constantFrom(1, 2, 31, 32, 33, 36, 90) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('crlf' as const), lines: fc.array(realLine, { minLength: 1, maxLength: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('bytes' as const), hex: fc.constantFrom('ff', 'c328', '80', 'e282', '00', 'fe00ff', 'eda080') }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('long' as const), unit: fc.constantFrom('x', 'abc ', 'é', '0123456789', '█'), n: fc.integer({ min: 1000, max: 120_000 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('secret' as const), s: fc.constantFrom(...SECRETS) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('failure' as const), s: fc.constantFrom(...FAILURE_SAMPLES) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('blank' as const), n: fc.integer({ min: 1, max: 5 }) }) },
);

/** Blocks around one real case: all of it, slices of it, mixed with everything else. */
export function blockOf(own: string | null, text: boolean): fc.Arbitrary<Block> {
  const any = text ? block.filter((b) => b.k !== 'bytes') : block;
  if (!own) return any;
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<Block>({ k: 'case', c: own }) },
    { weight: 4, arbitrary: fc.record({ k: fc.constant('slice' as const), c: fc.constant(own), from: fc.nat(80), n: fc.integer({ min: 1, max: 200 }) }) },
    { weight: 5, arbitrary: any },
  );
}

export const inputSpec = (opts: { text?: boolean; maxBlocks?: number; own?: string | null } = {}): fc.Arbitrary<InputSpec> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant<InputSpec>({ blocks: [], eol: false }) },
    { weight: 12, arbitrary: fc.record({ blocks: fc.array(blockOf(opts.own ?? null, !!opts.text), { minLength: 1, maxLength: opts.maxBlocks ?? 6 }), eol: fc.boolean() }) },
  );

function blockBytes(b: Block): Buffer {
  switch (b.k) {
    case 'case': return Buffer.from(linesOf(b.c).join('\n').replace(/\n$/, ''));
    case 'slice': {
      const l = linesOf(b.c);
      const from = Math.min(b.from, Math.max(0, l.length - 1));
      return Buffer.from(l.slice(from, from + b.n).join('\n'));
    }
    case 'line': return Buffer.from(b.s);
    case 'repeat': return Buffer.from(Array(b.n).fill(b.s).join('\n'));
    case 'numbered': return Buffer.from(Array.from({ length: b.n }, (_, i) => `${b.s} ${i + 1}`).join('\n'));
    case 'redraw': return Buffer.from(b.frames.join('\r'));
    case 'colour': return Buffer.from(`\x1b[${b.code}m${b.s}\x1b[0m`);
    case 'crlf': return Buffer.from(b.lines.join('\r\n') + '\r');
    case 'bytes': return Buffer.concat([Buffer.from('data '), Buffer.from(b.hex, 'hex'), Buffer.from(' end')]);
    case 'long': return Buffer.from(b.unit.repeat(Math.ceil(b.n / b.unit.length)));
    case 'secret': return Buffer.from(b.s);
    case 'failure': return Buffer.from(b.s);
    case 'blank': return Buffer.from('\n'.repeat(b.n - 1));
  }
}

/** The bytes a spec stands for: blocks joined by newlines. */
export function build(spec: InputSpec): Buffer {
  if (!spec.blocks.length) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  spec.blocks.forEach((b, i) => {
    if (i) parts.push(Buffer.from('\n'));
    parts.push(blockBytes(b));
  });
  if (spec.eol) parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
}

export const exitCode = fc.constantFrom(0, 0, 0, 1, 2, 101);
export const command = fc.constantFrom(...COMMANDS);
export const execCommand = fc.constantFrom(...EXEC_COMMANDS);
/** Text cases whose command the exec replay can stand in for. */
export const TEXT_CASES = caseNames;
export const EXEC_CASES = caseNames.filter((n) => programsOf(byName.get(n)!.cmd) !== null);
export const commandOf = (name: string): string => byName.get(name)!.cmd;

/** Where an exec replay pauses: chunk boundaries at line ends (a fraction of the input each), pause or not. */
export const cuts = fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), pause: fc.boolean() }), { maxLength: 3 });

/** Split bytes into chunks at the line ends nearest the given fractions; a chunk after a `pause` cut waits `pauseS` seconds. */
export function chunked(bytes: Buffer, cs: Array<{ at: number; pause: boolean }>, pauseS: number): Array<{ bytes: Buffer; pause: number }> {
  const points = new Map<number, boolean>();
  for (const c of [...cs].sort((a, b) => a.at - b.at)) {
    const nl = bytes.indexOf(10, Math.floor(c.at * bytes.length));
    const p = nl < 0 ? bytes.length : nl + 1;
    if (p > 0 && p < bytes.length && !points.has(p)) points.set(p, c.pause);
  }
  const out: Array<{ bytes: Buffer; pause: number }> = [];
  let prev = 0;
  let wait = 0;
  for (const [p, pause] of points) {
    out.push({ bytes: bytes.subarray(prev, p), pause: wait });
    prev = p;
    wait = pause ? pauseS : 0;
  }
  out.push({ bytes: bytes.subarray(prev), pause: wait });
  return out;
}

/** A shown-in-the-report form of an input: its first bytes, JSON-escaped. */
export function preview(b: Buffer, n = 600): string {
  return JSON.stringify(b.subarray(0, n).toString('utf8')) + (b.length > n ? ` … (${b.length} B)` : ` (${b.length} B)`);
}

// ---------------------------------------------------------------------------------------------
// Structured, binary and invalid UTF-8 inputs (P4): they must come back byte for byte.

const cell = fc.stringMatching(/^[A-Za-z0-9 ._:@\/-]{0,14}$/);
const secretField = fc.constantFrom({}, { password: 'hunter2hunter2' }, { api_key: 'sk-proj-abcdefghijklmnopqrstuvwx' }, { token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' });

export type Structured =
  | { k: 'json'; value: unknown; indent: number; secret: object }
  | { k: 'ndjson'; rows: Array<Record<string, unknown>> }
  | { k: 'csv' | 'tsv'; header: string[]; rows: string[][]; crlf: boolean }
  | { k: 'yaml'; keys: Array<[string, string]>; doc: boolean }
  | { k: 'binary'; hex: string }
  | { k: 'invalid-utf8'; text: string; at: number; bad: string };

const row = (n: number) => fc.array(cell.map((c) => c.replace(/[,\t"]/g, '')), { minLength: n, maxLength: n });

export const structured: fc.Arbitrary<Structured> = fc.oneof(
  fc.record({ k: fc.constant('json' as const), value: fc.oneof(fc.array(fc.jsonValue(), { minLength: 1 }), fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue(), { minKeys: 1 })), indent: fc.constantFrom(0, 2, 4), secret: secretField }),
  fc.record({ k: fc.constant('ndjson' as const), rows: fc.array(fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.integer(), cell, fc.boolean()), { minKeys: 1, maxKeys: 5 }), { minLength: 2, maxLength: 60 }) }),
  fc.integer({ min: 3, max: 8 }).chain((n) => fc.record({ k: fc.constantFrom('csv' as const, 'tsv' as const), header: row(n).map((h) => h.map((x, i) => `col${i}${x.replace(/\s/g, '')}`)), rows: fc.array(row(n), { minLength: 3, maxLength: 80 }), crlf: fc.boolean() })),
  fc.record({ k: fc.constant('yaml' as const), keys: fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z_]{0,10}$/), cell.map((c) => c.replace(/[:#]/g, ''))), { minLength: 3, maxLength: 40 }), doc: fc.boolean() }),
  fc.record({ k: fc.constant('binary' as const), hex: fc.uint8Array({ minLength: 1, maxLength: 3000 }).map((a) => Buffer.concat([Buffer.from(a), Buffer.from([0])]).toString('hex')) }),
  fc.record({ k: fc.constant('invalid-utf8' as const), text: fc.constantFrom(...CORPUS_LINES.slice(0, 2000)).chain((l) => fc.array(fc.constant(l), { minLength: 1, maxLength: 40 }).map((a) => a.join('\n'))), at: fc.double({ min: 0, max: 1, noNaN: true }), bad: fc.constantFrom('ff', 'c0af', 'ed a0 80'.replace(/ /g, ''), 'f8888080', '80') }),
);

export function buildStructured(s: Structured): Buffer {
  switch (s.k) {
    case 'json': {
      const v = Array.isArray(s.value) ? s.value : { ...(s.value as object), ...s.secret };
      return Buffer.from(JSON.stringify(v, null, s.indent || undefined) + '\n');
    }
    case 'ndjson': return Buffer.from(s.rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    case 'csv':
    case 'tsv': {
      const sep = s.k === 'csv' ? ',' : '\t';
      const eol = s.crlf ? '\r\n' : '\n';
      return Buffer.from([s.header, ...s.rows].map((r) => r.join(sep)).join(eol) + eol);
    }
    case 'yaml': return Buffer.from((s.doc ? '---\n' : 'config:\n') + s.keys.map(([k, v]) => `${s.doc ? '' : '  '}${k}: ${v}`).join('\n') + '\n');
    case 'binary': return Buffer.from(s.hex, 'hex');
    case 'invalid-utf8': {
      const b = Buffer.from(s.text);
      const at = Math.floor(s.at * b.length);
      return Buffer.concat([b.subarray(0, at), Buffer.from(s.bad, 'hex'), b.subarray(at)]);
    }
  }
}
