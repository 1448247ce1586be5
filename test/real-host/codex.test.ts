/**
 * Proof with the real host: the pinned Codex CLI (0.171.0) runs `codex exec` headless against
 * the loopback Responses stand-in, with omni installed by the real `omni init --codex` in a
 * temporary HOME/CODEX_HOME and its hooks trusted the way /hooks records it (config.toml
 * `hooks.state`; no --dangerously-bypass-hook-trust). Every assertion is on the
 * `function_call_output` Codex sent to the model in its next request, compared with a baseline
 * run of the same script without omni.
 *
 * Run: npx tap --disable-coverage test/real-host/codex.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeCommand } from '../../lib/distillers/registry.js';
import { codexBin, omniBin, runCodex, splitFrame, type CodexRunResult } from './codex-harness.js';
import type { CodexStep } from './codex-standin.js';
import { needs } from '../helpers/needs.js';

const NOISE = (n: number, last: string) =>
  `for i in $(seq 1 ${n}); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "${last}"`;

// A failing run prints less: Codex cuts results over ~10 KB in the middle, and the wrapper's
// longer session id would move that cut.
// The error line goes to stdout: Codex reads the child's stdout and stderr as two pipes, so under
// load a stderr line lands before or after the stdout lines from run to run, and a baseline and
// an omni run would differ in an order neither of them chose.
const NOISY_JS = `const n = process.argv.includes('--fail') ? 100 : 400;
for (let i = 1; i <= n; i++) console.log('Downloading https://registry.example.org/dep-' + (i % 3) + '.tgz 50%');
console.log('OMNI_SESSION_ID=' + (process.env.OMNI_SESSION_ID || 'unset'));
if (process.argv.includes('--fail')) { console.log('Error: 1 test failed: expected 2, got 3'); process.exitCode = 2; }
`;

const FILES = {
  'noisy.js': NOISY_JS,
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node noisy.js' } }, null, 2),
};

const SCRIPT: CodexStep[] = [
  { cmd: NOISE(400, 'added 400 packages in 3s') }, // 0: noisy success (a sequence: never rewritten)
  { cmd: NOISE(400, 'npm error code E404') + '; exit 3' }, // 1: noisy failure
  { cmd: 'ls /nonexistent' }, // 2: quiet failure, exit 2
  { cmd: 'npm test' }, // 3: on the rewrite allow-list
  { cmd: 'npm test -- --fail' }, // 4: rewritten, failing
  { text: 'All steps done.' },
];

const canRun = existsSync(codexBin()) && existsSync(omniBin());
const present = Boolean(canRun);
const missing = `needs ${codexBin()} and ${omniBin()} (node scripts/build.mjs)`;

function bytes(s: string | null | undefined): number {
  return Buffer.byteLength(s ?? '', 'utf8');
}

/** Codex's frame without the parts that differ per run (chunk id, wall time, token count). */
function body(text: string): { exit: number | null; body: string } {
  const f = splitFrame(text);
  return { exit: f.exit, body: f.body };
}

function ran(t: any, run: CodexRunResult, label: string) {
  t.equal(run.timedOut, false, `${label}: finished in time`);
  t.equal(run.exitCode, 0, `${label}: codex exec exited 0 (${run.stderr.slice(-300)})`);
  t.equal(run.events.find((e) => e.type === 'turn.completed') !== undefined, true, `${label}: the turn completed`);
}

t.test('the real Codex CLI with omni installed by `omni init --codex` (full access: approvals and sandbox bypassed)', async (t) => {
  if (!needs(t, present, missing)) return;
  const [base, post] = await Promise.all([
    runCodex({ script: SCRIPT, hooks: 'none', files: FILES, tag: 'base', mode: 'bypass' }),
    runCodex({ script: SCRIPT, hooks: 'omni', files: FILES, tag: 'post', mode: 'bypass' }),
  ]);
  // The rewrite is opt-in (`omni init --codex --rewrite`): the same script again with it.
  const omni = await runCodex({ script: SCRIPT, hooks: 'omni', rewrite: true, files: FILES, tag: 'omni', mode: 'bypass' });
  t.teardown(() => {
    base.cleanup();
    post.cleanup();
    omni.cleanup();
  });
  ran(t, base, 'baseline');
  ran(t, post, 'omni, post-only');
  ran(t, omni, 'omni --rewrite');
  const postHooks = JSON.parse(readFileSync(join(post.codexHome, 'hooks.json'), 'utf8'));
  t.notOk('PreToolUse' in postHooks.hooks, '`omni init --codex` installs no PreToolUse: nothing is rewritten');

  t.test('post-only (the default): npm test runs as the model asked, and its output is replaced after it ran', async (t) => {
    const b = base.outputs[3]!;
    const o = post.outputs[3]!;
    t.match(o, /OMNI_SESSION_ID=unset/, 'the command ran as typed, in Codex\'s own shell');
    t.match(o, /^Process exited with code 0\nOutput:\n/, 'replaced by the PostToolUse reply');
    t.ok(bytes(o) < bytes(b), `${bytes(b)} B -> ${bytes(o)} B`);
    for (const i of [1, 2, 4]) t.equal(body(post.outputs[i]!).body, body(base.outputs[i]!).body, `failure ${i}: verbatim`);
  });
  t.match(omni.installNotes.join(''), /hooks registered in .*hooks\.json/, '`omni init --codex` registered the hooks');
  t.notMatch(JSON.stringify(omni.events), /bypass-hook-trust/, 'hooks ran on recorded trust, not on the bypass flag');
  const hooks = JSON.parse(readFileSync(join(omni.codexHome, 'hooks.json'), 'utf8'));
  t.ok(hooks.hooks.PostToolUse[0].hooks[0].command.includes(omniBin()), 'hooks call omni by absolute path');

  const summary: Record<string, { before: number; after: number }> = {};

  t.test('a noisy successful command reaches the model distilled, smaller, last line kept, with a handle', async (t) => {
    const b = base.outputs[0]!;
    const o = omni.outputs[0]!;
    summary['noisy success'] = { before: bytes(b), after: bytes(o) };
    t.equal(body(b).exit, 0, 'baseline: exit 0 in Codex\'s frame');
    t.ok(bytes(o) < bytes(b) / 4, `${bytes(b)} B -> ${bytes(o)} B`);
    t.match(o, /^Process exited with code 0\nOutput:\n/, 'the exit status line is kept');
    t.ok(o.trimEnd().endsWith('added 400 packages in 3s'), 'the last line is there');
    t.match(o, /omni retrieve [0-9a-f]{16}/, 'the fold names its archive handle');
  });

  t.test('a failing noisy command reaches the model verbatim', async (t) => {
    const b = body(base.outputs[1]!);
    const o = body(omni.outputs[1]!);
    summary['noisy failure'] = { before: bytes(base.outputs[1]), after: bytes(omni.outputs[1]) };
    t.equal(o.exit, 3, "Codex's own frame, exit 3");
    t.equal(o.body, b.body, 'byte for byte the output the model gets without omni');
    t.ok(o.body.trimEnd().endsWith('npm error code E404'));
  });

  t.test('a quiet failing command reaches the model verbatim', async (t) => {
    const b = body(base.outputs[2]!);
    const o = body(omni.outputs[2]!);
    t.equal(o.exit, 2);
    t.equal(o.body, b.body);
    t.match(o.body, /No such file or directory/);
  });

  t.test('with --rewrite, a plain command on the rewrite allow-list runs through omni exec', async (t) => {
    const b = base.outputs[3]!;
    const o = omni.outputs[3]!;
    summary['npm test (rewritten)'] = { before: bytes(b), after: bytes(o) };
    t.match(b, /OMNI_SESSION_ID=unset/, 'baseline: the command ran directly');
    if (routeCommand('npm test').rewrite) {
      const sid = omni.events.find((e) => e.type === 'thread.started')?.thread_id;
      t.ok(sid, 'the session id');
      t.match(o, new RegExp(`OMNI_SESSION_ID=${sid}`), 'it ran under omni exec with the Codex session id');
    }
    t.ok(bytes(o) < bytes(b), `${bytes(b)} B -> ${bytes(o)} B`);
    t.ok(o.includes('OMNI_SESSION_ID='), 'the last line is there');
  });

  t.test('a failing command that was rewritten reaches the model verbatim', async (t) => {
    const b = body(base.outputs[4]!);
    const o = body(omni.outputs[4]!);
    const norm = (s: string) => s.replace(/OMNI_SESSION_ID=\S+/, 'OMNI_SESSION_ID=<sid or unset>').replace(/\/_logs\/\S+-debug-\d+\.log/g, '/_logs/<LOG>');
    t.not(o.exit, 0, 'a failure exit in the frame');
    t.equal(o.exit, b.exit, 'the same exit code as without omni');
    t.notMatch(omni.outputs[4]!, /truncated output/, 'under Codex\'s cut: the whole output is compared');
    // Codex reads the command's stdout and stderr as one stream; where a stderr line lands
    // among stdout lines depends on timing, with or without omni. So: the same lines, and
    // stdout's lines in the same order.
    const lines = (s: string) => norm(s).split('\n');
    const ERR = 'Error: 1 test failed: expected 2, got 3';
    t.same(lines(o.body).sort(), lines(b.body).sort(), 'the same lines as without omni, except the session id the wrapper carried');
    t.same(lines(o.body).filter((l) => l !== ERR), lines(b.body).filter((l) => l !== ERR), 'stdout in the same order');
    t.ok(lines(o.body).includes(ERR));
  });

  t.test('omni logged no hook error', async (t) => {
    t.notMatch(omni.omniLog, /Error|TypeError|stack/i, omni.omniLog.slice(0, 500));
  });

  t.teardown(() => {
    t.comment('bytes the model saw (baseline -> omni):');
    for (const [k, v] of Object.entries(summary)) t.comment(`  ${k}: ${v.before} -> ${v.after}`);
  });
});

t.test("codex exec's default (read-only sandbox), rewrite installed: no rewrite, distilled after the command", async (t) => {
  if (!needs(t, present, missing)) return;
  const script: CodexStep[] = [
    { cmd: NOISE(400, 'added 400 packages in 3s') },
    { cmd: 'ls /nonexistent' },
    { cmd: 'npm test' },
    { text: 'done' },
  ];
  const omni = await runCodex({ script, hooks: 'omni', rewrite: true, files: FILES, tag: 'ro', mode: 'read-only' });
  t.teardown(() => omni.cleanup());
  ran(t, omni, 'read-only');
  const o0 = omni.outputs[0]!;
  t.match(o0, /^Process exited with code 0\nOutput:\n/, 'the PostToolUse reply applied inside a sandboxed session');
  t.ok(o0.trimEnd().endsWith('added 400 packages in 3s'));
  t.match(o0, /omni retrieve [0-9a-f]{16}/);
  t.equal(body(omni.outputs[1]!).exit, 2, 'the failure keeps its frame');
  t.match(body(omni.outputs[1]!).body, /No such file or directory/);
  // npm test was not rewritten: omni exec never ran it.
  t.notMatch(omni.outputs[2]!, /OMNI_SESSION_ID=[0-9a-f]{8}-/, 'not rewritten into omni exec inside the sandbox');
});

t.test('a later session starts with the last failure in its context (SessionStart additionalContext)', async (t) => {
  if (!needs(t, present, missing)) return;
  const first = await runCodex({ script: [{ cmd: 'npm test -- --fail' }, { text: 'done' }], hooks: 'omni', files: FILES, tag: 'mem1', mode: 'bypass' });
  t.teardown(() => first.cleanup());
  ran(t, first, 'first session');
  const second = await runCodex({ script: [{ text: 'hello' }], hooks: 'omni', tag: 'mem2', mode: 'bypass', after: first });
  ran(t, second, 'second session');
  const dev = (second.requests[0]?.body?.input ?? [])
    .filter((i: any) => i?.type === 'message' && i.role === 'developer')
    .flatMap((i: any) => (i.content ?? []).map((c: any) => String(c?.text ?? '')));
  const ctx = dev.find((d: string) => d.includes('npm test -- --fail'));
  t.ok(ctx, `the failing command is in a developer message of the second session (${dev.length} developer messages)`);
  t.match(ctx ?? '', /expected 2, got 3|Exit code|failed/i, 'with its error');
});

t.test("a user's exec-policy rule that forbids a command still holds with the rewrite installed", async (t) => {
  if (!needs(t, present, missing)) return;
  // Codex judges its rules on the command the PreToolUse hook hands back; a rewrite into
  // `omni exec 'npm test'` would no longer match a rule for `npm test` (docs/codex-findings.md 4(b)).
  const rules = { 'rules/default.rules': 'prefix_rule(\n    pattern = ["npm", "test"],\n    decision = "forbidden",\n    justification = "no tests from the agent",\n)\n' };
  const script: CodexStep[] = [{ cmd: 'npm test' }, { text: 'done' }];
  const [base, omni] = await Promise.all([
    runCodex({ script, hooks: 'none', files: FILES, codexFiles: rules, tag: 'rb', mode: 'bypass' }),
    runCodex({ script, hooks: 'omni', rewrite: true, files: FILES, codexFiles: rules, tag: 'ro', mode: 'bypass' }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });
  ran(t, base, 'baseline');
  ran(t, omni, 'omni');
  t.match(base.outputs[0]!, /rejected: no tests from the agent/, 'without omni: rejected by the rule');
  t.match(omni.outputs[0]!, /rejected: no tests from the agent/, 'with omni: still rejected');
  t.notMatch(omni.outputs[0]!, /OMNI_SESSION_ID=/, 'the command never ran');
});

t.test('PostToolUse `continue: false` + `stopReason` against `decision: "block"` + `reason` (what omni replies with), measured', async (t) => {
  if (!needs(t, present, missing)) return;
  // An observer hook that answers PostToolUse with the reply in $OMNI_TEST_REPLY.
  const command = `node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{if(JSON.parse(s).hook_event_name==="PostToolUse")process.stdout.write(process.env.OMNI_TEST_REPLY||"")})'`;
  const script: CodexStep[] = [
    { cmd: 'echo one; echo two' }, // 0: a direct call
    { cmd: 'sleep 1; echo polled', args: { yield_time_ms: 300 } }, // 1: outlives its yield
    { tool: 'write_stdin', args: { session_id: '$SESSION', chars: '', yield_time_ms: 5000 } }, // 2: the poll that ends it
    { cmd: 'echo after' }, // 3: the turn goes on?
    { text: 'done' },
  ];
  const hooks = { command, events: [{ event: 'PostToolUse', matcher: 'Bash' }] };
  const replies = { stop: { continue: false, stopReason: 'REPLACED\nby stopReason' }, block: { decision: 'block', reason: 'REPLACED\nby reason' } };
  const [stop, block] = await Promise.all(
    Object.entries(replies).map(([k, r]) => runCodex({ script, hooks, trust: 'config', mode: 'bypass', tag: k, env: { OMNI_TEST_REPLY: JSON.stringify(r) } })),
  );
  t.teardown(() => {
    stop.cleanup();
    block.cleanup();
  });
  ran(t, stop, 'continue: false');
  ran(t, block, 'decision: block');
  for (const [run, text] of [[stop, 'REPLACED\nby stopReason'], [block, 'REPLACED\nby reason']] as const) {
    t.equal(run.outputs[0], text, `${text.split('\n')[1]}: a direct call's output is exactly the text`);
    t.match(run.outputs[1] ?? '', /Process running with session ID/, `${text.split('\n')[1]}: a call that outlives its yield is not replaced when it yields`);
    t.equal(run.outputs[2], text, `${text.split('\n')[1]}: the poll that ends it is`);
    t.equal(run.outputs[3], text, `${text.split('\n')[1]}: the turn went on to the next call`);
    t.equal(run.requests.at(-1)?.answered.kind, 'text', `${text.split('\n')[1]}: and to the model's last message`);
  }
  t.notMatch(stop.stderr, /ERROR codex_core::tools::router/, 'continue: false prints nothing on stderr');
  t.match(block.stderr, /ERROR codex_core::tools::router: error=REPLACED/, 'block prints an ERROR line per replaced output on stderr');
});
