/**
 * Every hook entry exits 0, even when the bundle is missing (a host reads any other exit as a
 * hook error and shows it to the user, or blocks on it): bin/omni.cjs answers from the one list
 * of hook entries, bin/hook-flags.json, which lib/cli/main.ts dispatches on and
 * lib/doors/hook.ts's HOOK_NAMES names.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempHome } from '../helpers/omni.js';
import { isHookFlag } from '../../lib/cli/main.js';
import { HOOK_NAMES } from '../../lib/doors/hook.js';

const FLAGS: string[] = JSON.parse(readFileSync(join(ROOT, 'bin', 'hook-flags.json'), 'utf8'));

t.test('one list: the bin, main and the hook door agree on the hook entries', async (t) => {
  t.same([...FLAGS].sort(), Object.keys(HOOK_NAMES).map((n) => `--${n}`).sort(), 'HOOK_NAMES names the same entries');
  for (const f of FLAGS) t.ok(isHookFlag(f), `main dispatches ${f} as a hook`);
  t.notOk(isHookFlag('--version'));
  t.notOk(isHookFlag('stats'));
});

t.test('with dist/ missing, every hook entry exits 0 and anything else exits 1', async (t) => {
  // An installed package's layout without its bundle: bin/ alone.
  const root = tempHome();
  mkdirSync(join(root, 'bin'));
  for (const f of ['omni.cjs', 'hook-flags.json']) copyFileSync(join(ROOT, 'bin', f), join(root, 'bin', f));
  const run = (args: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'omni.cjs'), ...args], { input: '{}', encoding: 'utf8', env: { ...process.env, OMNI_HOME: tempHome() } });
  for (const f of FLAGS) {
    const r = run([f]);
    t.equal(r.status, 0, `${f}: exit 0`);
    t.equal(r.stdout, '', `${f}: no reply`);
    t.match(r.stderr, /dist\/omni\.cjs is missing/, `${f}: says why on stderr`);
  }
  for (const args of [['stats'], ['--version'], ['exec', 'true'], []]) t.equal(run(args).status, 1, `omni ${args.join(' ')}: exit 1`);
});
