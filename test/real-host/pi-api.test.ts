/**
 * omni's copy of Pi's extension types (lib/hosts/pi/api.ts, what lets omni type-check with no
 * host CLI installed) against the pinned Pi's own declarations: test/host-clis/pi-api-check.ts,
 * compiled with its own tsconfig inside test/host-clis, where Pi is installed. Pi's API, events
 * and context must fit omni's types, and omni's results must fit Pi's.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_CLIS, hostModules, ROOT } from '../../scripts/host-clis.mjs';
import { needs } from '../helpers/needs.js';

t.test('lib/hosts/pi/api.ts fits the pinned Pi\'s own types', async (t) => {
  const pi = join(hostModules(), '@mariozechner', 'pi-coding-agent', 'dist', 'index.d.ts');
  if (!needs(t, existsSync(pi), `${pi} (node scripts/host-clis.mjs installs the pinned Pi)`)) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(HOST_CLIS, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  t.equal(r.status, 0, `tsc -p test/host-clis/tsconfig.json:\n${r.stdout}${r.stderr}`);
});
