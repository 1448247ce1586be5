/**
 * `omni diff`: the last distillation from any door, raw against delivered, as a unified
 * diff (`-` raw lines the reader did not get, `+` what it got instead, 3 lines of context).
 * Secret values are masked on both sides, as `omni retrieve` masks them (a masked line then
 * shows no difference); `--reveal` shows them, to a person only (lib/service/reveal.ts).
 */
import { isatty } from 'node:tty';
import type { Io } from './io.js';
import { cliStore } from './cli-store.js';
import { getBlob } from '../store/archive.js';
import { lastRun } from '../store/stats.js';
import { revealRefusal, shown } from '../service/reveal.js';

/** Past this many differing lines the diff gives up on alignment and shows both sides whole. */
export const DIFF_MAX_EDITS = 4000;
const CONTEXT = 3;

type Op = [' ' | '-' | '+', string];

/** Myers' O(ND) line diff. Returns null when more than `maxD` edits are needed. */
export function diffLines(a: string[], b: string[], maxD = DIFF_MAX_EDITS): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0) return null;
  trace.push(v);
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const pv = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && pv[off + k - 1] < pv[off + k + 1]) ? k + 1 : k - 1;
    const px = pv[off + prevK];
    const py = px - prevK;
    while (x > px && y > py) ops.push([' ', a[--x]]), y--;
    if (x === px) ops.push(['+', b[--y]]);
    else ops.push(['-', a[--x]]);
  }
  while (x > 0 && y > 0) ops.push([' ', a[--x]]), y--;
  return ops.reverse();
}

/** Unified-diff hunks with `CONTEXT` lines of context. */
export function unified(ops: Op[]): string {
  let out = '';
  const changed = ops.map((o) => o[0] !== ' ');
  let i = 0;
  let ai = 1;
  let bi = 1;
  const pos: Array<[number, number]> = [];
  for (const o of ops) {
    pos.push([ai, bi]);
    if (o[0] !== '+') ai++;
    if (o[0] !== '-') bi++;
  }
  while (i < ops.length) {
    if (!changed[i]) {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    let lastChange = i;
    while (end < ops.length && end - lastChange <= 2 * CONTEXT) {
      if (changed[end]) lastChange = end;
      end++;
    }
    end = Math.min(ops.length, lastChange + CONTEXT + 1);
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o[0] !== '+').length;
    const bLen = hunk.filter((o) => o[0] !== '-').length;
    out += `@@ -${pos[start][0]},${aLen} +${pos[start][1]},${bLen} @@\n`;
    for (const [op, line] of hunk) out += op + line + '\n';
    i = end;
  }
  return out;
}

function splitLines(buf: Buffer): string[] {
  const s = buf.toString('utf8');
  if (s === '') return [];
  const lines = s.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export async function run(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const reveal = argv.length === 1 && argv[0] === '--reveal';
  if (argv.length > 0 && !reveal) {
    io.stderr.write('usage: omni diff [--reveal]   (the last distillation, raw against delivered; --reveal: secrets unmasked, for a person at a terminal)\n');
    return argv.includes('--help') || argv.includes('-h') ? 0 : 2;
  }
  if (reveal) {
    const why = revealRefusal({ stdinIsTTY: isatty(0), stderrIsTTY: isatty(2), env });
    if (why) {
      io.stderr.write(`omni diff --reveal: ${why}\n`);
      return 2;
    }
  }
  const store = cliStore('diff', io);
  if (!store) return 1;
  try {
    const r = lastRun(store);
    if (!r) {
      io.stderr.write('omni diff: no distillation recorded yet\n');
      return 1;
    }
    const rawBlob = r.raw_handle ? getBlob(store, r.raw_handle) : null;
    const deliveredBlob = r.delivered_handle ? getBlob(store, r.delivered_handle) : null;
    const raw = rawBlob && shown(rawBlob, reveal);
    const delivered = deliveredBlob && shown(deliveredBlob, reveal);
    const when = new Date(r.at).toISOString();
    const head = `omni diff: ${r.door} door, ${r.family}${r.command ? `, ${r.command}` : ''}, ${when}: ${r.bytes_in} B -> ${r.bytes_out} B${r.applied ? '' : ' (not applied: the reader got the raw bytes)'}\n`;
    if (!raw || !delivered) {
      io.stdout.write(head);
      io.stderr.write(`omni diff: the ${!raw ? 'raw' : 'delivered'} bytes of that run were not archived (or are past retention)\n`);
      return 1;
    }
    io.stdout.write(head + `--- raw        omni retrieve ${r.raw_handle}\n+++ delivered  omni retrieve ${r.delivered_handle}\n`);
    const a = splitLines(raw);
    const b = splitLines(delivered);
    const ops = diffLines(a, b);
    if (!ops) {
      io.stdout.write(`@@ -1,${a.length} +1,${b.length} @@ (too different to align)\n` + a.map((l) => '-' + l + '\n').join('') + b.map((l) => '+' + l + '\n').join(''));
    } else io.stdout.write(unified(ops));
    return 0;
  } finally {
    store.close();
  }
}
