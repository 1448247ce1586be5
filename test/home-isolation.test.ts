/**
 * No test touches the developer's real home. Every test process gets a HOME, an OMNI_HOME and a
 * TMPDIR of its own (test/setup/isolate-home.mjs, loaded by tap before each test file), so what
 * omni writes by default (logDiagnostic's $OMNI_HOME/omni.log, the store) lands there, in this
 * process and in the omni processes it spawns. scripts/test.mjs checks after a whole run that
 * the real ~/.omni and the hosts' settings files were not written.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { OMNI } from './helpers/omni.js';
import { omniHome } from '../lib/store/open.js';
import { logDiagnostic } from '../lib/store/diagnostics.js';

const root = process.env.OMNI_TEST_ISOLATED ?? '';
const inside = (p: string) => root !== '' && !relative(root, p).startsWith('..');

t.test('this test process runs in a home of its own', async (t) => {
  t.ok(root !== '' && existsSync(root), `the isolation ran (OMNI_TEST_ISOLATED=${root || 'unset'})`);
  if (!root) return;
  t.not(homedir(), process.env.OMNI_TEST_REAL_HOME, 'HOME is not the real home');
  t.ok(inside(homedir()), `HOME ${homedir()} is the test's`);
  t.ok(inside(omniHome()), `omni's home ${omniHome()} is the test's`);
  t.ok(inside(tmpdir()), `TMPDIR ${tmpdir()} is the test's`);
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'OMNI_PASSTHROUGH', 'OMNI_SESSION_ID']) t.equal(process.env[k], undefined, `${k} is not inherited`);
});

t.test('omni writes its log by default into the test home, in process and in a spawned omni', async (t) => {
  if (!root) return t.fail('not isolated');
  logDiagnostic('home-isolation', 'in process');
  t.match(readFileSync(join(omniHome(), 'omni.log'), 'utf8'), /home-isolation in process/, 'logDiagnostic with the default env');
  // A hook given something that is not JSON logs it: with process.env as it is, no OMNI_HOME given.
  const r = spawnSync(process.execPath, [OMNI, '--post-hook'], { input: 'not json {', env: process.env });
  t.equal(r.status, 0);
  t.match(readFileSync(join(omniHome(), 'omni.log'), 'utf8'), /post-hook: stdin is not JSON/, 'the spawned hook logged into the test home');
});
