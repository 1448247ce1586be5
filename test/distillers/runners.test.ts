import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/omni.js';
import { analyzeCommand } from '../../lib/command/parse.js';
import * as RUNNERS from '../../lib/command/runners.js';
import { programVia, scriptVia, PNPM, NPM, type Runner } from '../../lib/command/runners.js';
import { DISTILLERS, owns, routeCommand } from '../../lib/distillers/registry.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';

// Which runners route to a tool is the tool's spec's to say (`runners`), never a list of the
// router's. These tables are written here, apart from the specs: every runner-shaped prefix,
// and which runners it is. A prefix routes to a spec exactly when the spec declares every
// runner it is; a runner no spec declares (or a prefix that is not one) routes to no spec.
// A runner a spec declares in its own file (rspec's `bundle exec`) and this table does not
// know is checked the same way through the forms it declares (Runner.forms).
const TABLE: Array<[string, string[] | null]> = [
  ['pnpm', ['pnpm']], ['pnpm exec', ['pnpm']], ['pnpm dlx', ['pnpm']], ['pnpm x', ['pnpm']], ['/usr/local/bin/pnpm exec', ['pnpm']],
  ['yarn', ['yarn']], ['yarn exec', ['yarn']], ['yarn dlx', ['yarn']],
  ['bun', ['bun']], ['bun x', ['bun']], ['bun exec', ['bun']],
  ['npm exec', ['npm']], ['npm exec --yes --', ['npm']],
  ['uv run', ['uv']], ['uv run --frozen', ['uv']], ['poetry run', ['poetry']], ['pipenv run', ['pipenv']],
  ['pdm run', ['pdm']], ['hatch run', ['hatch']],
  ['python -m', ['python']], ['python3 -m', ['python']], ['python3.12 -m', ['python']], ['/usr/bin/python3 -m', ['python']],
  ['uv run python -m', ['uv', 'python']], ['poetry run python3 -m', ['poetry', 'python']],
  // Not a runner running a program: a script, an option, a bare word, or a runner no spec declares.
  ['pnpm run', null], ['yarn run', null], ['bun run', null], ['npm', null], ['npm run', null], ['npm x', null],
  ['pnpm --filter web', null], ['uv', null], ['python', null], ['pipx run', null], ['rye run', null],
  ['conda run', null], ['deno run', null], ['corepack', null], ['sudo', null],
  // uv's options are skipped word by word, so an option's value is taken for the program
  // (`uv run --with rich pytest` runs `rich`, as routing has always read it).
  ['uv run --with rich', null],
];

/** Every runner some spec declares, by name. */
const DECLARED = new Map<string, Runner>();
for (const s of DISTILLERS) for (const r of s.runners ?? []) DECLARED.set(r.name, r);
/** The runners lib/command/runners.ts defines. */
const DEFINED = Object.values(RUNNERS).filter((v): v is Runner => typeof v === 'object' && v !== null && 'forms' in v && 'name' in v);
const ALL = [...new Set([...DEFINED, ...DECLARED.values()])];
const known = new Set(TABLE.flatMap(([, names]) => names ?? []));
/** The table, and the forms of every declared runner it does not name. */
const PREFIXES: Array<[string, string[] | null]> = [...TABLE, ...[...DECLARED.values()].filter((r) => !known.has(r.name)).flatMap((r) => r.forms.map((f): [string, string[]] => [f, [r.name]]))];

/** The shell's wrappers, and a container's or a pod's exec, peeled by lib/command for every command line: not anyone's runner. */
const SHELL_WRAPPERS = ['env', 'env -u HOME', 'CI=1', 'time', 'nice -n 5', 'nohup', 'command', 'exec', 'stdbuf -oL', 'timeout 60', 'npx', 'npx --yes', 'pnpx', 'bunx', 'docker compose exec app', 'docker exec -it api', 'kubectl exec api-0 --'];

const declares = (spec: DistillerSpec, names: string[]) => names.every((n) => (spec.runners ?? []).some((r) => r.name === n));
const withProducers = DISTILLERS.filter((s) => s.producers?.length);

t.test('the specs declare producers and runners, and the tables cover every runner', async (t) => {
  t.ok(withProducers.length >= 10, `${withProducers.length} specs name their producers`);
  const jest = DISTILLERS.find((s) => s.name === 'jest')!;
  t.ok(jest.producers?.includes('jest') && declares(jest, ['pnpm', 'npm', 'python']), 'jest: its producer and its runners');
  const npmTest = DISTILLERS.find((s) => s.name === 'npm-test')!;
  t.ok(npmTest.scripts?.test('test:unit') && declares(npmTest, ['npm', 'pnpm', 'yarn', 'bun']), 'npm-test: its scripts and their runners');
  for (const r of ALL) {
    t.ok(PREFIXES.some(([, names]) => names?.includes(r.name)), `the prefix table has ${r.name}`);
    t.ok(DISTILLERS.some((s) => s.runners?.includes(r)), `${r.name} is declared by a spec: lib/command/runners.ts has no runner of its own`);
    t.ok(r.forms.length > 0, `${r.name} says how it is written`);
    for (const f of r.forms) {
      t.equal(programVia([...f.split(' '), 'tool', '--flag'], [r]), 'tool', `${r.name} reads its own form \`${f} tool\``);
      if (known.has(r.name)) t.ok(TABLE.some(([p, names]) => p === f && names?.includes(r.name)), `the table knows ${r.name}'s form \`${f}\``);
    }
  }
});

t.test('a runner-shaped prefix routes a producer to its spec exactly when the spec declares the runner', async (t) => {
  let routed = 0;
  for (const spec of withProducers) {
    for (const p of spec.producers!) {
      t.equal(routeCommand(p).distiller, spec.name, p);
      for (const [prefix, names] of PREFIXES) {
        const cmd = `${prefix} ${p} --flag`;
        const got = routeCommand(cmd).distiller;
        if (names && declares(spec, names)) {
          routed++;
          t.equal(got, spec.name, `${cmd}: ${spec.name} declares ${names.join(' + ')}`);
        } else t.not(got, spec.name, `${cmd}: ${spec.name} declares no such runner`);
      }
    }
  }
  t.ok(routed > 100, `${routed} lines routed through a declared runner`);
});

t.test('package scripts route to the spec that names them, through the runners it declares', async (t) => {
  const cases: Array<[string, string[] | null, string]> = [
    ['npm test', ['npm'], 'test'], ['npm run test:unit', ['npm'], 'test'], ['npm t', ['npm'], 'test'], ['npm --silent run-script test', ['npm'], 'test'],
    ['pnpm test', ['pnpm'], 'test'], ['yarn test', ['yarn'], 'test'], ['bun run test', ['bun'], 'test'],
    ['npm run build', ['npm'], 'build'], ['yarn build', ['yarn'], 'build'], ['pnpm run build:prod', ['pnpm'], 'build'],
    ['bun test', null, 'test'], ['bun build', null, 'build'], ['npm build', null, 'build'], ['npx test', null, 'test'],
    ['pipx run test', null, 'test'], ['make test', null, 'test'],
  ];
  const scripted = DISTILLERS.filter((s) => s.scripts);
  t.same(scripted.map((s) => s.name).sort(), ['npm-build', 'npm-test']);
  for (const [cmd, names, script] of cases) {
    for (const spec of scripted) {
      const mine = !!names && declares(spec, names) && spec.scripts!.test(script);
      if (mine) t.equal(routeCommand(cmd).distiller, spec.name, cmd);
      else t.not(routeCommand(cmd).distiller, spec.name, cmd);
    }
  }
});

t.test('no spec is reached through a runner it does not declare, over every corpus command', async (t) => {
  const plain = /^[\w./:=@,+%-]+$/;
  let checked = 0;
  for (const c of readdirSync(join(ROOT, 'corpus', 'cases'))) {
    const p = join(ROOT, 'corpus', 'cases', c, 'cmd.txt');
    if (!existsSync(p)) continue;
    const route = routeCommand(readFileSync(p, 'utf8').trim());
    // generic is the fallback: it owns whatever no spec does, prefixed or not.
    const spec = DISTILLERS.find((s) => s.name === route.distiller && s.name !== 'generic');
    if (!spec || !route.argv?.length || !route.argv.every((w) => plain.test(w))) continue;
    for (const [prefix, names] of PREFIXES) {
      if (names && declares(spec, names)) continue;
      // A bare program word in front reads as that program's own subcommand (`npm ls` is npm's listing).
      if (!names && !prefix.includes(' ')) continue;
      const cmd = `${prefix} ${route.argv.join(' ')}`;
      checked++;
      t.not(routeCommand(cmd).distiller, spec.name, `${cmd}: ${spec.name} does not declare ${names?.join(' + ') ?? 'it'}`);
    }
  }
  t.ok(checked > 1000, `${checked} prefixed corpus commands`);
});

t.test("the shell's wrappers are peeled for every spec alike: they are no spec's to declare", async (t) => {
  for (const spec of withProducers) {
    for (const p of spec.producers!) {
      for (const w of SHELL_WRAPPERS) t.equal(routeCommand(`${w} ${p} x`).distiller, spec.name, `${w} ${p} x`);
    }
  }
  for (const cmd of ['go test ./...', 'cargo test', 'git log -3', 'ls -la', 'npm test', 'pip install x']) {
    for (const w of SHELL_WRAPPERS) t.equal(routeCommand(`${w} ${cmd}`).distiller, routeCommand(cmd).distiller, `${w} ${cmd}`);
  }
});

t.test('routing reads the declaration: a spec without a runner is not reached through it', async (t) => {
  const jest = DISTILLERS.find((s) => s.name === 'jest')!;
  const a = analyzeCommand('pnpm exec jest');
  t.ok(owns(jest, a.argv, a), 'jest, declaring pnpm, owns `pnpm exec jest`');
  t.notOk(owns({ ...jest, runners: jest.runners!.filter((r) => r !== PNPM) }, a.argv, a), 'the same spec without pnpm does not');
  t.notOk(owns({ ...jest, runners: undefined }, a.argv, a), 'nor with no runners');
  t.ok(owns({ ...jest, runners: undefined }, ['jest'], analyzeCommand('jest')), 'the bare producer needs no runner');
  const npmTest = DISTILLERS.find((s) => s.name === 'npm-test')!;
  const b = analyzeCommand('npm test');
  t.ok(owns(npmTest, b.argv, b));
  t.notOk(owns({ ...npmTest, runners: npmTest.runners!.filter((r) => r !== NPM) }, b.argv, b), 'npm-test without npm does not own `npm test`');
});

t.test('the runners read their own syntax only', async (t) => {
  t.equal(programVia(['pnpm', 'exec', 'vitest', 'run'], ALL), 'vitest');
  t.equal(programVia(['uv', 'run', '--with', 'x', 'python3', '-m', 'pytest'], ALL), 'x', 'options are skipped, not their values (as before)');
  t.equal(programVia(['uv', 'run', 'python3', '-m', 'pytest', '-q'], ALL), 'pytest', 'a runner, then a module switch');
  t.equal(programVia(['python', '-m', 'uv', 'run', 'pytest'], ALL), 'uv', 'a module switch is read last, once');
  t.equal(programVia(['pnpm', 'exec', 'vitest'], []), 'pnpm', 'no declared runner: the program itself');
  t.equal(programVia(['npm', 'exec', '--yes', '--', 'tsc'], [NPM]), 'tsc');
  t.equal(scriptVia(['npm', 'run', 'build'], ALL), 'build');
  t.equal(scriptVia(['bun', 'test'], ALL), undefined, "bun's bare words are its own tools");
  t.equal(scriptVia(['npm', 'install'], ALL), undefined, 'npm runs only lifecycle scripts bare');
  t.equal(scriptVia(['yarn', 'test'], [NPM]), undefined, 'yarn is not npm');
});
