import t from 'tap';
import { distillCase } from '../helpers/cases.js';

for (const name of ['731-ls-la', '732-tree', '733-ps-aux', '724-find-name', '737-find-type-f']) {
  t.test(`keeps every row of ${name.slice(4)}`, async (t) => {
    const { r, c, text } = await distillCase(name);
    t.equal(r.distiller, 'enumeration');
    for (const row of c.output.toString('utf8').split('\n')) t.ok(text.includes(row), row);
    t.ok(r.output.equals(c.output), 'byte-identical');
  });
}

t.test('keeps every row of an env listing, including ordinary PASS and passed values', async (t) => {
  const { text, rawText } = await distillCase('734-env-secrets');
  for (const row of rawText.trimEnd().split('\n')) t.ok(text.includes(row.split('=')[0] + '='), row.split('=')[0]);
  t.match(text, /^PASS=3$/m);
  t.match(text, /^passed=3$/m);
});

t.test('a failing kubectl or docker listing comes back unchanged', async (t) => {
  for (const [name, code] of [['735-kubectl-get-no-cluster', 1], ['736-docker-ps-no-daemon', 1]] as const) {
    const { r, c } = await distillCase(name, undefined, code);
    t.ok(r.output.equals(c.output), name);
  }
});

t.test('enumerations and reads route to their distillers and are never rewritten by the pre-hook', async (t) => {
  const { routeCommand } = await import('../../lib/distillers/registry.js');
  for (const [cmd, name] of [['ls -la', 'enumeration'], ['printenv', 'enumeration'], ['kubectl get pods -A', 'enumeration'], ['docker ps -a', 'enumeration'], ['git status', 'git-status'], ['cat src/index.ts', 'read'], ['sed -n 1,20p a.ts', 'read'], ['tail -n 50 src/index.ts', 'read']]) {
    const r = routeCommand(cmd);
    t.equal(r.distiller, name, cmd);
    t.equal(r.rewrite, false, `${cmd} is not rewritten`);
  }
  for (const [cmd, name] of [['git log -30', 'git'], ['npm ci', 'install'], ['python3 -m pip install flask', 'install'], ['terraform plan', 'infra'], ['cat /var/log/nginx/access.log', 'logs'], ['kubectl logs web-1', 'logs'], ['rg TODO', 'search']]) {
    t.equal(routeCommand(cmd).distiller, name, cmd);
  }
});
