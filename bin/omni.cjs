#!/usr/bin/env node
'use strict';
// npm's bin entry. The real program is the esbuild bundle built by `npm run build`
// (scripts/build.mjs), one CommonJS file so that every hook call starts fast.
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'omni.cjs');
if (!fs.existsSync(bundle)) {
  process.stderr.write('omni: dist/omni.cjs is missing; run `npm run build` in ' + path.join(__dirname, '..') + '\n');
  // A hook entry always exits 0: the host reads any other exit as a hook error. The entries are
  // the ones lib/cli/main.ts dispatches, from the one list both read.
  let hook = false;
  try {
    hook = require('./hook-flags.json').includes(process.argv[2]);
  } catch {
    // No list either: a lone `--something` argument is the shape of every hook entry.
    hook = /^--[a-z-]+$/.test(process.argv[2] || '') && process.argv.length === 3;
  }
  process.exit(hook ? 0 : 1);
}
require(bundle);
