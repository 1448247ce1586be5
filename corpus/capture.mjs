#!/usr/bin/env node
// The corpus harness: one runner for every case of corpus/cases/. A case is a row of
// corpus/rows/ (id, kind, family, fixture, command, keep steps, about, extra env); a fixture is
// a script of corpus/fixtures/ that builds the scratch project the command runs in.
//
//   node corpus/capture.mjs 'REGEX'              capture the rows whose id matches
//   node corpus/capture.mjs 'REGEX' --out DIR    write the case folders to DIR, not corpus/cases
//   node corpus/capture.mjs --scratch DIR ...    reuse a scratch dir (fixtures are not rebuilt)
//   node corpus/capture.mjs --list ['REGEX']     the rows: id, fixture, command
//   node corpus/capture.mjs --next RANGE         the next free id of a named range (keep.mjs)
//   node corpus/capture.mjs --keep ['REGEX']     re-derive must_keep.txt from the stored outputs
//
// Every output.txt is the real merged stdout+stderr of running the row's command with bash -c
// in its fixture's folder, stdin from /dev/null, under `env -i` and a fixed environment (TZ=UTC,
// C.UTF-8, a scratch git config and npm/pip config, so the machine's own settings don't leak
// in) plus the row's env (e.g. CLAUDECODE=1 for the host's variant of a command). Nothing in an
// output is hand-written; must_keep.txt is derived by the row's keep steps (keep.mjs), and every
// line of it must be a byte substring of the output.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustKeep, mustKeepFile, nextId, notInOutput } from './keep.mjs';
import { ROWS } from './rows/index.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, 'fixtures');

/** `{T}` (the row's namespace scratch root), `{SCRATCH}`, `{HOME}` in a row's text. */
export function expand(s, vars) {
  return s.replace(/\{(T|SCRATCH|HOME)\}/g, (_, k) => vars[k]);
}

const SYS_PATH = '/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The fixed environment every fixture and command runs in; a row's env adds to it. */
export function baseEnv(vars) {
  const node = dirname(process.execPath);
  return {
    PATH: `${node}:${SYS_PATH}`, HOME: vars.HOME, USER: 'root', LOGNAME: 'root', SHELL: '/bin/bash',
    TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'xterm-256color', COLUMNS: '120',
    GIT_CONFIG_GLOBAL: join(vars.SCRATCH, 'gitconfig'), GIT_PAGER: 'cat', PAGER: 'cat',
    GOCACHE: join(vars.SCRATCH, 'gocache'), GOPATH: join(vars.SCRATCH, 'gopath'), GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local',
    CARGO_TERM_PROGRESS_WHEN: 'never', npm_config_update_notifier: 'false',
    npm_config_userconfig: join(vars.SCRATCH, 'npmrc'), PIP_CONFIG_FILE: '/dev/null', DEBIAN_FRONTEND: 'noninteractive',
  };
}

/**
 * What a host adds to the environment of the commands it runs. Claude Code 2.1.332's Bash tool
 * (read from `env` run through the pinned CLI): CLAUDECODE and AI_AGENT switch some tools to an
 * agent mode (jest 30's agent reporter), so a row with `host: 'claude'` captures that variant.
 * Per-session values (CLAUDE_CODE_SESSION_ID, CLAUDE_PID, sockets, tokens) are left out.
 */
export const HOSTS = {
  claude: {
    CLAUDECODE: '1', AI_AGENT: 'claude-code_2-1-332_agent', CLAUDE_CODE_CHILD_SESSION: '1', CLAUDE_CODE_SESSION_ATTENDED: '0',
    CLAUDE_CODE_ENTRYPOINT: 'sdk-cli', GIT_EDITOR: 'true', COREPACK_ENABLE_AUTO_PIN: '0', NoDefaultCurrentDirectoryInExePath: '1',
  },
};

function envOf(row, vars) {
  const env = { ...baseEnv(vars), ...(row.host ? HOSTS[row.host] : {}) };
  for (const [k, v] of Object.entries(row.env ?? {})) {
    if (v === null) delete env[k];
    else env[k] = expand(String(v), vars);
  }
  return env;
}

function prepareScratch(scratch) {
  mkdirSync(scratch, { recursive: true });
  for (const d of ['gocache', 'gopath', 'home']) mkdirSync(join(scratch, d), { recursive: true });
  const gc = join(scratch, 'gitconfig');
  if (!existsSync(gc)) writeFileSync(gc, '[user]\n\tname = Dana Developer\n\temail = dana@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n');
  if (!existsSync(join(scratch, 'npmrc'))) writeFileSync(join(scratch, 'npmrc'), '');
}

const sh = (cwd, script, env, opts = {}) =>
  spawnSync('bash', ['-c', script], { cwd, env, stdio: opts.stdio ?? ['ignore', 'inherit', 'inherit'], timeout: (opts.timeout ?? 1800) * 1000 });

function buildFixture(name, vars, env, built) {
  if (!name || built.has(name)) return true;
  const done = join(vars.SCRATCH, '.fixtures', name.replace(/\//g, '__'));
  if (existsSync(done)) { built.add(name); return true; }
  const file = join(FIXTURES, `${name}.sh`);
  if (!existsSync(file)) throw new Error(`no fixture ${name} (${file})`);
  log(`fixture ${name}`);
  const r = spawnSync('bash', [file], { cwd: vars.T, env: { ...env, T: vars.T, SCRATCH: vars.SCRATCH, FIXTURES }, stdio: ['ignore', 'inherit', 'inherit'], timeout: 3600_000 });
  if (r.status !== 0) { log(`fixture ${name} failed (exit ${r.status})`); return false; }
  mkdirSync(dirname(done), { recursive: true });
  writeFileSync(done, '');
  built.add(name);
  return true;
}

const log = (s) => process.stderr.write(`[corpus] ${s}\n`);

/** The row's folder: relative to its namespace root; a glob (a versioned source dir) resolves to its first match. */
function cwdOf(row, vars) {
  const rel = expand(row.cwd ?? '.', vars);
  if (!rel.includes('*')) return resolve(vars.T, rel);
  const r = spawnSync('bash', ['-c', `ls -d ${rel} 2>/dev/null | head -1`], { cwd: vars.T });
  const hit = r.stdout?.toString().trim();
  return hit ? resolve(vars.T, hit) : null;
}

/** Capture one row into outDir/<id>/. */
export function captureRow(row, { scratch, outDir, built = new Set() }) {
  const vars = { SCRATCH: scratch, T: join(scratch, row.ns ?? 'eco'), HOME: process.env.HOME ?? '/root' };
  mkdirSync(vars.T, { recursive: true });
  const env = envOf(row, vars);
  if (!buildFixture(row.fixture, vars, { ...baseEnv(vars) }, built)) return { id: row.id, skipped: 'fixture failed' };
  const cwd = cwdOf(row, vars);
  if (!cwd) return { id: row.id, skipped: `no folder ${row.cwd}` };
  mkdirSync(cwd, { recursive: true });
  // before/after steps may source fixture helpers; the captured command never sees these
  const hookEnv = { ...env, T: vars.T, SCRATCH: vars.SCRATCH, FIXTURES };
  if (row.before) sh(cwd, expand(row.before, vars), hookEnv, { stdio: ['ignore', 'ignore', 'ignore'] });
  let cmd = expand(row.cmd, vars);
  if (row.cmdFrom) cmd = (sh(cwd, expand(row.cmdFrom, vars), hookEnv, { stdio: ['ignore', 'pipe', 'ignore'] }).stdout ?? '').toString().trim();
  const d = join(outDir, row.id);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const fd = openSync(join(d, 'output.txt'), 'w');
  const started = Date.now();
  const r = spawnSync('bash', ['-c', row.run ? expand(row.run, vars) : cmd], { cwd, env, stdio: ['ignore', fd, fd], timeout: (row.timeout ?? 600) * 1000 });
  closeSync(fd);
  const rc = r.status ?? (r.signal ? 128 + 15 : 1);
  if (row.after) sh(cwd, expand(row.after, vars), hookEnv, { stdio: ['ignore', 'ignore', 'ignore'] });
  const output = readFileSync(join(d, 'output.txt'));
  const keep = mustKeep(output, row.keep, row.dialect);
  writeFileSync(join(d, 'cmd.txt'), cmd);
  writeFileSync(join(d, 'kind.txt'), row.kind);
  writeFileSync(join(d, 'family.txt'), row.family);
  writeFileSync(join(d, 'exit_code.txt'), String(rc));
  writeFileSync(join(d, 'must_keep.txt'), mustKeepFile(keep));
  if (row.about) writeFileSync(join(d, 'about.txt'), `${row.about}\n`);
  const bad = notInOutput(output, keep);
  log(`${row.id}  rc=${rc}  ${output.length} bytes  ${keep.length} must-keep  ${((Date.now() - started) / 1000).toFixed(1)} s${bad.length ? `  NOT IN OUTPUT: ${bad.length}` : ''}`);
  return { id: row.id, rc, bytes: output.length, keep: keep.length, bad };
}

/** The ids in use: every row and every case folder. */
export function usedIds(casesDir = join(HERE, 'cases')) {
  return [...ROWS.map((r) => r.id), ...(existsSync(casesDir) ? readdirSync(casesDir) : [])];
}

function main(argv) {
  const flag = (name) => { const i = argv.indexOf(name); if (i < 0) return undefined; const v = argv[i + 1]; argv.splice(i, 2); return v; };
  const has = (name) => { const i = argv.indexOf(name); if (i < 0) return false; argv.splice(i, 1); return true; };
  const next = flag('--next');
  if (next) { console.log(nextId(next, usedIds())); return 0; }
  const outDir = flag('--out') ?? join(HERE, 'cases');
  const scratchArg = flag('--scratch');
  const list = has('--list');
  const rekeep = has('--keep');
  const only = new RegExp(argv[0] ?? '.');
  const rows = ROWS.filter((r) => only.test(r.id));
  if (list) {
    for (const r of rows) console.log(`${r.id}\t${r.fixture ?? '-'}\t${r.cwd ?? '.'}\t${r.cmd}`);
    return 0;
  }
  if (rekeep) {
    let bad = 0;
    for (const r of rows) {
      const d = join(outDir, r.id);
      if (!existsSync(join(d, 'output.txt'))) continue;
      const output = readFileSync(join(d, 'output.txt'));
      const keep = mustKeep(output, r.keep, r.dialect);
      writeFileSync(join(d, 'must_keep.txt'), mustKeepFile(keep));
      bad += notInOutput(output, keep).length;
    }
    log(`must_keep.txt re-derived for ${rows.length} rows, ${bad} lines not in their output`);
    return bad ? 1 : 0;
  }
  const scratch = scratchArg ?? mkdtempSync(join(tmpdir(), 'omni-corpus-'));
  prepareScratch(scratch);
  log(`scratch dir: ${scratch}; ${rows.length} rows -> ${outDir}`);
  const built = new Set();
  let bad = 0;
  for (const row of rows) {
    const r = captureRow(row, { scratch, outDir, built });
    if (r.skipped) { log(`${row.id}: skipped (${r.skipped})`); bad++; }
    else bad += r.bad.length;
  }
  log(`done (scratch: ${scratch})`);
  return bad ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
