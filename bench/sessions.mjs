// `npm run bench -- sessions` (or `node bench/sessions.mjs [session…] [--calls] [--keep]`): what
// omni saves over WHOLE agent sessions, with nothing lost.
//
// Each scripted session (test/real-host/sessions/: a project made by code, its git history, and
// 25-45 tool calls: explore, read, failing tests, Edit, re-read, lint, build, chained and wrapped
// commands, git, a log) is played by the loopback model stand-in through the pinned Claude Code
// CLI twice, side by side: without omni, and with omni installed by `omni init --claude` into a
// temporary HOME as a user would. Per call: raw = the tool_result the model got without omni,
// delivered = with omni. omni's own cost = what omni adds to every model request (its tool
// definitions and names, its MCP server's instructions, hook context), summed over the
// session's requests, with omni minus without. Net saved = 1 - (delivered + own cost) / raw.
// Lost must be 0: failing calls and first reads byte-identical to the baseline, every must-keep
// line present, every marker's `omni retrieve` a contiguous part of the raw output, nothing
// larger than without omni. Sessions: development set (python-pytest, node-jest, rust-cargo) and
// held-out set (go-module, ruby-gem: nobody tunes distillers against these).
//
// Needs on PATH: python3, flake8, make, git, npm (the npm registry, for node-jest's install),
// cargo, go, ruby with rake and rubocop (`apt-get install golang-go ruby rake ruby-minitest
// rubocop flake8`). --calls prints every call; --keep keeps the runs' directories (their paths
// are printed); OMNI_TEST_BIN names another omni build (e.g. main's, side by side); writes
// bench/out/sessions.json. Exits 1 when anything was lost.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const names = args.filter((a) => !a.startsWith('--'));

const out = path.resolve('bench/out');
mkdirSync(out, { recursive: true });
if (!flags.has('--no-build')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const lib = path.join(out, 'sessions-lib.mjs');
await build({
  stdin: {
    contents: ["export { omniBin } from './test/real-host/harness.ts';", "export * from './test/real-host/sessions/index.ts';", "export * from './test/real-host/sessions/run-pair.ts';", "export * from './test/real-host/sessions/report.ts';", "export * from './test/real-host/sessions/measure.ts';"].join('\n'),
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  outfile: lib, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const S = await import(lib);

const chosen = names.length ? S.SESSIONS.filter((s) => names.includes(s.name)) : S.SESSIONS;
if (!chosen.length) {
  console.log(`no session named ${names.join(', ')}; there are ${S.SESSIONS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
console.log(`${chosen.length} sessions (dev: ${S.DEV.join(', ')}; held-out: ${S.HELD_OUT.join(', ')}), pinned Claude Code CLI, omni ${S.omniBin()}`);
const reports = [];
const t0 = Date.now();
for (const s of chosen) {
  try {
    const { report, base, omni } = await S.runSessionPair(s, { keep: flags.has('--keep'), log: (l) => console.log(`  ${l}`) });
    if (flags.has('--keep')) console.log(`  kept: ${base.dir} (without omni), ${omni.dir} (with omni)`);
    reports.push(report);
  } catch (e) {
    console.log(`  ${s.name}: could not run: ${e.message}`);
  }
}
if (!reports.length) process.exit(1);

if (flags.has('--calls')) for (const r of reports) console.log(`\n### ${r.name} (${r.set}): per call\n\n${S.callTable(r)}`);
console.log(`\nper session (raw = what the model got without omni; net = counting omni's own additions to every request; target ≥ ${S.SESSION_TARGET}% net, 0 lost):\n`);
console.log(S.sessionTable(reports));
for (const [label, set] of [['development set', 'dev'], ['held-out set', 'held-out']]) {
  const rs = reports.filter((r) => r.set === set);
  if (rs.length) console.log(`\nper call kind, ${label} (${rs.map((r) => r.name).join(', ')}):\n\n${S.kindTable(rs)}`);
}
if (reports.length > 1) console.log(`\nper call kind, all sessions:\n\n${S.kindTable(reports)}`);
console.log(`\nomni's own additions, bytes summed over every model request:\n\n${S.costTable(reports)}`);
const problems = S.problemLines(reports);
const lost = reports.reduce((a, r) => a + r.totals.problems, 0);
console.log(`\nlost: ${lost}${lost ? ' (see below)' : ' (failing calls and first reads byte-identical, every must-keep present, every marker retrieves a contiguous part of the raw output, nothing larger)'}`);
for (const p of problems) console.log(`  ${p}`);
console.log(`\n${Math.round((Date.now() - t0) / 1000)} s; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
writeFileSync(path.join(out, 'sessions.json'), JSON.stringify(reports, (k, v) => (v instanceof RegExp ? String(v) : v), 2));
process.exit(lost ? 1 : 0);
