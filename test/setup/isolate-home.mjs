// Loaded by tap into every test process (package.json "tap"."node-arg": --import), before the
// test file: the process gets a HOME, an OMNI_HOME and a TMPDIR of its own, in one directory
// removed when it exits. A test, or the omni it runs, then never writes the developer's real
// ~/.omni (logDiagnostic writes $OMNI_HOME/omni.log, a store opens $OMNI_HOME/omni.db) nor
// ~/.claude, ~/.codex, ~/.gemini, ~/.npm or ~/.config, whatever it forgets to set; children
// spawned with process.env inherit all of it. The hosts' own variables and omni's knobs are
// cleared too, so a developer's shell (OMNI_PASSTHROUGH=1, CLAUDE_CONFIG_DIR) cannot change a
// result. scripts/test.mjs checks afterwards that the real ~/.omni was not written, and
// test/home-isolation.test.ts that this ran.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const realHome = process.env.OMNI_TEST_REAL_HOME || homedir();
const root = mkdtempSync(join(tmpdir(), 'omni-test-run-'));
const home = join(root, 'home');
const tmp = join(root, 'tmp');
mkdirSync(home);
mkdirSync(tmp);
// omni's own knobs go; the test suite's (OMNI_TEST_*, OMNI_PROPERTY_*, OMNI_REAL_HOST_*) stay.
for (const k of Object.keys(process.env)) {
  if (k.startsWith('OMNI_') && !/^OMNI_(TEST|PROPERTY|REAL_HOST)_/.test(k)) delete process.env[k];
}
for (const k of ['CLAUDE_CONFIG_DIR', 'CLAUDE_PROJECT_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'PI_CODING_AGENT_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME']) delete process.env[k];
Object.assign(process.env, {
  HOME: home,
  OMNI_HOME: join(home, '.omni'),
  TMPDIR: tmp,
  OMNI_TEST_REAL_HOME: realHome,
  OMNI_TEST_ISOLATED: root,
});
process.on('exit', () => {
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    /* best effort: a child still writing there keeps it */
  }
});
