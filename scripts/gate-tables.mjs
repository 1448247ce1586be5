// The classify gate, derived from the pattern lists and every registered spec's own lines by
// their own code (lib/pipeline/prefilter.ts) once at build, and bundled as data
// (`__OMNI_GATE_TABLES__`, see lib/pipeline/classify.ts): derived at every hook's start-up it
// cost ~25 ms. Shared by build.mjs and build-pi.mjs.
import { build } from 'esbuild';
import { createRequire } from 'node:module';

const r = await build({
  stdin: { contents: "export { gateTables } from './lib/pipeline/classify.ts';", resolveDir: process.cwd(), loader: 'ts' },
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'warning',
  // The registry reaches lib/store's lazy require, which names import.meta.url: this file's will do.
  define: { 'import.meta.url': JSON.stringify(import.meta.url) },
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', r.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
export const GATE_TABLES = JSON.stringify(mod.exports.gateTables());
