// Bundles each entry point into one CommonJS file so a hook process parses one small
// file instead of resolving a module tree (performance.md: 3.3x -> 1.6x `node -e 0`).
// better-sqlite3 stays external: it is a native addon and is required lazily.
import { build } from 'esbuild';
import { chmodSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// A subcommand module that is not in this tree yet builds into a stub that says so and
// exits 1, instead of breaking the whole bundle (subcommands load lazily by name).
const missingSubcommands = {
  name: 'missing-subcommands',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
      if (!args.importer.endsWith(join('lib', 'cli', 'main.ts'))) return undefined;
      const ts = join(dirname(args.importer), args.path.replace(/\.js$/, '.ts'));
      if (existsSync(ts)) return undefined;
      return { path: args.path, namespace: 'missing' };
    });
    b.onLoad({ filter: /.*/, namespace: 'missing' }, (args) => ({
      contents: 'export async function run(_a, io) { io.stderr.write(' + JSON.stringify(`omni: ${args.path} is not part of this build\n`) + '); return 1; }',
      loader: 'js',
    }));
  },
};

const entries = [
  { in: 'bin/omni.ts', out: 'dist/omni.cjs' },
];
for (const e of entries) {
  if (!existsSync(e.in)) continue;
  await build({
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['better-sqlite3'],
    legalComments: 'none',
    logLevel: 'warning',
    // ESM sources may use import.meta.url (createRequire); give the CJS bundle a real one.
    banner: { js: "const __omniImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'process.env.OMNI_BUNDLED': '"1"', 'import.meta.url': '__omniImportMetaUrl' },
    plugins: [missingSubcommands],
  });
  chmodSync(e.out, 0o755);
}
