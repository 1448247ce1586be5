/**
 * `omni init --all` then `omni doctor` on a machine with the real Claude Code, Codex, Gemini and
 * Pi CLIs installed (the pinned ones in test/host-clis/, on PATH): each host detected with its version,
 * wired, and shown with its tier; what is not done yet (Codex's trust step) is a failure with
 * its fix. Then `--uninstall` takes every entry out again.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OMNI } from '../helpers/omni.js';
import { needs } from '../helpers/needs.js';
import { hostModules } from '../../scripts/host-clis.mjs';

const BIN = join(hostModules(), '.bin');
const hosts = ['claude', 'codex', 'gemini', 'pi'];
const missing = hosts.filter((h) => !existsSync(join(BIN, h)));

function omni(args: string[], home: string, cwd: string) {
  return spawnSync(process.execPath, [OMNI, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    // The four CLIs' `--version` run one after another, each a Node start: on a loaded CI
    // machine one can outlast doctor's default 15 s, which is not what this test is about.
    env: { PATH: `${BIN}:${process.env.PATH}`, HOME: home, OMNI_HOME: join(home, '.omni'), LANG: 'C.UTF-8', OMNI_CLI_VERSION_TIMEOUT_MS: '180000' },
  });
}

t.test('doctor shows every installed host with its tier', async (t) => {
  if (!needs(t, !missing.length && existsSync(OMNI), `needs ${missing.join(', ') || 'dist/omni.cjs'}`)) return;
  const home = mkdtempSync(join(tmpdir(), 'omni-doctor-home-'));
  const proj = mkdtempSync(join(tmpdir(), 'omni-doctor-proj-'));

  const before = omni(['doctor', '--json'], home, proj);
  t.equal(before.status, 1, 'wired nowhere: red');
  const b = JSON.parse(before.stdout);
  t.same(b.hosts.filter((h: { detected: boolean }) => h.detected).map((h: { id: string }) => h.id).sort(), ['claude', 'codex', 'gemini', 'pi'], 'the four CLIs are found on PATH');
  t.ok(b.hosts.every((h: { wired: boolean }) => !h.wired), 'nothing wired yet');

  const init = omni(['init', '--all'], home, proj);
  t.equal(init.status, 0, init.stderr);
  t.match(init.stdout, /trust/, 'init tells the user about Codex\'s trust step');

  const after = omni(['doctor', '--json'], home, proj);
  const d = JSON.parse(after.stdout);
  const byId = Object.fromEntries(d.hosts.map((h: { id: string }) => [h.id, h]));
  t.equal(byId.claude.version, '2.1.332');
  t.equal(byId.codex.version, '0.171.0');
  t.equal(byId.gemini.version, '0.61.0');
  t.equal(byId.pi.version, '0.73.1');
  for (const id of ['claude', 'codex', 'gemini', 'pi', 'cursor']) t.equal(byId[id].wired, true, `${id} wired`);
  t.same(
    Object.fromEntries(['claude', 'codex', 'gemini', 'pi', 'cursor'].map((id) => [id, byId[id].tier])),
    // Gemini CLI 0.61.0 replaces an output only as the tool's error (OMNI_REPLACE_AS_ERROR=1),
    // and the rewrite that made it full is opt-in now (omni init --rewrite).
    { claude: 'full', codex: 'full', gemini: 'memory', pi: 'full', cursor: 'handoff' },
    'each host\'s tier',
  );
  t.match(byId.gemini.note, /omni init --gemini --rewrite/, 'Gemini: the note says how to get more');
  t.equal(omni(['init', '--gemini', '--rewrite'], home, proj).status, 0);
  t.equal(JSON.parse(omni(['doctor', '--json'], home, proj).stdout).hosts.find((h: { id: string }) => h.id === 'gemini').tier, 'full', 'with the rewrite: full');
  t.same(byId.claude.problems, [], 'Claude Code: nothing to fix (its probe reply was accepted)');
  const codexFail = byId.codex.problems.find((p: { status: string }) => p.status === 'fail');
  t.match(codexFail?.what ?? '', /trust/, 'Codex: the untrusted hooks are the failure');
  t.match(codexFail?.fix ?? '', /\/hooks/, 'with the fix');
  t.equal(after.status, 1, 'so doctor is red until the user trusts them');

  const human = omni(['doctor'], home, proj).stdout;
  t.match(human, /^host\s+installed\s+wired\s+tier\s+status$/m, 'one table');
  t.match(human, /^Codex CLI\s+0\.171\.0\s+yes\s+full\s+FAIL$/m);
  t.match(human, /^Cursor\s+not found\s+yes\s+handoff\s+warn$/m, 'Cursor: no cursor CLI here (init wrote ~/.cursor/mcp.json, which proves nothing), and no rule file at user scope');

  t.equal(omni(['init', '--all', '--uninstall'], home, proj).status, 0);
  const gone = JSON.parse(omni(['doctor', '--json'], home, proj).stdout);
  t.ok(gone.hosts.every((h: { wired: boolean }) => !h.wired), 'uninstall unwired every host');
  t.same(JSON.parse(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')).hooks ?? {}, {}, 'no omni hook left in Gemini\'s settings');
});

t.test('init without a host flag, not on a terminal, wires Claude Code and names the other hosts it found', async (t) => {
  if (!needs(t, !missing.length && existsSync(OMNI), `needs ${missing.join(', ') || 'dist/omni.cjs'}`)) return;
  const home = mkdtempSync(join(tmpdir(), 'omni-init-home-'));
  const proj = mkdtempSync(join(tmpdir(), 'omni-init-proj-'));
  const r = omni(['init'], home, proj);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /also found .*Codex CLI \(omni init --codex\).*Gemini CLI \(omni init --gemini\)/);
  const d = JSON.parse(omni(['doctor', '--json'], home, proj).stdout);
  t.same(d.hosts.filter((h: { wired: boolean }) => h.wired).map((h: { id: string }) => h.id), ['claude'], 'only Claude Code wired');
});
