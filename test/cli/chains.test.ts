/** `omni rules explain` and `omni discover` name a chain's real producers, not its first word. */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from '../../lib/cli/rules.js';
import { unownedProducers } from '../../lib/cli/discover.js';
import { routeCommand } from '../../lib/distillers/registry.js';

async function explain(command: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'omni-chains-'));
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (b) => (out += b));
  const before = process.env.OMNI_HOME;
  process.env.OMNI_HOME = home;
  try {
    await run(['explain', '--cwd', home, command], { stdout, stderr: new PassThrough() });
    return out;
  } finally {
    if (before === undefined) delete process.env.OMNI_HOME;
    else process.env.OMNI_HOME = before;
    rmSync(home, { recursive: true, force: true });
  }
}

const heads = (command: string) => unownedProducers(routeCommand(command), command).map((u) => u.head);

t.test('omni discover lists the producers no spec owns, not the first word of a chain', async (t) => {
  t.same(heads('cd app && rm -rf node_modules && npm install'), [], 'npm install is install\'s: nothing to write a rule for');
  t.same(heads('make clean >/dev/null && make'), [], "make's");
  t.same(heads('npm run release'), [], 'read by what its output names');
  t.same(heads('git init -q . && git add -A && ./deploy.sh --dry-run'), ['git init', 'git add', './deploy.sh']);
  t.same(heads('./deploy.sh --dry-run'), ['./deploy.sh']);
  const [u] = unownedProducers(routeCommand('npm ci && ./deploy.sh'), 'npm ci && ./deploy.sh');
  t.equal(u.head, './deploy.sh');
  t.match(u.why, /beside npm ci \(install\)/, 'beside the producers that are owned');
  t.same(heads('OMNI_PASSTHROUGH=1 ./x'), ['./x'], 'passed through: as before');
});

t.test('omni rules explain names each producer and what reads it', async (t) => {
  const install = await explain('cd app && rm -rf node_modules && npm install');
  t.match(install, /^producer: npm install \(program npm, subcommand install\)$/m);
  t.match(install, /^owner: {4}install$/m);
  const make = await explain('make clean >/dev/null && make');
  t.match(make, /^owner: {4}cc$/m);
  t.match(make, /^reads: {4}make \(cc \+ what its output's lines name\)$/m);
  const release = await explain('npm run release');
  t.match(release, /^owner: {4}the specs the output's own lines name/m);
  t.match(release, /^reads: {4}npm run release \(what its output's lines name\)$/m);
  const chain = await explain('npm ci && npm test');
  t.match(chain, /^reads: {4}npm ci \(install\)$/m);
  t.match(chain, /^reads: {4}npm test \(npm-test \+ what its output's lines name \(test\)\)$/m);
  t.match(chain, /a line is hidden only where one of these recognises it as noise/);
  const answer = await explain('npm test && git status');
  t.match(answer, /an answer may be any line of the output: nothing is hidden/);
});
