import t from 'tap';
import { omni, tempHome } from '../helpers/omni.js';
import { openStore } from '../../lib/store/open.js';
import { corpusCase } from '../distillers/cases.js';
import { specByName } from '../../lib/distillers/registry.js';

// Stats group runs by the spec's family (test, build, git, …), not by the distiller's name:
// the run row's `family` is DistillerSpec.family.
t.test('a run row stores its distiller family, not the distiller name', async (t) => {
  const c = corpusCase('jest-pass');
  t.equal(specByName('jest').family, 'test');
  const home = tempHome();
  const r = omni(['pipe', '--command', 'npx jest'], { input: c.output, env: { OMNI_HOME: home } });
  t.equal(r.status, 0);
  t.ok(r.stdout.length > 0, 'it printed the distilled output');
  const s = openStore({ home });
  const rows = s.stmt('SELECT family FROM runs').all() as Array<{ family: string }>;
  t.same(rows.map((x) => x.family), ['test']);
});
