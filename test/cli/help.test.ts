/**
 * Help: every subcommand's --help prints its usage on stdout and exits 0; `omni --help` lists
 * every subcommand with its flags, the same ones the README's Subcommands table names; init's
 * host flags are exactly the hosts omni can wire. And `omni retrieve` of a well-formed handle
 * nobody archived exits 2, as the README says. All through the built bundle.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, ROOT } from '../helpers/omni.js';
import { INSTALLERS } from '../../lib/hosts/installers.js';
import { SUBCOMMAND_USAGE } from '../../lib/cli/usage.js';

const SUBCOMMANDS = ['exec', 'pipe', 'retrieve', 'stats', 'discover', 'diff', 'init', 'doctor', 'remember', 'goal', 'session', 'mcp', 'rules'];

const flagsIn = (s: string) => new Set([...s.matchAll(/(?<![\w-])--?[a-z][a-z-]*/g)].map((m) => m[0]));

/** README's Subcommands table: subcommand -> the first cell (its usage). */
function readmeRows(): Map<string, string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Subcommands'), readme.indexOf('\n## ', readme.indexOf('## Subcommands') + 1));
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const cell = line.split(/(?<!\\)\|/)[1];
    const m = /omni (?:pipe|([a-z]+))/.exec(cell);
    const name = cell.includes('omni pipe') ? 'pipe' : cell.includes('--post-hook') ? 'hooks' : m?.[1];
    if (name) rows.set(name, (rows.get(name) ?? '') + cell);
  }
  return rows;
}

t.test('every subcommand has --help: its usage on stdout, exit 0', async (t) => {
  for (const name of SUBCOMMANDS) {
    for (const flag of ['--help', '-h']) {
      const r = omni([name, flag]);
      t.equal(r.status, 0, `omni ${name} ${flag}: exit 0 (${r.stderr.toString().trim()})`);
      t.match(r.stdout.toString(), new RegExp(`^usage: .*omni ${name}\\b`), `omni ${name} ${flag}: its usage`);
      t.equal(r.stderr.toString(), '', `omni ${name} ${flag}: nothing on stderr`);
    }
  }
  t.match(omni(['init', '--help']).stdout.toString(), /--pi\b/, 'init --help names --pi');
  t.notMatch(omni(['doctor', '--help']).stdout.toString(), /unknown option/);
});

t.test('omni --help lists every subcommand with its flags, as the README table does', async (t) => {
  const r = omni(['--help']);
  t.equal(r.status, 0);
  const help = r.stdout.toString();
  const rows = readmeRows();
  t.same([...rows.keys()].filter((k) => k !== 'hooks').sort(), [...SUBCOMMANDS].sort(), 'the README table has every subcommand');
  for (const [name, cell] of rows) {
    const lines = help.split('\n').filter((l) => name === 'hooks' ? l.includes('--post-hook') : new RegExp(`omni ${name}\\b`).test(l));
    t.ok(lines.length > 0, `omni --help lists ${name}`);
    const listed = flagsIn(lines.join(' '));
    t.same([...listed].sort(), [...flagsIn(cell)].sort(), `omni --help and the README name the same flags for ${name}`);
  }
  const init = help.split('\n').find((l) => /omni init\b/.test(l)) ?? '';
  for (const i of INSTALLERS) t.match(init, new RegExp(`--${i.id}\\b`), `omni --help: init --${i.id}`);
});

t.test('each subcommand help comes from the one table that top-level help prints', async (t) => {
  const help = omni(['--help']).stdout.toString();
  for (const u of SUBCOMMAND_USAGE) {
    for (const s of u.synopsis) t.ok(help.includes(s), `omni --help has "${s}"`);
    if (u.name === 'hooks') continue;
    const own = omni([u.name, '--help']).stdout.toString();
    for (const s of u.synopsis) t.ok(own.includes(s), `omni ${u.name} --help has "${s}"`);
  }
  const initFlags = SUBCOMMAND_USAGE.find((u) => u.name === 'init')!.synopsis.join(' ');
  t.same([...flagsIn(initFlags)].filter((f) => INSTALLERS.some((i) => `--${i.id}` === f)).sort(), INSTALLERS.map((i) => `--${i.id}`).sort(), 'init\'s host flags are the installers');
});

t.test('omni retrieve of a well-formed handle nobody archived exits 2, with a message', async (t) => {
  const r = omni(['retrieve', '0123456789abcdef']);
  t.equal(r.status, 2);
  t.equal(r.stdout.length, 0, 'nothing on stdout');
  t.match(r.stderr.toString(), /no archived block has handle 0123456789abcdef/);
  const bad = omni(['retrieve', 'xyz']);
  t.equal(bad.status, 2, 'a malformed handle: 2 as well');
});
