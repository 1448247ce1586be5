// Bundles omni's Pi extension into one CommonJS file, dist/omni-pi.cjs, that Pi loads with
// `pi -e <path>` or from settings.json `extensions` (docs/pi-findings.md). One file parses
// faster than jiti transpiling the TypeScript tree at every Pi start, and needs no TS.
// better-sqlite3 stays external (a native addon, resolved from omni's node_modules). omni uses
// only Pi's types (vendored in lib/hosts/pi/api.ts); should a value import of Pi's package ever
// appear, it stays external too: Pi hands its own packages to the extensions it loads.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { GATE_TABLES } from './gate-tables.mjs';
import { LEADS } from './lead-tables.mjs';
import { SHA256_WASM } from './sha256-wasm.mjs';

await build({
  entryPoints: ['lib/pi-extension.ts'],
  outfile: 'dist/omni-pi.cjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['better-sqlite3', '@mariozechner/pi-coding-agent'],
  legalComments: 'none',
  logLevel: 'warning',
  // Pi's loader (jiti, `import(path, { default: true })`) hands back a CommonJS module's
  // exports object as it is, so the factory must be module.exports itself.
  footer: { js: 'module.exports = module.exports.default; module.exports.default = module.exports;' },
  banner: { js: "const __omniImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: {
    'process.env.OMNI_BUNDLED': '"1"',
    'process.env.OMNI_VERSION': JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version),
    'import.meta.url': '__omniImportMetaUrl',
    __OMNI_GATE_TABLES__: GATE_TABLES,
    __OMNI_LEADS__: LEADS,
    __OMNI_SHA256_WASM__: SHA256_WASM,
  },
});
