// `npm run bench [-- name…]`: builds each TypeScript bench into bench/out/ with esbuild
// (the same toolchain as the product bundle) and runs it; a bench/<name>.mjs runs as it is.
// Names: savings, throughput, latency, startup, rss, hook-server (the MCP hook server's
// per-call time and RSS over 1,000 calls, and on an empty against a 200 MB store), store (the
// store's costs and the command post-hook on an empty and a 200 MB store), host-overhead (the
// real CLI, per-call cost by transport), hook-phases (the command post-hook's time by phase),
// mcp-tools (the real CLI: the bytes of omni's MCP offer on each model request, by install),
// sessions (whole scripted agent sessions through the real CLI, with and without omni: saved
// per session and per call kind, omni's own per-request cost, lost = 0; several minutes),
// stats-html (the HTML report of a hostile store: its size, and a real Chromium's time to draw it).
// Default: all of them.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';

const all = ['savings', 'startup', 'throughput', 'latency', 'rss', 'hook-phases', 'hook-server', 'store', 'host-overhead', 'mcp-tools', 'sessions', 'stats-html'];
const names = process.argv.slice(2).length ? process.argv.slice(2) : all;
mkdirSync('bench/out', { recursive: true });
spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
for (const name of names) {
  if (existsSync(`bench/${name}.mjs`)) {
    console.log(`\n## ${name}\n`);
    const r = spawnSync('node', [`bench/${name}.mjs`, '--no-build'], { stdio: 'inherit' });
    if (r.status !== 0) console.log(`(bench ${name} exited ${r.status})`);
    continue;
  }
  const src = `bench/${name}.ts`;
  if (!existsSync(src)) { console.log(`(no bench/${name}.ts)`); continue; }
  const out = `bench/out/${name}.mjs`;
  await build({
    entryPoints: [src], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    external: ['better-sqlite3'], logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  console.log(`\n## ${name}\n`);
  const r = spawnSync('node', [out], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`(bench ${name} exited ${r.status})`);
}
