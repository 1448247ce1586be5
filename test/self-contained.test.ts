import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/omni.js';

// A clone with nothing beside it must pass: no test, bench or script may read the team's
// shared folder (or any path outside the repository) at run time.
t.test('no test, bench or script reads outside the repository', async (t) => {
  // Built from pieces so this file does not itself read as one that reaches outside.
  const dir = ['sha', 'red'].join('');
  const outside = new RegExp(`\\.\\./${dir}|/work/${dir}|'${dir}',\\s*'samples'`);
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      // node_modules: test/host-clis/ installs the host CLIs there, third-party code.
      if (statSync(p).isDirectory()) { if (n !== 'fixtures' && n !== 'node_modules') walk(p); continue; }
      if (!/\.(ts|mjs|js|cjs|sh)$/.test(n) || p.endsWith('self-contained.test.ts')) continue;
      if (outside.test(readFileSync(p, 'utf8'))) offenders.push(p.slice(ROOT.length + 1));
    }
  };
  for (const d of ['test', 'bench', 'scripts']) walk(join(ROOT, d));
  t.same(offenders, [], 'every sample a test uses is under test/fixtures/');
});
