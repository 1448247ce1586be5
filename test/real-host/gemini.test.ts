/**
 * Proof with the real host: the pinned Gemini CLI (0.61.0) runs headless (`--yolo`) against the
 * loopback stand-in, with omni installed by the real `omni init --gemini` in a temporary HOME.
 * Every assertion is on the functionResponse the CLI sent to the model in its next request,
 * compared with a baseline run of the same script without omni. docs/gemini-findings.md says
 * why the shapes are what they are.
 *
 * Run: npx tap --disable-coverage test/real-host/gemini.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canRunGemini, geminiBin, normaliseGemini, omniBin, runGemini, type GeminiRunResult } from './gemini-harness.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { parseShellText } from '../../lib/hosts/gemini/adapter.js';
import { needs } from '../helpers/needs.js';

// Gemini's shell tool refuses `$(…)` and `$((…))` in a command line, so the noise is a script.
const NOISE_SH = `i=1
while [ "$i" -le "$1" ]; do echo "Downloading https://registry.example.org/package-$((i % 3)).tgz 50%"; i=$((i + 1)); done
echo "$2"
exit "\${3:-0}"
`;

// The error line goes to stdout: the CLI reads the child's stdout and stderr as two streams, so
// under load a stderr line could land before or after the stdout lines from run to run, and a
// baseline and an omni run would differ in an order neither of them chose.
const NOISY_JS = `for (let i = 1; i <= 400; i++) console.log('Downloading https://registry.example.org/dep-' + (i % 3) + '.tgz 50%');
console.log('OMNI_SESSION_ID=' + (process.env.OMNI_SESSION_ID || 'unset'));
if (process.argv.includes('--fail')) { console.log('Error: 1 test failed: expected 2, got 3'); process.exitCode = 2; }
`;

const FILES = {
  'noise.sh': NOISE_SH,
  'noisy.js': NOISY_JS,
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node noisy.js' } }, null, 2),
};

const shell = (command: string) => ({ tool: 'run_shell_command', args: { command } });

const SCRIPT = [
  shell("sh noise.sh 400 'added 400 packages in 3s'"), // 0 noisy success
  shell('ls /nonexistent'), // 1 failure
  shell("sh noise.sh 400 'npm error code E404' 3"), // 2 noisy failure
  { tool: 'run_shell_command', args: { command: 'npm test', description: 'run the tests' } }, // 3 rewritable
  shell('npm test -- --fail'), // 4 rewritable, failing
  { text: 'All steps done.' },
];

const bytes = (s: string | undefined) => Buffer.byteLength(s ?? '', 'utf8');
const REWRITE_NOTE = '\n\n[System] Tool input parameters were modified by a hook before execution.';
const present = Boolean(canRunGemini());
const missing = `needs ${geminiBin()} and ${omniBin()} (node scripts/build.mjs)`;

t.test('the real Gemini CLI with omni installed by `omni init --gemini`', async (t) => {
  if (!needs(t, present, missing)) return;
  // The error-shaped replacement is opt-in (OMNI_REPLACE_AS_ERROR=1): this run opts in, and
  // `plain` shows what a user who did not opt in gets.
  // `omni` also opts in to the rewrite (`omni init --gemini --rewrite`); `plain` is a default install.
  const [base, omni, plain] = await Promise.all([
    runGemini({ script: SCRIPT, withOmni: false, files: FILES }),
    runGemini({ script: SCRIPT, withOmni: true, rewrite: true, files: FILES, env: { OMNI_REPLACE_AS_ERROR: '1' } }),
    runGemini({ script: [SCRIPT[0], SCRIPT[3], { text: 'done' }], withOmni: true, files: FILES }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
    plain.cleanup();
  });
  t.equal(omni.exitCode, 0, `the omni run ended normally (${omni.stderr.slice(-300)})`);
  t.equal(base.exitCode, 0, 'the baseline run ended normally');
  t.match(omni.requests[1]?.userAgent ?? '', /GeminiCLI[^/]*\/0\.61\.0\//, 'the pinned CLI ran');
  const settings = JSON.parse(readFileSync(join(omni.home, '.gemini', 'settings.json'), 'utf8'));
  t.equal(settings.hooks.AfterTool[0].hooks[0].timeout, 60_000, 'omni init wrote millisecond timeouts');
  t.ok(settings.hooks.AfterTool[0].hooks[0].command.includes(omniBin()), 'hooks call omni by absolute path');
  t.equal(settings.security.auth.selectedType, 'gemini-api-key', 'the user\'s own settings kept');
  t.equal(omni.results.length, 5, 'five function responses reached the model');
  const summary: Record<string, string> = {};

  t.test('a noisy successful command reaches the model distilled', async (t) => {
    const b = base.results[0];
    const o = omni.results[0];
    summary['noisy success'] = `${bytes(b.text)} -> ${bytes(o.text)} B`;
    t.equal(b.key, 'output');
    // Gemini CLI 0.61.0 replaces a result only through AfterTool's deny reason: `error`.
    t.equal(o.key, 'error', 'carried in the deny reason (the only replacement 0.61.0 applies)');
    t.ok(bytes(o.text) < bytes(b.text) / 4, `${bytes(b.text)} B -> ${bytes(o.text)} B`);
    const frame = parseShellText(o.text);
    t.ok(frame, 'in the CLI\'s own framing');
    t.equal(frame?.failed, false, 'no Exit Code line: reads as a success');
    t.ok(frame?.output.endsWith('added 400 packages in 3s'), 'the last line is there');
    t.match(o.text, /omni retrieve [0-9a-f]{16}/, 'the fold names its archive handle');
  });

  t.test('without the opt-ins (a default install), every command runs as typed and reaches the model as the CLI made it', async (t) => {
    const pgid = (s: string) => s.replace(/Process Group PGID: \d+/, 'Process Group PGID: N');
    const plainSettings = JSON.parse(readFileSync(join(plain.home, '.gemini', 'settings.json'), 'utf8'));
    t.notOk('BeforeTool' in plainSettings.hooks, '`omni init --gemini` installs no BeforeTool: nothing is rewritten');
    t.equal(plain.results[0]?.key, 'output', 'an output, not an error');
    t.equal(pgid(plain.results[0]?.text ?? ''), pgid(base.results[0].text), 'the same text as without omni');
    t.equal(pgid(plain.results[1]?.text ?? ''), pgid(base.results[3].text), 'npm test: the same text as without omni (not rewritten)');
  });

  t.test('a failing command reaches the model verbatim', async (t) => {
    for (const [i, label] of [[1, 'ls /nonexistent'], [2, 'noisy exit 3']] as const) {
      const b = base.results[i];
      const o = omni.results[i];
      summary[label] = `${bytes(b.text)} -> ${bytes(o.text)} B`;
      t.equal(o.key, 'output', `${label}: a plain result`);
      t.equal(normaliseGemini(o.text, omni), normaliseGemini(b.text, base), `${label}: what the CLI sends without omni, except the process group id`);
    }
    t.match(omni.results[1].text, /Exit Code: 2/);
    t.match(omni.results[2].text, /npm error code E404\nExit Code: 3/);
  });

  t.test('with --rewrite, a plain rewritable command runs through omni exec (yolo, no policy rules)', async (t) => {
    const b = base.results[3];
    const o = omni.results[3];
    summary['npm test'] = `${bytes(b.text)} -> ${bytes(o.text)} B`;
    t.match(b.text, /OMNI_SESSION_ID=unset/, 'baseline: the command ran directly');
    t.ok(bytes(o.text) < bytes(b.text), `${bytes(b.text)} B -> ${bytes(o.text)} B`);
    if (routeCommand('npm test').rewrite) {
      t.equal(o.key, 'output', 'a plain result: the output came from omni exec, not from a reply');
      t.ok(o.text.endsWith(REWRITE_NOTE), 'the CLI says the input was modified by a hook');
      t.match(o.text, /OMNI_SESSION_ID=[0-9a-f-]{36}/, 'the command ran under omni exec, with the session id');
    } else {
      t.match(o.text, /OMNI_SESSION_ID=unset/, 'not on the registry\'s rewrite allow-list: the post-hook distils it');
    }
  });

  t.test('a failing command the pre-hook rewrote reaches the model verbatim', async (t) => {
    const b = base.results[4];
    const o = omni.results[4];
    summary['npm test --fail'] = `${bytes(b.text)} -> ${bytes(o.text)} B`;
    t.equal(o.key, 'output');
    // The fixture's one stderr line lands wherever the two streams interleave, with or without
    // omni: compare everything else byte for byte, and that line's presence on its own.
    const ERR = 'Error: 1 test failed: expected 2, got 3';
    const norm = (s: string, r: GeminiRunResult) =>
      normaliseGemini(s, r).replace(REWRITE_NOTE, '').replace(/OMNI_SESSION_ID=\S+/, 'OMNI_SESSION_ID=<sid or unset>').replace(/_logs\/\S+-debug-\d+\.log/g, '_logs/<LOG>').split('\n').filter((l) => l !== ERR).join('\n');
    t.equal(norm(o.text, omni), norm(b.text, base), 'the same bytes as without omni, but for the wrapper\'s session id');
    t.equal(o.text.split('\n').filter((l) => l === ERR).length, 1, 'the error line, once');
    t.match(o.text, /Exit Code: 2/);
  });

  t.test('omni logged no hook error', async (t) => {
    t.notMatch(omni.omniLog, /Error|TypeError|stack/i, omni.omniLog.slice(0, 500));
  });

  t.teardown(() => {
    t.comment('bytes the model saw (baseline -> omni):');
    for (const [k, v] of Object.entries(summary)) t.comment(`  ${k}: ${v}`);
  });
});

t.test('a user policy rule on shell commands: omni does not rewrite, the rule still holds', async (t) => {
  if (!needs(t, present, missing)) return;
  const userPolicy = '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "npm test"\ndecision = "deny"\npriority = 100\n';
  const script = [{ tool: 'run_shell_command', args: { command: 'npm test' } }, { text: 'done' }];
  const [base, omni] = await Promise.all([
    runGemini({ script, withOmni: false, files: FILES, userPolicy }),
    runGemini({ script, withOmni: true, rewrite: true, files: FILES, userPolicy }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });
  t.same(base.results, [{ key: 'error', text: 'Tool execution denied by policy.' }], 'without omni the rule denies the call');
  t.same(omni.results, base.results, 'with omni too: the rewrite would have escaped the rule, so there was none');
});

t.test('session memory reaches the model through SessionStart additionalContext', async (t) => {
  if (!needs(t, present, missing)) return;
  const fact = 'the staging database is read-only on Fridays';
  const first = await runGemini({ script: [{ text: 'hello' }], withOmni: true });
  const second = await runGemini({ script: [{ text: 'hello' }], withOmni: true, after: first, prep: [['remember', fact]] });
  t.teardown(() => second.cleanup());
  const firstPrompt = (r: GeminiRunResult) => JSON.stringify(r.requests.find((q) => q.answered === 'tool' || q.answered === 'text')?.body?.contents ?? []);
  t.notMatch(firstPrompt(first), /hook_context/, 'a first session on a fresh store gets no context');
  t.match(firstPrompt(second), new RegExp(`<hook_context>[^"]*${fact}`), 'the remembered fact, in the CLI\'s <hook_context> before the prompt');
});
