import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS, type Hit } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * JS bundlers (webpack, vite, esbuild, rollup): webpack's per-module lines
 * (`./src/x.js 1.2 KiB [built] [code generated]`, `orphan modules …`, `runtime modules …`,
 * `modules by path …`, the `+ 84 modules` line that counts the rest of a module group) and vite/rollup's phase lines (`transforming...`, `rendering
 * chunks...`, `computing gzip size...`) are recognised as progress. Asset lines, every
 * WARNING/ERROR block with its explanation, and the `compiled … in N ms` / `built in` /
 * `Done in` verdict stay.
 */
const MODULE: Hit = { noun: 'module lines' };
const PHASE: Hit = { noun: 'progress lines' };

const WEBPACK_MODULE = /^\s*((orphan|runtime|cacheable|javascript|cached) modules |modules by (path|layer|type|mime type) (\S+ )?)[\d.]+ (bytes|KiB|MiB)\b|^\s*\S.* [\d.]+ (bytes|KiB|MiB) \[(built|code generated|orphan|dependent)\]|^\s+\+ \d+ modules?\s*$/;
const VITE_PHASE = /^(transforming|rendering chunks|computing gzip size)(\.\.\.|…)\s*$|^✓ \d+ modules transformed\.\s*$/;

export default {
  name: 'bundler',
  family: 'build',
  producers: ['webpack', 'webpack-cli', 'vite', 'esbuild', 'rollup'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTest(/^webpack \d+\.\d+\.\d+ compiled\b|^vite v\d+\.\d+\.\d+ building\b/),
  lines: () => ({ see: (_l, p) => (WEBPACK_MODULE.test(p) ? MODULE : VITE_PHASE.test(p) ? PHASE : null) }),
  // The emitted files are the build's answer: each asset line stays, however alike.
  signals: [/^\s*asset \S+ [\d.]+ (bytes|KiB|MiB|GiB)\b/],
  examples: [
    // corpus/cases/772-webpack-split-build, lines 1-24
    {
      command: 'npx webpack --mode production',
      input: `assets by chunk 56.5 KiB (id hint: vendors)
  asset 918.44d971e1.js 20.8 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 425.18b98f95.js 9.22 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 39.647ed247.js 8.06 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 886.b46c0567.js 5.91 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 541.748ff0af.js 5.08 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 858.b92f8f5a.js 4.33 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 431.63c03783.js 3.05 KiB [emitted] [immutable] [minimized] (id hint: vendors)
+ 13 assets
orphan modules 536 KiB [orphan] 384 modules
runtime modules 7.17 KiB 9 modules
cacheable modules 310 KiB
  modules by path ./node_modules/lodash-es/*.js 169 KiB
    ./node_modules/lodash-es/chunk.js + 2 modules 2.96 KiB [built] [code generated]
    ./node_modules/lodash-es/throttle.js 2.64 KiB [built] [code generated]
    + 84 modules
  modules by path ./src/ 43.3 KiB
    modules by path ./src/pages/*.js 42.4 KiB 12 modules
    modules by path ./src/lib/*.js 268 bytes 2 modules
    + 1 module
  modules by path ./node_modules/date-fns/ 97 KiB
    modules by path ./node_modules/date-fns/*.mjs 81.1 KiB 7 modules
    modules by path ./node_modules/date-fns/_lib/*.mjs 1.14 KiB 2 modules
    + 1 module
`,
      output: `assets by chunk 56.5 KiB (id hint: vendors)
  asset 918.44d971e1.js 20.8 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 425.18b98f95.js 9.22 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 39.647ed247.js 8.06 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 886.b46c0567.js 5.91 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 541.748ff0af.js 5.08 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 858.b92f8f5a.js 4.33 KiB [emitted] [immutable] [minimized] (id hint: vendors)
  asset 431.63c03783.js 3.05 KiB [emitted] [immutable] [minimized] (id hint: vendors)
+ 13 assets
[omni: 15 module lines folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
