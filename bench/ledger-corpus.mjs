// `node bench/ledger-corpus.mjs`: the ledger's effect on the corpus, replayed repeat-heavy.
//
// Every case goes through the one pipeline (distillBuffer, hook door, real store) as one
// reader would see it:
//   first   the output, delivered (and recorded) once;
//   repeat  the same output again (a second `cat`, a test re-run with nothing fixed);
//   rerun   the output with one line changed two thirds of the way down (a re-run after a
//           one-line fix).
// For repeat and rerun it prints bytes distilled without the ledger vs with it, and checks
// every must_keep line is still in the delivered text.
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const out = path.resolve('bench/out');
fs.mkdirSync(out, { recursive: true });
const lib = path.join(out, 'ledger-lib.cjs');
await build({
  stdin: {
    contents: "export * from './lib/store/index.ts'; export * from './lib/pipeline/ledger.ts'; export { distillBuffer } from './lib/pipeline/run.ts'; export { describeRun } from './lib/pipeline/describe.ts';",
    resolveDir: process.cwd(), loader: 'ts',
  },
  outfile: lib, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['better-sqlite3'], logLevel: 'error',
});
const S = createRequire(import.meta.url)(lib);
const root = 'corpus/cases';
const read = (d, f) => (fs.existsSync(path.join(d, f)) ? fs.readFileSync(path.join(d, f), 'utf8') : '');
const store = S.openStore({ home: fs.mkdtempSync(path.join(os.tmpdir(), 'omni-ledger-corpus-')) });

async function deliver(c, text, sessionId, ledger) {
  const scope = { sessionId, cwd: '/corpus' };
  const desc = S.describeRun({ door: 'hook', tool: 'Bash', command: c.cmd, host: 'claude', ...scope });
  const edges = { archive: { put: (d) => S.putBlob(store, d) }, exitCode: c.exit };
  let stage = null;
  if (ledger) {
    const shown = S.loadShown(store, scope);
    edges.ledger = () => (stage = S.createLedgerStage(desc, shown));
  }
  const res = await S.distillBuffer(desc, Buffer.from(text), edges);
  if (stage) S.recordDelivered(store, { ...scope, hashes: stage.delivered(), consumed: stage.consumed() });
  return res.output.toString();
}

const rows = [];
let lost = 0;
for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.existsSync(path.join(dir, 'output.txt'))) continue;
  const c = {
    name,
    cmd: read(dir, 'cmd.txt').trim(),
    exit: Number(read(dir, 'exit_code.txt').trim() || '0'),
    kind: read(dir, 'kind.txt').trim() || 'generic',
    keep: read(dir, 'must_keep.txt').split('\n').map((s) => s.trimEnd()).filter(Boolean),
    text: fs.readFileSync(path.join(dir, 'output.txt'), 'utf8'),
  };
  const lines = c.text.split('\n');
  const k = Math.floor((lines.length * 2) / 3);
  const changed = lines.map((l, i) => (i === k ? l + ' (changed)' : l)).join('\n');
  const session = `s-${name}`;
  await deliver(c, c.text, session, true);
  const row = { name, kind: c.kind, raw: Buffer.byteLength(c.text) };
  for (const [label, text] of [['repeat', c.text], ['rerun', changed]]) {
    const plain = await deliver(c, text, `plain-${name}-${label}`, false);
    const withLedger = await deliver(c, text, session, true);
    row[label] = { plain: Buffer.byteLength(plain), ledger: Buffer.byteLength(withLedger) };
    for (const m of c.keep) {
      if (label === 'rerun' && text !== c.text && !changed.includes(m)) continue;
      if (!withLedger.includes(m)) { lost++; console.log(`LOST in ${name} (${label}): ${m}`); }
    }
  }
  rows.push(row);
}
store.close();

const sum = (f) => rows.reduce((a, r) => a + f(r), 0);
const pct = (a, b) => (b ? `${(100 * (1 - a / b)).toFixed(1)}%` : '-');
console.log(`| case | kind | raw B | repeat: distilled | repeat: + ledger | rerun: distilled | rerun: + ledger |\n|---|---|---:|---:|---:|---:|---:|`);
for (const r of rows) console.log(`| ${r.name} | ${r.kind} | ${r.raw} | ${r.repeat.plain} | ${r.repeat.ledger} | ${r.rerun.plain} | ${r.rerun.ledger} |`);
const raw = sum((r) => r.raw);
for (const label of ['repeat', 'rerun']) {
  const p = sum((r) => r[label].plain);
  const l = sum((r) => r[label].ledger);
  const folded = rows.filter((r) => r[label].ledger < r[label].plain).length;
  console.log(`\n${label}: ${rows.length} cases, raw ${raw} B; distilled ${p} B (${pct(p, raw)} saved); with the ledger ${l} B (${pct(l, raw)} saved vs raw, ${pct(l, p)} vs distilled); ledger folded in ${folded} cases`);
}
console.log(`must_keep lines lost with the ledger: ${lost}`);
