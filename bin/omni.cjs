#!/usr/bin/env node
'use strict';
// npm's bin entry. The real program is the esbuild bundle built by `npm run build`
// (scripts/build.mjs), one CommonJS file so that every hook call starts fast.
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'omni.cjs');
if (!fs.existsSync(bundle)) {
  process.stderr.write('omni: dist/omni.cjs is missing; run `npm run build` in ' + path.join(__dirname, '..') + '\n');
  process.exit(process.argv.includes('--hook') || process.argv.some((a) => a.endsWith('-hook')) ? 0 : 1);
}
require(bundle);
