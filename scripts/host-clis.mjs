// The real host CLIs the real-host tests run (Claude Code, Codex, Gemini CLI, Pi): pinned
// exactly in test/host-clis/package.json and its own package-lock.json, and installed there,
// apart from omni's install. They are ~925 MB that only those tests use; omni itself needs none
// of them (it uses Pi's types only, vendored in lib/hosts/pi/api.ts).
//
// `node scripts/host-clis.mjs` installs them when they are missing or stale and says where they
// are; `npm test` and .ci/run run it before the tests, and the harnesses call hostBin(), so a
// single real-host test file or a bench on a fresh clone installs them too. Installed means a
// stamp written after a verified install matches the pins and the lockfile, and each package
// has its pinned version: a few small reads, so every later call costs about nothing.
//
// `npm ci` from the lockfile, never a bare `npm install <cli>`: Claude Code 2.1.332 declares
// engines node>=22, and an unpinned install on Node 20 quietly picks an older release. Its
// postinstall (which puts the native binary in place) is allowed by the folder's allowScripts.
// After the install each CLI is asked its version, in a throwaway HOME, and must say the pin.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository: the nearest folder up from this file that holds test/host-clis (a bundled copy in bench/out/ runs from elsewhere). */
function findRoot() {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(d, 'test', 'host-clis', 'package.json'))) {
    const up = dirname(d);
    if (up === d) throw new Error(`host-clis: no test/host-clis/package.json above ${fileURLToPath(import.meta.url)}`);
    d = up;
  }
  return d;
}

export const ROOT = findRoot();
export const HOST_CLIS = join(ROOT, 'test', 'host-clis');

/** Each host: its npm package and the program its package links into node_modules/.bin. */
export const HOSTS = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
  pi: '@mariozechner/pi-coding-agent',
};

const STAMP = '.omni-host-clis';
const SLEEP = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(SLEEP, 0, 0, ms);

/** The pins: package name -> exact version, from the folder's package.json. */
export function pins(dir = HOST_CLIS) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies;
}

/** What the stamp must say: the pins and the lockfile they were installed from. */
function wanted(dir) {
  const h = createHash('sha256');
  for (const f of ['package.json', 'package-lock.json']) h.update(readFileSync(join(dir, f)));
  return `${process.platform}-${process.arch} ${h.digest('hex')}\n`;
}

function versionOf(dir, pkg) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** True when the pinned CLIs are in place: the stamp matches and every package has its pin. */
export function installed(dir = HOST_CLIS) {
  try {
    if (readFileSync(join(dir, 'node_modules', STAMP), 'utf8') !== wanted(dir)) return false;
  } catch {
    return false;
  }
  return Object.entries(pins(dir)).every(([pkg, v]) => versionOf(dir, pkg) === v);
}

/**
 * Runs `fn` while holding the folder's install lock (a directory: mkdir is atomic), so two test
 * processes that start on a fresh clone at once install once. A waiter returns as soon as the
 * holder has finished the install; a lock whose holder died is taken over.
 */
function withLock(dir, fn) {
  const lock = join(dir, '.installing');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    if (installed(dir)) return;
    let pid = 0;
    try {
      pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      /* just created: its pid comes next */
    }
    let alive = true;
    if (pid > 0) {
      try {
        process.kill(pid, 0);
      } catch (e) {
        alive = e.code === 'EPERM';
      }
    } else {
      try {
        alive = Date.now() - statSync(lock).mtimeMs < 60_000;
      } catch {
        continue;
      }
    }
    if (!alive) rmSync(lock, { recursive: true, force: true });
    else sleep(500);
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    if (!installed(dir)) fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** npm's settings that would point a child npm at another project (set by an outer `npm test`). */
const LOCATION = /^npm_config_(local_prefix|prefix|global|workspaces?|include_workspace_root|omit|include|production|only|dry_run|package_lock_only|ignore_scripts)$/i;

function install(dir, { npm, log }) {
  const rel = relative(process.cwd(), dir) || '.';
  log(`host-clis: installing the pinned host CLIs into ${join(rel, 'node_modules')} (npm ci; once, several minutes)\n`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !LOCATION.test(k)));
  // The child's stdout goes to our stderr: a tap test's stdout is its TAP stream.
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--engine-strict=false', '--prefix', dir], { cwd: dir, env, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`host-clis: \`npm ci\` in ${rel} exited ${r.status ?? r.signal}${r.error ? ` (${r.error.message})` : ''}`);
  verify(dir);
  writeFileSync(join(dir, 'node_modules', STAMP), wanted(dir));
}

/** Every CLI has its pinned version, and says so itself (in a throwaway HOME: some write there). */
function verify(dir) {
  const home = mkdtempSync(join(tmpdir(), 'omni-host-clis-'));
  try {
    for (const [host, pkg] of Object.entries(HOSTS)) {
      const pin = pins(dir)[pkg];
      const have = versionOf(dir, pkg);
      if (have !== pin) throw new Error(`host-clis: ${pkg} is ${have ?? 'missing'} after the install, pinned ${pin}`);
      const bin = join(dir, 'node_modules', '.bin', host);
      const r = spawnSync(bin, ['--version'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: home }, encoding: 'utf8', timeout: 60_000 });
      // Pi prints its version on stderr, the others on stdout.
      const said = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
      if (!said.split(/\s+/).includes(pin)) throw new Error(`host-clis: \`${host} --version\` said ${JSON.stringify(said.trim() || r.error?.message)}, pinned ${pin}`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Installs the pinned host CLIs unless they are already in place; returns their node_modules.
 * `npm` and `log` are for the tests of this script.
 */
export function ensureHostClis({ dir = HOST_CLIS, npm = 'npm', log = (s) => process.stderr.write(s) } = {}) {
  if (!installed(dir)) withLock(dir, () => install(dir, { npm, log }));
  return join(dir, 'node_modules');
}

/**
 * The pinned CLIs' node_modules, installing them first if they are not in place. A failed
 * install is reported on stderr and the path returned anyway: the test that needs a program
 * then fails on its absence, naming it.
 */
export function hostModules() {
  try {
    return ensureHostClis();
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return join(HOST_CLIS, 'node_modules');
  }
}

/** The path of a pinned host CLI's program (node_modules/.bin/<host>), installing first as hostModules does. */
export const hostBin = (host) => join(hostModules(), '.bin', host);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = Date.now();
  const already = installed();
  try {
    const modules = ensureHostClis();
    const list = Object.entries(HOSTS).map(([host, pkg]) => `${host} ${versionOf(HOST_CLIS, pkg)}`).join(', ');
    console.log(`host CLIs: ${list} in ${relative(process.cwd(), modules)} (${already ? 'already installed' : `installed in ${Math.round((Date.now() - t0) / 1000)} s`})`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
