/**
 * omni's own install carries no host CLI: the real Claude Code, Codex, Gemini and Pi CLIs the
 * real-host tests run are pinned exactly in test/host-clis/ (their own package.json and
 * lockfile) and installed there by scripts/host-clis.mjs, once, from that lockfile. Checked
 * here: the pins, that nothing outside that folder imports a host package, every harness
 * resolving its CLI from there, and the installer itself (with a stand-in npm): one install,
 * then none; again when the lockfile changes; one install for two processes at once; a dead
 * holder's lock taken over; and a wrong version refused.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureHostClis, HOST_CLIS, HOSTS, installed, pins, ROOT } from '../../scripts/host-clis.mjs';
import { claudeBin } from './harness.js';
import { codexBin } from './codex-harness.js';
import { geminiBin } from './gemini-harness.js';
import { piBin } from './pi-harness.js';

const PINNED = {
  '@anthropic-ai/claude-code': '2.1.332',
  '@google/gemini-cli': '0.61.0',
  '@mariozechner/pi-coding-agent': '0.73.1',
  '@openai/codex': '0.171.0',
};
const PACKAGES = Object.values(HOSTS);
const json = (f: string) => JSON.parse(readFileSync(f, 'utf8'));

t.test('omni\'s package.json and lockfile carry none of the host CLIs', async (t) => {
  const pkg = json(join(ROOT, 'package.json'));
  for (const p of PACKAGES) {
    t.notOk(pkg.dependencies?.[p], `${p} is not a dependency`);
    t.notOk(pkg.devDependencies?.[p], `${p} is not a devDependency`);
    t.notOk(pkg.peerDependencies?.[p], `${p} is not a peer dependency (npm would install it)`);
  }
  const lock = Object.keys(json(join(ROOT, 'package-lock.json')).packages);
  const hosts = lock.filter((k) => PACKAGES.some((p) => k.startsWith(`node_modules/${p}`)) || k.startsWith('node_modules/@mariozechner/'));
  t.same(hosts, [], 'no host CLI package (nor a platform binary of one) in omni\'s lockfile');
});

t.test('the host CLIs are pinned exactly, in their own package.json and lockfile', async (t) => {
  t.same(pins(), PINNED, 'test/host-clis/package.json');
  const lock = json(join(HOST_CLIS, 'package-lock.json'));
  t.same(lock.packages[''].dependencies, PINNED, 'the lockfile was made from these pins');
  for (const [p, v] of Object.entries(PINNED)) t.equal(lock.packages[`node_modules/${p}`]?.version, v, `${p} ${v} locked`);
  t.same(json(join(HOST_CLIS, 'package.json')).allowScripts, { '@anthropic-ai/claude-code': true }, 'Claude Code\'s postinstall (it puts the native binary in place) may run');
});

t.test('no file outside test/host-clis imports a host CLI\'s package', async (t) => {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!['node_modules', 'fixtures', 'host-clis', 'out'].includes(e.name)) walk(p);
      } else if (/\.(ts|mts|cts|mjs|cjs|js)$/.test(e.name)) {
        const src = readFileSync(p, 'utf8');
        for (const pkg of PACKAGES) {
          const q = pkg.replace(/[/.-]/g, (c) => `\\${c}`);
          if (new RegExp(`(from\\s*|import\\s*\\(\\s*|require\\s*\\(\\s*)['"]${q}(/[^'"]*)?['"]`).test(src)) found.push(`${relative(ROOT, p)}: ${pkg}`);
        }
      }
    }
  };
  for (const d of ['lib', 'bin', 'test', 'bench', 'scripts']) walk(join(ROOT, d));
  t.same(found, [], 'omni type-checks and builds with no host CLI installed (Pi\'s types: lib/hosts/pi/api.ts)');
});

t.test('every harness runs the CLI pinned in test/host-clis', async (t) => {
  const modules = join(HOST_CLIS, 'node_modules');
  for (const [name, bin] of [['claude', claudeBin()], ['codex', codexBin()], ['gemini', geminiBin()], ['pi', piBin()]]) {
    t.ok(bin.startsWith(modules + '/'), `${name}: ${bin}`);
    t.ok(existsSync(bin), `${name} is installed`);
  }
  t.equal(installed(), true, 'and the install is stamped as complete');
});

// ---------------------------------------------------------------------------------------------
// The installer, against a stand-in npm in a temporary folder.

/**
 * A folder shaped like test/host-clis with made-up pins, and a stand-in `npm` that "installs"
 * them: each package's package.json at its pin (or FAKE_NPM_WRONG's version for one of them),
 * and a .bin program that prints its version (FAKE_NPM_SAYS overrides pi's). Every run appends
 * a line to `runs`; FAKE_NPM_SLEEP makes it slow.
 */
function fakeFolder(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'omni-host-clis-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const folder = join(dir, 'host-clis');
  mkdirSync(folder);
  const deps = Object.fromEntries(PACKAGES.map((p, i) => [p, `9.${i}.0`]));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'x', private: true, dependencies: deps }));
  writeFileSync(join(folder, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: deps } } }));
  const runs = join(dir, 'runs');
  const npm = join(dir, 'npm');
  const hosts = JSON.stringify(HOSTS);
  writeFileSync(
    npm,
    `#!${process.execPath}
const fs = require('fs'), path = require('path');
const args = process.argv.slice(2);
const prefix = args[args.indexOf('--prefix') + 1];
if (args[0] !== 'ci' || prefix !== process.cwd()) { console.error('unexpected: ' + args.join(' ') + ' in ' + process.cwd()); process.exit(2); }
fs.appendFileSync(${JSON.stringify(runs)}, 'ci\\n');
if (process.env.FAKE_NPM_SLEEP) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.FAKE_NPM_SLEEP));
const nm = path.join(prefix, 'node_modules');
fs.rmSync(nm, { recursive: true, force: true });
fs.mkdirSync(path.join(nm, '.bin'), { recursive: true });
const deps = JSON.parse(fs.readFileSync(path.join(prefix, 'package.json'), 'utf8')).dependencies;
for (const [host, pkg] of Object.entries(${hosts})) {
  const v = process.env.FAKE_NPM_WRONG === pkg ? '0.0.1' : deps[pkg];
  fs.mkdirSync(path.join(nm, pkg), { recursive: true });
  fs.writeFileSync(path.join(nm, pkg, 'package.json'), JSON.stringify({ name: pkg, version: v }));
  const says = host === 'pi' && process.env.FAKE_NPM_SAYS ? process.env.FAKE_NPM_SAYS : v;
  fs.writeFileSync(path.join(nm, '.bin', host), '#!/bin/sh\\necho "' + says + ' (' + host + ')"\\n', { mode: 0o755 });
}
`,
  );
  chmodSync(npm, 0o755);
  const count = () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').filter(Boolean).length : 0);
  return { dir, folder, npm, count, deps };
}

const quiet = () => {};

t.test('installs once, then not again; again when the lockfile changes', async (t) => {
  const f = fakeFolder(t);
  t.equal(installed(f.folder), false, 'a fresh folder is not installed');
  t.equal(ensureHostClis({ dir: f.folder, npm: f.npm, log: quiet }), join(f.folder, 'node_modules'));
  t.equal(f.count(), 1, 'npm ci ran');
  t.equal(installed(f.folder), true);
  ensureHostClis({ dir: f.folder, npm: f.npm, log: quiet });
  t.equal(f.count(), 1, 'installed: npm is not run again');
  writeFileSync(join(f.folder, 'package-lock.json'), readFileSync(join(f.folder, 'package-lock.json'), 'utf8') + '\n');
  t.equal(installed(f.folder), false, 'a changed lockfile is not the one installed from');
  ensureHostClis({ dir: f.folder, npm: f.npm, log: quiet });
  t.equal(f.count(), 2, 'so it is installed again');
  rmSync(join(f.folder, 'node_modules', HOSTS.codex, 'package.json'));
  t.equal(installed(f.folder), false, 'a package gone from node_modules: not installed');
});

t.test('a version other than the pin is refused, and nothing is stamped', async (t) => {
  const f = fakeFolder(t);
  process.env.FAKE_NPM_WRONG = HOSTS.gemini;
  t.teardown(() => delete process.env.FAKE_NPM_WRONG);
  t.throws(() => ensureHostClis({ dir: f.folder, npm: f.npm, log: quiet }), new RegExp(`${HOSTS.gemini} is 0\\.0\\.1 after the install, pinned ${f.deps[HOSTS.gemini].replace(/\./g, '\\.')}`));
  t.equal(installed(f.folder), false);
  delete process.env.FAKE_NPM_WRONG;
  process.env.FAKE_NPM_SAYS = '0.0.2';
  t.teardown(() => delete process.env.FAKE_NPM_SAYS);
  t.throws(() => ensureHostClis({ dir: f.folder, npm: f.npm, log: quiet }), /`pi --version` said "0\.0\.2 \(pi\)/, 'the program itself must say the pin');
  t.equal(installed(f.folder), false);
  t.equal(existsSync(join(f.folder, '.installing')), false, 'the lock is released after a failure');
});

t.test('a failing npm is an error naming the folder', async (t) => {
  const f = fakeFolder(t);
  const bad = join(f.dir, 'bad-npm');
  writeFileSync(bad, '#!/bin/sh\nexit 7\n', { mode: 0o755 });
  t.throws(() => ensureHostClis({ dir: f.folder, npm: bad, log: quiet }), /`npm ci` in .*host-clis exited 7/);
  t.equal(installed(f.folder), false);
});

t.test('two processes at once: one install, both see the CLIs', async (t) => {
  const f = fakeFolder(t);
  const script = `import { ensureHostClis } from ${JSON.stringify(pathToFileURL(join(ROOT, 'scripts', 'host-clis.mjs')).href)};
ensureHostClis({ dir: ${JSON.stringify(f.folder)}, npm: ${JSON.stringify(f.npm)}, log: () => {} });
console.log('ok');`;
  const run = () =>
    new Promise<string>((res) => {
      const c = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, FAKE_NPM_SLEEP: '1500' }, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      c.stdout.on('data', (b: Buffer) => (out += b));
      c.on('close', (code) => res(`${code} ${out.trim()}`));
    });
  t.same(await Promise.all([run(), run()]), ['0 ok', '0 ok']);
  t.equal(f.count(), 1, 'npm ci ran once');
  t.equal(installed(f.folder), true);
});

t.test('a lock left by a process that died is taken over', async (t) => {
  const f = fakeFolder(t);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  mkdirSync(join(f.folder, '.installing'));
  writeFileSync(join(f.folder, '.installing', 'pid'), dead.stdout);
  ensureHostClis({ dir: f.folder, npm: f.npm, log: quiet });
  t.equal(f.count(), 1);
  t.equal(installed(f.folder), true);
  t.notOk(existsSync(join(f.folder, '.installing')), 'and released');
  t.ok(statSync(join(f.folder, 'node_modules')).isDirectory());
});
