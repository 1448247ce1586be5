/**
 * Every corpus case, once per door, against the rules P1, P2, P3, P4 and P6 (issue 10).
 * The generated-input halves of each property live in the p*.test.ts files beside this one.
 */
import t, { type Test } from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCorpus, STRUCTURED_KINDS, type CorpusCase } from '../helpers/corpus.js';
import { tempHome } from '../helpers/omni.js';
import {
  closeStores, CROSSING_PAUSE_S, execInProcess, execProcess, freshReader, HOLD_NEVER, HOLD_SHORT, hookBash, hookRead, hookText,
  pipeBuffered, pipeProcess, pipeStream, pool, programsOf, retrieverFor, retrieveProcess,
} from '../helpers/doors.js';
import {
  checkFailuresKept, checkHandles, checkIdentical, checkNotLarger, checkNothingLost, checkReadNumbering, markersIn, type Retrieve,
} from '../helpers/markers.js';
import { sweep, type SweepFailure } from '../helpers/property.js';

const cases = loadCorpus();
t.ok(cases.length > 100, `the corpus is there (${cases.length} cases)`);
t.teardown(closeStores);

const utf8 = (b: Buffer) => { try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; } };
const structured = (c: CorpusCase) => STRUCTURED_KINDS.has(c.kind) || !utf8(c.output);

interface Run { c: CorpusCase; input: Buffer; output: Buffer; retrieve: Retrieve }

/** P1, P2, P6 on every run of a door, P4 on its structured ones. */
function rules(t: Test, door: string, runs: Run[]): void {
  const f = { p1: [] as SweepFailure[], p2: [] as SweepFailure[], p4: [] as SweepFailure[], p6: [] as SweepFailure[] };
  let nStructured = 0;
  for (const r of runs) {
    const add = (k: keyof typeof f, why: string | null) => { if (why) f[k].push({ case: r.c.name, reason: why }); };
    add('p1', checkNothingLost(r.input, r.output, r.retrieve));
    add('p2', checkNotLarger(r.input, r.output));
    add('p6', checkHandles(r.output, r.retrieve));
    if (structured(r.c)) { nStructured++; add('p4', checkIdentical(r.input, r.output)); }
  }
  sweep(t, `P1 nothing lost, in place (${door})`, runs.length, f.p1);
  sweep(t, `P2 never larger (${door})`, runs.length, f.p2);
  if (nStructured) sweep(t, `P4 untouched (${door})`, nStructured, f.p4);
  sweep(t, `P6 handles (${door})`, runs.length, f.p6);
}


t.test('pipe: the buffered pipeline', async (t) => {
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  for (const c of cases) runs.push({ c, input: c.output, output: await pipeBuffered(c.output, { command: c.cmd, home }), retrieve });
  rules(t, 'pipe', runs);
});

t.test('pipe-process: the real `omni pipe` for a sample, with `omni retrieve`', async (t) => {
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const sample = cases.filter((_, i) => i % 16 === 0);
  for (const c of sample) runs.push({ c, input: c.output, output: pipeProcess(c.output, { command: c.cmd, home }), retrieve });
  rules(t, 'pipe-process', runs);
  // P6 through the CLI: every marker's handle retrieves the same bytes the store holds.
  const bad: SweepFailure[] = [];
  let n = 0;
  for (const r of runs) {
    for (const m of markersIn(r.output).slice(0, 2)) {
      n++;
      const p = retrieveProcess(home, m.handle);
      if (p.status !== 0 || !p.stdout.equals(retrieve(m.handle) ?? Buffer.alloc(0))) bad.push({ case: r.c.name, reason: `omni retrieve ${m.handle} exited ${p.status} with ${p.stdout.length} B` });
    }
  }
  t.ok(n > 0, `markers retrieved through the CLI: ${n}`);
  sweep(t, 'P6 handles (omni retrieve)', n, bad);
});

t.test('pipe-stream: failing cases through the real pipe door, a pause past the hold window', async (t) => {
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const failing = cases.filter((c) => c.exitCode !== 0 && c.output.length > 0);
  const f3: SweepFailure[] = [];
  const runs: Run[] = [];
  const outs = await pool(failing, 3, (c) => {
    const mid = c.output.indexOf(10, c.output.length >> 1) + 1 || c.output.length;
    const chunks = [{ bytes: c.output.subarray(0, mid), pauseMs: 0 }, { bytes: c.output.subarray(mid), pauseMs: CROSSING_PAUSE_S * 1000 }];
    return pipeStream(chunks, { command: c.cmd, home, env: HOLD_SHORT });
  });
  failing.forEach((c, i) => {
    runs.push({ c, input: c.output, output: outs[i], retrieve });
    const why = checkFailuresKept(c.output, outs[i], retrieve);
    if (why) f3.push({ case: c.name, reason: why });
  });
  rules(t, 'pipe-stream', runs);
  sweep(t, 'P3 failures past the hold window (pipe-stream)', failing.length, f3);
});

const replayable = cases.filter((c) => programsOf(c.cmd) !== null);

t.test('exec: a real child replays every case; a third of them pause past the hold window', async (t) => {
  t.ok(replayable.length > cases.length * 0.9, `${replayable.length} of ${cases.length} commands replayable (the rest need a shell builtin, a path or a pipe)`);
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const inside: SweepFailure[] = [];
  const past: SweepFailure[] = [];
  let nInside = 0;
  let nPast = 0;
  // Three at a time: most of a run is the child's pause and start-up, not CPU.
  const results = await pool(replayable, 3, async (c, i) => {
    const cross = i % 3 === 0;
    const mid = c.output.indexOf(10, c.output.length >> 1) + 1 || c.output.length;
    const chunks = cross
      ? [{ bytes: c.output.subarray(0, mid), pause: 0 }, { bytes: c.output.subarray(mid), pause: CROSSING_PAUSE_S }]
      : [{ bytes: c.output, pause: 0 }];
    return { c, cross, r: await execInProcess({ command: c.cmd, chunks, exitCode: c.exitCode }, { home, hold: cross ? HOLD_SHORT : HOLD_NEVER }) };
  });
  for (const { c, cross, r } of results) {
    if (r.exitCode !== c.exitCode) t.fail(`${c.name}: exec returned ${r.exitCode}, the child exited ${c.exitCode}`);
    runs.push({ c, input: r.raw, output: r.output, retrieve });
    if (c.exitCode === 0) continue;
    if (cross) {
      nPast++;
      const why = checkFailuresKept(r.raw, r.output, retrieve);
      if (why) past.push({ case: c.name, reason: why });
    } else {
      nInside++;
      const why = checkIdentical(r.raw, r.output);
      if (why) inside.push({ case: c.name, reason: `exit ${c.exitCode} inside the hold window: ${why}` });
    }
  }
  rules(t, 'exec', runs);
  sweep(t, 'P3 failures inside the hold window give the raw bytes (exec)', nInside, inside);
  sweep(t, 'P3 failures past the hold window (exec)', nPast, past);
});

t.test('exec-process: the real `omni exec` for a sample', async (t) => {
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const sample = replayable.filter((_, i) => i % 30 === 1);
  for (const c of sample) {
    const r = execProcess({ command: c.cmd, chunks: [{ bytes: c.output, pause: 0 }], exitCode: c.exitCode }, { home, hold: HOLD_NEVER });
    t.equal(r.exitCode, c.exitCode, `${c.name}: omni exec exits with the child's code`);
    runs.push({ c, input: r.raw, output: r.output, retrieve });
  }
  rules(t, 'exec-process', runs);
});

t.test('hook: Claude Code PostToolUse Bash (persisted over 30,000 characters)', async (t) => {
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const dir = mkdtempSync(join(tmpdir(), 'omni-tool-results-'));
  const runs: Run[] = [];
  let persisted = 0;
  for (const c of cases.filter((c) => utf8(c.output))) {
    const text = hookText(c.output);
    if (text.length > 30_000) persisted++;
    const d = await hookBash(text, { command: c.cmd, home, reader: freshReader(), persistedDir: dir });
    runs.push({ c, input: d.input, output: d.output, retrieve });
  }
  t.ok(persisted > 0, `${persisted} cases went through the persisted shape`);
  rules(t, 'hook Bash', runs);
});

t.test('hook: Claude Code PostToolUse Read, read twice by the same reader', async (t) => {
  const home = tempHome();
  const retrieve = retrieverFor(home);
  const reads = cases.filter((c) => (c.kind === 'read' || /^(cat|head|sed|tail) /.test(c.cmd)) && utf8(c.output) && c.output.length > 0);
  const runs: Run[] = [];
  const numbering: SweepFailure[] = [];
  let replied = 0;
  for (const c of reads) {
    const reader = freshReader();
    const content = hookText(c.output);
    const path = `${reader.cwd}/${c.name}.txt`;
    for (const pass of [1, 2]) {
      const d = await hookRead(content, { path, home, reader });
      runs.push({ c: { ...c, name: `${c.name} (read ${pass})` }, input: d.input, output: d.output, retrieve });
      if (d.replied) {
        replied++;
        const why = checkReadNumbering(content, 1, d.output.toString('utf8'), d.startLine!);
        if (why) numbering.push({ case: `${c.name} (read ${pass})`, reason: why });
      }
    }
  }
  t.ok(reads.length > 5, `${reads.length} read cases`);
  t.comment(`${replied} of ${runs.length} reads got a reply`);
  rules(t, 'hook Read', runs);
  sweep(t, 'P1 Read lines keep their numbers (hook Read)', replied, numbering);
});
