// The SHA-256 WebAssembly module (lib/base/sha256.ts), assembled by its own code once at build
// and bundled as base64 (`__OMNI_SHA256_WASM__`): assembled at every hook's start-up, the
// interpreter spent ~5M instructions building the same few hundred bytes.
import { build } from 'esbuild';
import { createRequire } from 'node:module';

const r = await build({
  stdin: { contents: "export { wasmModuleBytes } from './lib/base/sha256.ts';", resolveDir: process.cwd(), loader: 'ts' },
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'warning',
  define: { 'import.meta.url': JSON.stringify(import.meta.url) },
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', r.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
export const SHA256_WASM = JSON.stringify(Buffer.from(mod.exports.wasmModuleBytes()).toString('base64'));
