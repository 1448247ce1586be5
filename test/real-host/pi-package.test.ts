/**
 * `pi install` of this package: the real Pi (pinned in test/host-clis/) installs the checkout
 * as a Pi package, finds omni's extension through package.json's "pi" field (the bundle
 * dist/omni-pi.cjs), and loads it from omni's own node_modules, where no host CLI is. The
 * extension then distils a noisy successful command. pi.test.ts proves the extension itself.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { canRunPi, piBin, ROOT, runPi } from './pi-harness.js';
import { toolMessageFor } from './pi-standin.js';
import { needs } from '../helpers/needs.js';

const NOISE = `for i in $(seq 1 300); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "added 300 packages in 3s"`;

t.test('`pi install <this checkout>` loads omni\'s extension', async (t) => {
  const bundle = join(ROOT, 'dist', 'omni-pi.cjs');
  if (!needs(t, canRunPi() && existsSync(bundle), `${piBin()} and ${bundle} (npm test builds it)`)) return;
  t.same(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).pi, { extensions: ['./dist/omni-pi.cjs'] }, 'the "pi" field names the bundle');
  let installed = '';
  const run = await runPi([{ bash: NOISE }, { text: 'done' }], {
    extensions: [],
    noDiscovery: false,
    tag: 'package',
    beforeSpawn: ({ home, proj }) => {
      const r = spawnSync(process.execPath, [piBin(), 'install', ROOT], { cwd: proj, env: { PATH: process.env.PATH, HOME: home, PI_OFFLINE: '1', PI_TELEMETRY: '0' }, encoding: 'utf8', timeout: 120_000 });
      installed = `${r.status} ${r.stdout}${r.stderr}`;
    },
  });
  t.teardown(() => rmSync(run.dir, { recursive: true, force: true }));
  t.match(installed, /^0 [\s\S]*Installed /, 'pi install succeeded');
  t.equal(run.code, 0, `Pi ended normally (${run.stderr.slice(0, 300)})`);
  t.notMatch(run.stderr, /extension|error/i, 'Pi reported no extension error');
  const seen = toolMessageFor(run.requests, run.callId(0))?.text ?? '';
  t.match(seen, /\[omni: [^\]\n]* — omni retrieve [0-9a-f]{16}\]/, 'the output reached the model distilled');
  t.ok(seen.trimEnd().endsWith('added 300 packages in 3s'), 'with its last line');
});
