import type { DistillerSpec } from '../kit/spec.js';
import { TOOL_RUNNERS, type Hit } from './runner.js';

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
  detect: (p) => /^webpack \d+\.\d+\.\d+ compiled\b|^vite v\d+\.\d+\.\d+ building\b/.test(p),
  lines: () => ({ see: (_l, p) => (WEBPACK_MODULE.test(p) ? MODULE : VITE_PHASE.test(p) ? PHASE : null) }),
  examples: [],
} satisfies DistillerSpec;
