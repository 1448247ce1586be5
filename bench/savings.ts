// Savings per corpus kind through the post-hook door (exit-0 cases: the host sends only
// successes to PostToolUse), plus must-keep retention and the rules that must hold for
// every case. Not a pass/fail test: it prints the table the README quotes.
import stripAnsi from 'strip-ansi';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distillBuffer } from '../lib/pipeline/run.js';
import { describeRun } from '../lib/pipeline/describe.js';
import { LazyStore } from '../lib/doors/store-access.js';
import { loadCorpus, STRUCTURED_KINDS } from './corpus.js';

const TARGETS: Record<string, number> = { test: 85, build: 60, install: 60, git: 40, log: 70 };

const home = mkdtempSync(join(tmpdir(), 'omni-bench-'));
const store = new LazyStore(home);
// OMNI_BENCH_CASES=<regex> restricts the run to matching case names (e.g. '^[0-7]' for the
// cases that existed before the 8NN captures), so a figure can be compared on a fixed set.
const only = process.env.OMNI_BENCH_CASES ? new RegExp(process.env.OMNI_BENCH_CASES) : null;
const cases = loadCorpus().filter((c) => !only || only.test(c.name));
type Row = { raw: number; out: number; n: number; keep: number; kept: number };
const byKind = new Map<string, Row>();
const all: Row = { raw: 0, out: 0, n: 0, keep: 0, kept: 0 };
const problems: string[] = [];
const perCase: Array<Record<string, unknown>> = [];

for (const c of cases) {
  const exit0 = c.exitCode === 0;
  const r = await distillBuffer(
    describeRun({ door: 'hook', host: 'claude', tool: 'Bash', command: c.cmd }),
    c.output,
    { exitCode: exit0 ? 0 : c.exitCode, archive: store.archive() },
  );
  const text = stripAnsi(r.output.toString('utf8'));
  const kept = c.mustKeep.filter((k) => text.includes(k)).length;
  if (kept < c.mustKeep.length) problems.push(`${c.name}: lost ${c.mustKeep.length - kept} must-keep line(s)`);
  if (r.outBytes > r.rawBytes) problems.push(`${c.name}: larger than its input`);
  if (STRUCTURED_KINDS.has(c.kind) && r.changed) problems.push(`${c.name}: structured case changed`);
  if (!exit0 && r.changed) problems.push(`${c.name}: failing case changed`);
  perCase.push({ name: c.name, kind: c.kind, family: c.family, exit: c.exitCode, raw: r.rawBytes, out: r.outBytes, saved: r.rawBytes ? +(100 * (1 - r.outBytes / r.rawBytes)).toFixed(1) : 0, distiller: r.distiller, verbatim: r.verbatim, keep: c.mustKeep.length, kept, lost: c.mustKeep.filter((k) => !text.includes(k)) });
  if (!exit0) continue;
  const row = byKind.get(c.kind) ?? { raw: 0, out: 0, n: 0, keep: 0, kept: 0 };
  for (const x of [row, all]) {
    x.raw += r.rawBytes; x.out += r.outBytes; x.n++; x.keep += c.mustKeep.length; x.kept += kept;
  }
  byKind.set(c.kind, row);
}
store.close();

const pct = (r: Row) => (r.raw ? (100 * (1 - r.out / r.raw)).toFixed(1) : '0.0');
const lines: string[] = [];
lines.push(`corpus: ${cases.length} cases in corpus/cases (${cases.filter((c) => c.exitCode === 0).length} exit-0), post-hook door`);
lines.push('');
lines.push('| kind | exit-0 cases | raw bytes | delivered bytes | saved | target | must-keep kept |');
lines.push('|---|---:|---:|---:|---:|---:|---:|');
for (const [kind, r] of [...byKind.entries()].sort()) {
  const target = TARGETS[kind] !== undefined ? `${TARGETS[kind]}%` : '';
  lines.push(`| ${kind} | ${r.n} | ${r.raw} | ${r.out} | ${pct(r)}% | ${target} | ${r.kept}/${r.keep} |`);
}
lines.push(`| **all** | ${all.n} | ${all.raw} | ${all.out} | ${pct(all)}% | 60% | ${all.kept}/${all.keep} |`);
lines.push('');
// OMNI_BENCH_BY=family adds the same figures per family (the tool or ecosystem a case is from).
if (process.env.OMNI_BENCH_BY === 'family') {
  const byFamily = new Map<string, Row>();
  for (const c of perCase) {
    if (c.exit !== 0) continue;
    const row = byFamily.get(String(c.family)) ?? { raw: 0, out: 0, n: 0, keep: 0, kept: 0 };
    row.raw += Number(c.raw); row.out += Number(c.out); row.n++; row.keep += Number(c.keep); row.kept += Number(c.kept);
    byFamily.set(String(c.family), row);
  }
  lines.push('| family | exit-0 cases | raw bytes | delivered bytes | saved | must-keep kept |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const [f, r] of [...byFamily.entries()].sort((a, b) => b[1].raw - a[1].raw)) lines.push(`| ${f} | ${r.n} | ${r.raw} | ${r.out} | ${pct(r)}% | ${r.kept}/${r.keep} |`);
  lines.push('');
}
lines.push(problems.length ? `rule violations:\n${problems.map((p) => `  - ${p}`).join('\n')}` : 'rule violations: none (must-keep, never larger, structured and failing cases untouched)');
console.log(lines.join('\n'));
mkdirSync('bench/out', { recursive: true });
writeFileSync('bench/out/savings.json', JSON.stringify({ byKind: Object.fromEntries(byKind), all, problems, perCase }, null, 2));
