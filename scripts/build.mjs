// Bundles the CLI into CommonJS files so a hook process parses one small file instead of
// resolving a module tree (a hook's start-up went from 3.3x to 1.6x `node -e 0`).
//
// dist/omni.cjs holds the hot path: hooks, exec, pipe, the pipeline and the store.
// Subcommands a user types by hand (init, doctor, stats, …) are separate bundles,
// dist/omni-<name>.cjs, required only when run, so zod and friends are never parsed on
// a hook call. better-sqlite3's JavaScript is bundled and evaluated on first use; its native
// addon is loaded by path (lib/store/open.ts), and `bindings`, its fallback search, stays external.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, readFileSync } from 'node:fs';

import { asciiFile } from './ascii-bundle.mjs';
import { GATE_TABLES } from './gate-tables.mjs';
import { LEADS } from './lead-tables.mjs';
import { SHA256_WASM } from './sha256-wasm.mjs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['bindings'],
  legalComments: 'none',
  logLevel: 'warning',
  // ESM sources may use import.meta.url (createRequire); give CJS bundles a real one.
  banner: { js: "const __omniImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: {
    'process.env.OMNI_BUNDLED': '"1"',
    'process.env.OMNI_VERSION': JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version),
    'import.meta.url': '__omniImportMetaUrl',
    __OMNI_GATE_TABLES__: GATE_TABLES,
    __OMNI_LEADS__: LEADS,
    __OMNI_SHA256_WASM__: SHA256_WASM,
  },
};

// The subcommands main.ts loads by name: `import('./init.js')` -> require('./omni-init.cjs').
const main = readFileSync('lib/cli/main.ts', 'utf8');
const subcommands = [...main.matchAll(/import\('\.\/([a-z-]+)\.js'\)/g)].map((m) => m[1]);

const splitSubcommands = {
  name: 'split-subcommands',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
      if (!args.importer.endsWith('lib/cli/main.ts')) return undefined;
      const name = args.path.slice(2, -3);
      // Only the lazily loaded subcommands; a static import (./usage.js) is bundled as usual.
      if (!subcommands.includes(name)) return undefined;
      if (!existsSync(`lib/cli/${name}.ts`)) return { path: name, namespace: 'missing' };
      return { path: `./omni-${name}.cjs`, external: true };
    });
    // A subcommand not in this tree yet builds into a stub that says so and exits 1.
    b.onLoad({ filter: /.*/, namespace: 'missing' }, (args) => ({
      contents: `export async function run(_a, io) { io.stderr.write(${JSON.stringify(`omni: ${args.path} is not part of this build\n`)}); return 1; }`,
      loader: 'js',
    }));
  },
};

// The hot path is dist/omni-core.cjs; dist/omni.cjs (lib/boot/code-cache.cjs) loads it through
// V8's code cache. A subcommand bundle is reached by require, not import(), so the bundle runs
// the same under vm.Script as under require.
await build({ ...common, entryPoints: ['bin/omni.ts'], outfile: 'dist/omni-core.cjs', plugins: [splitSubcommands], supported: { 'dynamic-import': false } });
// Pure ASCII, so the boot reads it as a one-byte string (scripts/ascii-bundle.mjs).
asciiFile('dist/omni-core.cjs');
copyFileSync('lib/boot/code-cache.cjs', 'dist/omni.cjs');
chmodSync('dist/omni.cjs', 0o755);
for (const name of subcommands) {
  if (!existsSync(`lib/cli/${name}.ts`)) continue;
  await build({ ...common, entryPoints: [`lib/cli/${name}.ts`], outfile: `dist/omni-${name}.cjs` });
}
// The Pi extension, loaded in-process by Pi (scripts/build-pi.mjs).
await import('./build-pi.mjs');
// The code cache: one post-hook call on a Bash payload, so the cache holds what a hook runs.
await import('./train-code-cache.mjs');
