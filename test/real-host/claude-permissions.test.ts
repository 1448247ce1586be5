/**
 * Proof with the real host that omni widens no permission and changes no command: the pinned
 * Claude Code CLI (2.1.332) against the loopback stand-in, each configuration run three ways:
 * without omni, with omni as a user installs it (`omni init --claude`: post-only, no rewrite),
 * and with the rewrite opted in (`omni init --claude --rewrite`). One CLI session per run plays
 * every step of the configuration's script.
 *
 * 1. Every respelling of a denied command the host itself denies (`npm  test`, `"npm" test`,
 *    `nice -n 5 npm test`, `/usr/bin/npm test`, `make "deploy"` …), under bypassPermissions with
 *    the deny rules, and in default mode with broad allow rules beside them: the same allow/deny
 *    outcome and the same tool_result text the model received, with and without omni.
 * 2. Lines whose meaning is bash's (`npm test -s -- {a,b}` with a script that prints its argv,
 *    `${HOME:0:3}`, `$RANDOM`, `~+`, a `**` pattern): the same output with omni as without.
 * 3. With the rewrite installed, `omni retrieve … --reveal` is refused with omni's reason, and a
 *    plain allowed command is still rewritten (so the runs above prove something).
 *
 * On the code before this change, the default install rewrote every respelling into
 * `omni exec '…'`, which ran; and the bash lines ran under dash.
 *
 * Run: npx tap --disable-coverage test/real-host/claude-permissions.test.ts   (needs `node scripts/build.mjs`)
 */
import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import { claudeBin, normalise, omniBin, runClaude, type RunOptions, type RunResult } from './harness.js';
import type { Step } from './standin.js';
import { REVEAL_DENIED } from '../../lib/doors/prehook-policy.js';
import { needs } from '../helpers/needs.js';

const canRun = existsSync(claudeBin()) && existsSync(omniBin());
const missing = `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`;

const FILES = {
  'argv.js': "console.log('ARGV ' + JSON.stringify(process.argv.slice(2)));\n",
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node argv.js', build: 'node argv.js built' } }, null, 2),
  Makefile: 'all:\n\t@echo MADE\ndeploy:\n\t@echo DEPLOYED\n',
  'src/a/b.js': '',
  'src/c.js': '',
};

/** Respellings of `npm test` and `make deploy` that Claude Code 2.1.332 denies by the rules below. */
const DENIED = [
  'npm  test', 'npm\ttest', '"npm" test', 'npm "test"', '\\npm test', 'env FOO=1 npm test', 'env -u FOO npm test',
  'nice -n 5 npm test', 'time -p npm test', 'stdbuf -oL npm test', 'timeout -s KILL 60 npm test', 'exec npm test',
  '/usr/bin/npm test', 'make "deploy"', 'nice -n 5 make deploy', 'env X=1 make deploy',
];
const DENY = ['Bash(npm test:*)', 'Bash(make deploy)'];
const ALLOW = ['Bash(npm:*)', 'Bash(make:*)', 'Bash(nice:*)', 'Bash(env:*)'];
const REVEAL = 'omni retrieve 0123456789abcdef --reveal';

const bash = (command: string): Step => ({ tool: 'Bash', input: { command, description: 'scripted' } });
const RULES_STEPS = [...DENIED, 'npm test', 'make deploy', 'npm run build', 'make', REVEAL];
const RULES_SCRIPT: Step[] = [...RULES_STEPS.map(bash), { text: 'done' }];
const stepOf = (command: string) => RULES_STEPS.indexOf(command);

/** Lines bash reads its own way, each through the npm script that prints its argv; and two echoes. */
const BASH_LINES = [
  'npm test -s -- {a,b}', 'npm test -s -- ${HOME:0:3}', 'npm test -s -- $RANDOM', 'npm test -s -- ~+', 'npm test -s -- src/**/*.js',
  'echo ${HOME:0:3}', 'echo "[${RANDOM:+random}]"', 'npm test -s -- a b',
];

const INSTALLS: { name: string; initArgs?: string[] }[] = [
  { name: 'without omni' },
  { name: 'omni init --claude', initArgs: ['--claude'] },
  { name: 'omni init --claude --rewrite', initArgs: ['--claude', '--rewrite'] },
];

async function threeWays(opts: Omit<RunOptions, 'withOmni'>, rewriteTransport: 'command' | 'mcp_tool'): Promise<RunResult[]> {
  // Two at a time: the machine is shared.
  const [base, post] = await Promise.all([
    runClaude({ ...opts, withOmni: false, tag: `${opts.tag}base` }),
    runClaude({ ...opts, withOmni: true, initArgs: INSTALLS[1].initArgs, tag: `${opts.tag}post` }),
  ]);
  // The rewrite through command hooks, or through the mcp_tool handler `omni init` wires for 2.1.332.
  const initEnv = rewriteTransport === 'mcp_tool' ? { OMNI_CLAUDE_BIN: claudeBin(), OMNI_CLAUDE_TRANSPORT: 'mcp_tool' } : undefined;
  const rewrite = await runClaude({ ...opts, withOmni: true, initArgs: INSTALLS[2].initArgs, initEnv, tag: `${opts.tag}rw` });
  return [base, post, rewrite];
}

/** What the model got for a step, with run-specific paths and ids normalised. */
function seen(run: RunResult, i: number): { isError: boolean; text: string } | null {
  const r = run.results[i];
  return r ? { isError: r.isError, text: normalise(r.text, run) } : null;
}

function ranCleanly(t: Test, runs: RunResult[]) {
  for (const [i, r] of runs.entries()) {
    t.equal(r.exitCode, 0, `${INSTALLS[i].name}: the CLI ended normally (${r.stderr.slice(-300)})`);
    t.equal(r.version, '2.1.332', `${INSTALLS[i].name}: the pinned CLI`);
  }
}

for (const mode of ['bypassPermissions', 'default'] as const) {
  const userSettings = mode === 'bypassPermissions' ? { permissions: { deny: DENY } } : { permissions: { allow: ALLOW, deny: DENY } };
  t.test(`${mode}${mode === 'default' ? ' with allow rules for npm, make, nice and env' : ''} and deny rules for npm test and make deploy: every respelling is denied with omni as without`, async (t) => {
    if (!needs(t, canRun, missing)) return;
    const runs = await threeWays({ script: RULES_SCRIPT, files: FILES, userSettings, permissionMode: mode, env: { OMNI_HOOK_TRACE: '1' }, tag: mode === 'default' ? 'pd' : 'pb' }, mode === 'default' ? 'mcp_tool' : 'command');
    t.teardown(() => runs.forEach((r) => r.cleanup()));
    ranCleanly(t, runs);
    const [base, post, rewrite] = runs;

    for (const c of [...DENIED, 'npm test', 'make deploy']) {
      const i = stepOf(c);
      const b = seen(base, i);
      t.ok(b?.isError && /Permission to use Bash with command .* has been denied/.test(b.text), `without omni: ${JSON.stringify(c)} is denied by the host (${b?.text.slice(0, 120)})`);
      t.same(seen(post, i), b, `omni init --claude: ${JSON.stringify(c)} gives the model the same text`);
      t.same(seen(rewrite, i), b, `omni init --claude --rewrite: ${JSON.stringify(c)} gives the model the same text`);
    }
    const denied = (r: RunResult) => r.permissionDenials.map((d: { tool_input?: { command?: string } }) => d.tool_input?.command).filter((x) => x !== REVEAL);
    t.same(denied(post), denied(base), 'the same commands were denied, in their original spelling');
    t.same(denied(rewrite), denied(base), 'the same commands were denied, in their original spelling (rewrite)');
    t.notMatch(JSON.stringify(runs.map((r) => r.results)), /DEPLOYED|ARGV \[\]/, 'no denied command ran');

    for (const c of ['npm run build', 'make']) {
      const i = stepOf(c);
      const b = seen(base, i);
      t.equal(b?.isError, false, `without omni: ${c} runs (${b?.text.slice(0, 120)})`);
      t.same(seen(post, i), b, `omni init --claude: ${c} gives the same text`);
      t.same(seen(rewrite, i), b, `omni init --claude --rewrite: ${c} gives the same text`);
    }
    const rewrites = rewrite.hookLog.split('\n').filter((l) => /pre-hook claude: rewrite/.test(l));
    t.ok(rewrites.length >= 2, `the rewrite ran where the host allows the command (${rewrites.length} rewrites: ${rewrites.map((l) => l.replace(/^.*\(/, '(')).join(' ')})`);
    t.notOk(post.hookLog.includes('pre-hook'), 'omni init --claude installed no pre-hook');

    const r = stepOf(REVEAL);
    t.same(seen(post, r), seen(base, r), 'post-only: `omni retrieve --reveal` is the host\'s business as without omni');
    t.equal(rewrite.results[r]?.isError, true, 'with the pre-hook: `omni retrieve --reveal` is refused');
    t.match(rewrite.results[r]?.text ?? '', REVEAL_DENIED, 'with omni\'s reason');
  });
}

t.test('bash lines mean what they mean in the host\'s bash, with omni as without', async (t) => {
  if (!needs(t, canRun, missing)) return;
  const script: Step[] = [...BASH_LINES.map(bash), { text: 'done' }];
  const runs = await threeWays({ script, files: FILES, permissionMode: 'bypassPermissions', env: { OMNI_HOOK_TRACE: '1' }, tag: 'bs' }, 'command');
  t.teardown(() => runs.forEach((r) => r.cleanup()));
  ranCleanly(t, runs);
  const [base, post, rewrite] = runs;
  // $RANDOM differs between runs, not its shape.
  const norm = (s: { isError: boolean; text: string } | null) => s && { ...s, text: s.text.replace(/\[random\]|"\d+"/g, (m) => (m === '[random]' ? m : '"<N>"')) };
  for (const [i, line] of BASH_LINES.entries()) {
    const b = norm(seen(base, i));
    t.equal(b?.isError, false, `without omni: ${line} → ${b?.text}`);
    t.same(norm(seen(post, i)), b, `omni init --claude: ${line}`);
    t.same(norm(seen(rewrite, i)), b, `omni init --claude --rewrite: ${line}`);
  }
  t.match(seen(base, 0)?.text ?? '', /ARGV \["a","b"\]/, 'bash spelled the brace list out');
  t.match(seen(base, 3)?.text ?? '', /ARGV \["<PROJ>"\]/, '~+ is the working directory');
  const rewrites = rewrite.hookLog.split('\n').filter((l) => /pre-hook claude: rewrite/.test(l));
  t.equal(rewrites.length, 1, `only the plain line was rewritten (${rewrites.join(' | ')})`);
});
