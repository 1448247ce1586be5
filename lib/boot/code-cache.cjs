'use strict';
// dist/omni.cjs, the file every hook runs. It loads the hot-path bundle (dist/omni-core.cjs)
// through V8's code cache (dist/omni-core.cjs.v8), so a hook call does not compile the bundle
// again: the cache holds the bytecode of every function the build's training call ran
// (scripts/build.mjs). Node 20 has no module.enableCompileCache (22.1+), hence this file.
//
// V8 checks the cache against its own version, flags and the source; when it rejects it (a
// different Node), the bundle compiles as usual and the call still answers. A rejected or
// missing cache is written again at exit, once, when dist/ is writable, so the next call is
// fast. Anything going wrong before the bundle runs falls back to a plain require.
const fs = require('node:fs');
const path = require('node:path');

const core = path.join(__dirname, 'omni-core.cjs');
const cacheFile = `${core}.v8`;

function load() {
  const vm = require('node:vm');
  const Module = require('node:module');
  // The build makes the bundle pure ASCII (scripts/ascii-bundle.mjs): read so, it is a copy of
  // the file's bytes, not a UTF-8 decode into a two-byte string (~2 ms of a hook call).
  const bytes = fs.readFileSync(core);
  const { isAscii } = require('node:buffer');
  let source = typeof isAscii === 'function' && isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // The bundle starts with a shebang, which only the CommonJS loader strips.
  if (source.startsWith('#!')) source = source.replace(/^#!.*/, '');
  let cachedData;
  try { cachedData = fs.readFileSync(cacheFile); } catch { /* first run, or no cache shipped */ }
  const options = { filename: core, cachedData };
  const script = new vm.Script(Module.wrap(source), options);
  const fn = script.runInThisContext();
  const mod = new Module(core, module);
  mod.filename = core;
  mod.paths = Module._nodeModulePaths(__dirname);
  const req = Module.createRequire(core);
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const mode = process.env.OMNI_CODE_CACHE;
  if (mode === 'report') process.stderr.write(`omni: code cache ${cachedData === undefined ? 'missing' : stale ? 'rejected' : 'accepted'}\n`);
  if (stale || mode === 'write') {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      try {
        fs.accessSync(__dirname, fs.constants.W_OK);
        const tmp = `${cacheFile}.${process.pid}`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch { /* a read-only install keeps compiling; the answer is the same */ }
    };
    // V8 stamps a cache with its flags, and the bundle switches a regexp flag on when it
    // compiles rules (lib/rules/linear.ts): a cache written after that would be refused by
    // every call that loads it first. So the bundle calls this before it changes a flag.
    globalThis[Symbol.for('omni.beforeV8Flags')] = write;
    process.once('exit', write);
  }
  return () => fn.call(mod.exports, mod.exports, req, mod, core, __dirname);
}

let run;
try {
  run = load();
} catch (err) {
  if (process.env.OMNI_CODE_CACHE === 'report') process.stderr.write(`omni: code cache not used: ${err && err.message}\n`);
  run = () => require(core);
}
run();
