import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/omni.js';
import { claimants, routeCommand } from '../../lib/distillers/registry.js';

// Routing keeps the registry's order (most specific first), and so every pair of specs that
// could collide is tested: over every command line in the corpus (cmd.txt) and in the routing
// test's tables, a line two specs claim must be a collision listed below with its winner, and
// routeCommand must pick that winner. A new overlap fails until someone states who wins.
const COLLISIONS: Record<string, string> = {
  // `cat server.log`, `tail -n 40 /var/log/dpkg.log`: a reader of a log file. The log's
  // templates fold (logs); a read of any other file is the answer, whole (read).
  'logs | read': 'logs',
};

function commands(): string[] {
  const out = new Set<string>();
  const cases = join(ROOT, 'corpus', 'cases');
  for (const c of readdirSync(cases)) {
    const p = join(cases, c, 'cmd.txt');
    if (existsSync(p)) out.add(readFileSync(p, 'utf8').trim());
  }
  const table = readFileSync(join(ROOT, 'test', 'distillers', 'routing.test.ts'), 'utf8');
  for (const m of table.matchAll(/'((?:[^'\\\n]|\\.)+)'/g)) out.add(m[1]!.replace(/\\'/g, "'"));
  return [...out].filter((c) => c.trim());
}

const all = commands();

t.test('the tables are read', async (t) => {
  t.ok(all.length > 200, `${all.length} command lines`);
  t.same(claimants('npx jest --verbose'), ['jest']);
});

t.test('no command line is claimed by two specs unless the winner is stated', async (t) => {
  const found: Record<string, string> = {};
  for (const cmd of all) {
    const who = claimants(cmd);
    if (who.length < 2) continue;
    for (let i = 0; i < who.length; i++) {
      for (let j = i + 1; j < who.length; j++) found[`${who[i]} | ${who[j]}`] = who[0]!;
    }
    const winner = COLLISIONS[`${who[0]} | ${who[1]}`];
    t.equal(routeCommand(cmd).distiller, winner ?? who[0], cmd);
  }
  t.same(found, COLLISIONS, 'every colliding pair, with the spec that wins it');
});
