import t from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piInstaller } from '../../lib/hosts/pi/install.js';

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'omni-pi-install-'));
  const dist = join(root, 'omni', 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'omni.cjs'), '');
  writeFileSync(join(dist, 'omni-pi.cjs'), '');
  const home = join(root, 'home');
  const proj = join(root, 'proj');
  mkdirSync(proj, { recursive: true });
  // Pi installed: a `pi` that answers --version.
  const pi = join(root, 'pi');
  writeFileSync(pi, '#!/bin/sh\necho 0.73.1\n');
  chmodSync(pi, 0o755);
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: '', OMNI_PI_BIN: pi };
  return { root, dist, home, proj, env, opts: { scope: 'user' as const, cwd: proj, bin: join(dist, 'omni.cjs'), preHook: true, env } };
}

t.test('install lists the bundle once, keeps every other key and extension, and a second run changes nothing', async (t) => {
  const { home, dist, opts } = setup();
  const file = join(home, '.pi', 'agent', 'settings.json');
  mkdirSync(join(home, '.pi', 'agent'), { recursive: true });
  writeFileSync(file, JSON.stringify({ theme: 'dark', extensions: ['/x/other.ts', '/old/place/dist/omni-pi.cjs'] }, null, 2) + '\n');
  const r = piInstaller.install(opts);
  t.equal(r.changed, true);
  const after = readFileSync(file, 'utf8');
  t.same(JSON.parse(after), { theme: 'dark', extensions: ['/x/other.ts', join(dist, 'omni-pi.cjs')] }, 'stale omni path replaced, foreign kept');
  t.equal(piInstaller.install(opts).changed, false);
  t.equal(readFileSync(file, 'utf8'), after, 'byte-identical');
  const st = await piInstaller.status({ ...opts, bin: opts.bin });
  t.equal(st.wired, true);
  t.equal(st.tier, 'full');
  t.same(st.problems, []);
  t.equal(piInstaller.uninstall(opts).changed, true);
  t.same(JSON.parse(readFileSync(file, 'utf8')), { theme: 'dark', extensions: ['/x/other.ts'] });
});

t.test('project scope writes .pi/settings.json; a listed bundle that is gone is a failure with its fix', async (t) => {
  const { proj, opts, env } = setup();
  piInstaller.install({ ...opts, scope: 'project' });
  const file = join(proj, '.pi', 'settings.json');
  t.match(readFileSync(file, 'utf8'), /omni-pi\.cjs/);
  writeFileSync(file, JSON.stringify({ extensions: ['/gone/dist/omni-pi.cjs'] }));
  const st = await piInstaller.status({ scope: 'user', cwd: proj, env, bin: null });
  t.equal(st.problems[0]?.status, 'fail');
  t.match(st.problems[0]?.fix, /omni init --pi/);
});

t.test('a settings file whose extensions is not a list is refused, not overwritten', async (t) => {
  const { home, opts } = setup();
  mkdirSync(join(home, '.pi', 'agent'), { recursive: true });
  const file = join(home, '.pi', 'agent', 'settings.json');
  writeFileSync(file, '{"extensions": "oops"}');
  t.throws(() => piInstaller.install(opts), /not a list/);
  t.equal(readFileSync(file, 'utf8'), '{"extensions": "oops"}');
});

t.test('Pi is found by its program, not by ~/.pi/agent; wired without it is a warning', async (t) => {
  const { home, opts } = setup();
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: '' };
  t.equal(piInstaller.detect(opts.env).detected, true, 'OMNI_PI_BIN');
  t.equal(piInstaller.detect(opts.env).version, '0.73.1');
  piInstaller.install({ ...opts, env });
  t.equal(piInstaller.detect(env).detected, false, 'the settings folder omni init just wrote is not Pi');
  const st = await piInstaller.status({ ...opts, env, bin: opts.bin });
  t.equal(st.wired, true);
  t.same(st.problems.map((p) => [p.status, p.what]), [['warn', 'Pi (`pi`) was not found on PATH']]);
});
