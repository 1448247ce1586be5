/**
 * `omni doctor` calls a host found only when its program is installed: a config folder proves
 * nothing (omni init itself creates ~/.pi/agent and ~/.cursor). A host wired without its program
 * is not `ok`. Run with the built bundle and a fake HOME; PATH has node and the system tools only,
 * except where a real pinned CLI (test/host-clis/node_modules/.bin) is put on it to show the found case.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OMNI } from '../helpers/omni.js';
import { needs } from '../helpers/needs.js';
import { hostBin } from '../../scripts/host-clis.mjs';

const BARE_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

function omni(args: string[], home: string, path = BARE_PATH) {
  const proj = join(home, 'proj');
  mkdirSync(proj, { recursive: true });
  return spawnSync(process.execPath, [OMNI, ...args], {
    cwd: proj,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: path, HOME: home, OMNI_HOME: join(home, '.omni'), LANG: 'C.UTF-8' },
  });
}

function homeWith(...dirs: string[]): string {
  const home = mkdtempSync(join(tmpdir(), 'omni-doctor-found-'));
  for (const d of dirs) mkdirSync(join(home, d), { recursive: true });
  return home;
}

interface Host { id: string; name: string; detected: boolean; wired: boolean; problems: { status: string; what: string; fix: string }[] }
const hostsOf = (stdout: string): Record<string, Host> => Object.fromEntries(JSON.parse(stdout).hosts.map((h: Host) => [h.id, h]));

t.test('config folders alone, no CLI on PATH: no host is found', async (t) => {
  const home = homeWith('.codex', '.gemini', '.claude', '.pi/agent', '.cursor');
  const r = omni(['doctor', '--json'], home);
  const hosts = hostsOf(r.stdout);
  for (const id of ['claude', 'codex', 'gemini', 'pi', 'cursor']) t.equal(hosts[id].detected, false, `${id}: a folder is not an installation`);
  const human = omni(['doctor'], home).stdout;
  t.notMatch(human, /found, not wired/, 'no host offered for wiring');
  t.match(human, /^Codex CLI\s+not found\s+no\s+-$/m);
  t.match(human, /^Gemini CLI\s+not found\s+no\s+-$/m);
  const init = omni(['init'], home);
  t.notMatch(init.stdout, /also found/, 'init does not name hosts it did not find');
});

t.test('wired into Codex, Gemini and Pi without their CLIs: not found, not ok, said in plain words', async (t) => {
  const home = homeWith('.codex', '.gemini');
  const init = omni(['init', '--codex', '--gemini', '--pi'], home);
  t.equal(init.status, 0, init.stderr);
  const hosts = hostsOf(omni(['doctor', '--json'], home).stdout);
  for (const id of ['codex', 'gemini', 'pi']) {
    t.equal(hosts[id].detected, false, `${id}: not found`);
    t.equal(hosts[id].wired, true, `${id}: wired`);
    t.ok(hosts[id].problems.some((p) => /not found on PATH/.test(p.what)), `${id}: the missing CLI is a problem`);
  }
  t.equal(hosts.pi.problems.find((p) => /not found/.test(p.what))?.what, 'Pi (`pi`) was not found on PATH');
  t.equal(hosts.codex.problems.find((p) => /not found/.test(p.what))?.what, 'Codex CLI (`codex`) was not found on PATH');
  t.equal(hosts.gemini.problems.find((p) => /not found/.test(p.what))?.what, 'Gemini CLI (`gemini`) was not found on PATH');
  const human = omni(['doctor'], home).stdout;
  t.notMatch(human, /CLI CLI/, 'no "the Codex CLI CLI"');
  t.match(human, /^Pi\s+not found\s+yes\s+full\s+warn$/m, 'Pi is not ok with no Pi installed');
  t.match(human, /^Codex CLI\s+not found\s+yes\s+\S+\s+(warn|FAIL)$/m);
});

t.test('a real CLI on PATH is found, with its version; the others are not', async (t) => {
  const codex = hostBin('codex');
  if (!needs(t, existsSync(codex), codex)) return;
  const home = homeWith('.gemini');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  symlinkSync(codex, join(bin, 'codex'));
  const hosts = hostsOf(omni(['doctor', '--json'], home, `${bin}:${BARE_PATH}`).stdout);
  t.equal(hosts.codex.detected, true, 'codex on PATH: found');
  t.match(JSON.parse(omni(['doctor', '--json'], home, `${bin}:${BARE_PATH}`).stdout).hosts.find((h: Host) => h.id === 'codex').version, /^\d+\.\d+\.\d+$/);
  t.equal(hosts.gemini.detected, false, 'gemini: folder only, not found');
  t.equal(hosts.claude.detected, false);
  t.equal(hosts.pi.detected, false);
  const human = omni(['doctor'], home, `${bin}:${BARE_PATH}`).stdout;
  t.match(human, /^Codex CLI: found, not wired \(omni init --codex\)$/m);
});
