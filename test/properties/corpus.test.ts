/**
 * Every corpus case, once per door, against the rules P1, P2, P3, P4 and P6 (issue 10): the
 * pipe doors and the post-hook here, exec in corpus-exec.test.ts (split so tap runs both at
 * once). The generated-input halves of each property live in the p*.test.ts files.
 */
import t from 'tap';
import { loadCorpus } from '../helpers/corpus.js';
import { rules, utf8, type Run } from '../helpers/corpus-rules.js';
import { closeStores, CROSSING_PAUSE_S, freshReader, HOLD_SHORT, hookBash, hookRead, hookText, pipeBuffered, pipeProcess, pipeStream, pool, retrieverFor, retrieveProcess, propHome, scratch } from '../helpers/doors.js';
import { checkFailuresKept, checkReadNumbering, markersIn } from '../helpers/markers.js';
import { sweep, type SweepFailure } from '../helpers/property.js';

const cases = loadCorpus();
t.ok(cases.length > 100, `the corpus is there (${cases.length} cases)`);
t.teardown(closeStores);

t.test('pipe: the buffered pipeline', async (t) => {
  const home = propHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  for (const c of cases) runs.push({ c, input: c.output, output: await pipeBuffered(c.output, { command: c.cmd, home }), retrieve });
  rules(t, 'pipe', runs);
});

t.test('pipe-process: the real `omni pipe` for a sample, with `omni retrieve`', async (t) => {
  const home = propHome();
  const retrieve = retrieverFor(home);
  const runs: Run[] = [];
  const sample = cases.filter((_, i) => i % 24 === 0);
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
  const home = propHome();
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
    const why = checkFailuresKept(c.output, outs[i], retrieve, c.cmd);
    if (why) f3.push({ case: c.name, reason: why });
  });
  rules(t, 'pipe-stream', runs);
  sweep(t, 'P3 failures past the hold window (pipe-stream)', failing.length, f3);
});

t.test('hook: Claude Code PostToolUse Bash (persisted over 30,000 characters)', async (t) => {
  const home = propHome();
  const retrieve = retrieverFor(home);
  const dir = scratch('omni-tool-results-');
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
  const home = propHome();
  const retrieve = retrieverFor(home);
  const reads = cases.filter((c) => (c.kind === 'read' || /^(cat|head|sed|tail) /.test(c.cmd)) && utf8(c.output) && c.output.length > 0);
  const runs: Run[] = [];
  const numbering: SweepFailure[] = [];
  let replied = 0;
  for (const c of reads) {
    const reader = freshReader();
    const content = hookText(c.output);
    // The file the case's command read, by its name (a data file is known by its extension too).
    const file = /^(?:cat|head|sed|tail) .*?([\w.-]+)$/.exec(c.cmd)?.[1];
    const path = `${reader.cwd}/${c.name}-${file ?? 'output.txt'}`;
    for (const pass of [1, 2]) {
      const d = await hookRead(content, { path, home, reader });
      runs.push({ c: { ...c, name: `${c.name} (read ${pass})` }, input: d.input, output: d.output, retrieve, held: pass === 2 });
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
