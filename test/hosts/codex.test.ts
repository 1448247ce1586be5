/**
 * The Codex CLI adapter on payloads captured from the real CLI 0.171.0
 * (test/fixtures/hosts/codex/README.md), and its installer on real temporary files.
 * What the CLI does with each reply was measured with the real CLI (docs/codex-findings.md);
 * test/real-host/codex.test.ts proves it end to end.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codex, commandExitCode, exitCodeIn, isCodexPayload, lastInRollout, outputReply, readTail, restrictiveRules, turnPolicyIn } from '../../lib/hosts/codex/adapter.js';
import { claude } from '../../lib/hosts/claude/adapter.js';
import { gemini } from '../../lib/hosts/gemini/adapter.js';
import { hostFor } from '../../lib/hosts/registry.js';
import {
  CODEX_HOOKS,
  codexInstaller,
  eventKey,
  hooksDisabled,
  hooksPath,
  omniHooksWithKeys,
  readHookStates,
  trustHash,
  trustOf,
  userConfigPath,
} from '../../lib/hosts/codex/install.js';
import type { HookInput, JsonObject, PostShellInput, PreToolInput } from '../../lib/hosts/adapter.js';
import { REVEAL_DENIED } from '../../lib/doors/prehook-policy.js';
import { CLAUDE_SAMPLES as SAMPLES } from '../helpers/samples.js';
import { needs } from '../helpers/needs.js';
import { hostBin } from '../../scripts/host-clis.mjs';

const HERE = import.meta.dirname ?? '.';
const FIX = join(HERE, '..', 'fixtures', 'hosts', 'codex');
const GEMINI_FIX = join(HERE, '..', 'fixtures', 'hosts', 'gemini');

const fx = (name: string): JsonObject => JSON.parse(readFileSync(join(FIX, `${name}.json`), 'utf8'));
const PAYLOADS = readdirSync(FIX).filter((n) => /^(Pre|Post|Session|Stop|User)[A-Za-z]*\..*json$|^(Stop|UserPromptSubmit)\.json$/.test(n));

const work = mkdtempSync(join(tmpdir(), 'omni-codex-unit-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

/** A payload whose transcript_path is a real copy of the captured rollout lines (or absent). */
function withRollout(name: string, rollout: string | null, edit?: (text: string) => string): JsonObject {
  const p = fx(name);
  if (rollout === null) return { ...p, transcript_path: join(work, 'no-such-rollout.jsonl') };
  const dir = mkdtempSync(join(work, 'sessions-'));
  const file = join(dir, 'rollout-2026-11-30T00-00-00-test.jsonl');
  const text = readFileSync(join(FIX, `${rollout}.jsonl`), 'utf8');
  writeFileSync(file, edit ? edit(text) : text);
  return { ...p, transcript_path: file };
}

t.test('every captured payload is recognised as Codex and read', async (t) => {
  t.ok(PAYLOADS.length >= 12, `${PAYLOADS.length} captured payloads`);
  for (const n of PAYLOADS) {
    const p = JSON.parse(readFileSync(join(FIX, n), 'utf8'));
    t.equal(codex.recognise(p, {}), true, `${n}: recognised`);
    t.equal(hostFor(p, {})?.id, 'codex', `${n}: the registry picks Codex`);
    t.equal(gemini.recognise(p, {}), false, `${n}: not Gemini`);
  }
  // Claude Code's fallback would claim Codex payloads (same dialect): the registry must try Codex first.
  t.equal(claude.recognise(fx('PostToolUse.Bash.seq-1-300'), {}), true, 'Claude Code would also claim it: order matters');
});

t.test('no Claude Code sample is claimed by the Codex adapter', async (t) => {
  let payloads = 0;
  for (const n of readdirSync(SAMPLES).filter((x) => x.endsWith('.json'))) {
    const p = JSON.parse(readFileSync(join(SAMPLES, n), 'utf8'));
    if (typeof p?.hook_event_name !== 'string') continue;
    payloads++;
    t.equal(codex.recognise(p, {}), false, `${n}: not Codex`);
    t.not(hostFor(p, {})?.id, 'codex', `${n}: the registry does not pick Codex`);
  }
  t.ok(payloads > 10, `${payloads} Claude Code payloads checked`);
});

t.test('no Gemini payload is claimed by the Codex adapter', async (t) => {
  if (!needs(t, Boolean(existsSync(GEMINI_FIX)), 'no Gemini fixtures')) return;
  for (const n of readdirSync(GEMINI_FIX).filter((x) => x.endsWith('.json'))) {
    const p = JSON.parse(readFileSync(join(GEMINI_FIX, n), 'utf8'));
    if (typeof p?.hook_event_name !== 'string') continue;
    t.equal(codex.recognise(p, {}), false, `${n}: not Codex`);
  }
});

t.test('recognition rules', async (t) => {
  t.equal(isCodexPayload({ hook_event_name: 'SessionEnd', session_id: 's', transcript_path: null, reason: 'other' }), true, 'an ephemeral session (transcript null)');
  t.equal(isCodexPayload({ hook_event_name: 'SessionStart', session_id: 's', transcript_path: '/h/.claude/projects/-p/u.jsonl', source: 'startup' }), false, "Claude Code's transcript");
  t.equal(isCodexPayload({ hook_event_name: 'PostToolUse', session_id: 's', turn_id: 't', cursor_version: '1' }), false, 'Cursor stands aside');
  t.equal(isCodexPayload({ hook_event_name: 'PostToolUse', turn_id: 't' }), false, 'no session id');
});

t.test('kinds', async (t) => {
  t.equal(codex.kindOf('PreToolUse'), 'pre-tool');
  t.equal(codex.kindOf('PostToolUse'), 'post-tool');
  t.equal(codex.kindOf('SessionStart'), 'session-start');
  t.equal(codex.kindOf('SessionEnd'), 'session-end');
  t.equal(codex.kindOf('PreCompact'), 'pre-compact');
  t.equal(codex.kindOf('PostToolUseFailure'), null, 'never fires in 0.171.0');
  t.equal(codex.kindOf('Stop'), null);
  t.equal(codex.kindOf('UserPromptSubmit'), null);
});

t.test('a successful noisy command: the bare output, not failed (exit 0 from the rollout)', async (t) => {
  const p = withRollout('PostToolUse.Bash.seq-1-300', 'rollout.bypass');
  const i = codex.read(p) as PostShellInput;
  t.equal(i.kind, 'post-tool');
  t.equal(i.tool, 'shell');
  t.equal(i.command, 'seq 1 300');
  t.equal(i.output, p.tool_response, 'the tool_response string, untouched');
  t.ok(i.output.endsWith('299\n300\n'));
  t.equal(i.failed, false);
  t.equal(i.sessionId, p.session_id);
  t.equal(i.agentId, 'main');
  t.equal(i.cwd, p.cwd);
});

t.test('failures: the exit code comes from the rollout; the output would not tell', async (t) => {
  for (const [name, code] of [['PostToolUse.Bash.ls-nonexistent', 2], ['PostToolUse.Bash.stdout-stderr-exit3', 3]] as const) {
    const p = withRollout(name, 'rollout.bypass');
    t.notMatch(String(p.tool_response), /exit|code/i, `${name}: no exit code in the payload`);
    const i = codex.read(p) as Extract<HookInput, { kind: 'post-tool'; tool: 'shell' }>;
    t.equal(i.failed, true, `${name}: read as a failure`);
    t.equal(i.exitCode, code);
    t.equal(i.output, p.tool_response);
    t.equal(codex.kindOf(String(p.hook_event_name)), 'post-tool', 'still served by --post-hook');
  }
});

t.test('an undeterminable exit is a possible failure (null): no rollout, no record, no id', async (t) => {
  const cases: [string, JsonObject][] = [
    ['ephemeral (transcript_path null)', fx('PostToolUse.Bash.ephemeral')],
    ['rollout file missing', withRollout('PostToolUse.Bash.seq-1-300', null)],
    ['no item_completed for the call', withRollout('PostToolUse.Bash.seq-1-300', 'rollout.bypass', (s) => s.split('\n').filter((l) => !l.includes('call_bypass_00')).join('\n'))],
    ['record without an exit code', withRollout('PostToolUse.Bash.seq-1-300', 'rollout.bypass', (s) => s.replace(/("id":"call_bypass_00".*?)"exit_code":0/, '$1"exit_code":null'))],
    ['no tool_use_id', { ...withRollout('PostToolUse.Bash.seq-1-300', 'rollout.bypass'), tool_use_id: undefined }],
  ];
  for (const [label, p] of cases) {
    const i = codex.read(p) as PostShellInput;
    t.equal(i.kind, 'post-tool', label);
    t.equal(i.failed, null, `${label}: failed is null`);
    t.equal(codex.replyOutput(p, i, 'x'), '', `${label}: no reply even if asked`);
  }
});

t.test('a command that outlived yield_time_ms: last chunk, exit from the rollout', async (t) => {
  const p = withRollout('PostToolUse.Bash.yielded', 'rollout.bypass');
  const i = codex.read(p) as PostShellInput;
  t.equal(i.output, 'finished\n', 'only the last chunk is in the payload');
  t.equal(i.failed, false);
});

t.test('other tools and shapes are not read', async (t) => {
  const p = fx('PostToolUse.Bash.seq-1-300');
  t.equal(codex.read({ ...p, tool_name: 'apply_patch' }), null);
  t.equal(codex.read({ ...p, tool_response: { stdout: 'x' } }), null, 'a non-string tool_response is a shape omni has not seen');
  t.equal(codex.read({ ...p, tool_input: { cmd: 'x' } }), null);
  t.equal(codex.read(fx('Stop')), null);
  t.equal(codex.read(fx('UserPromptSubmit')), null);
});

t.test('pre-tool, session start and end', async (t) => {
  const pre = codex.read(fx('PreToolUse.Bash.seq-1-300')) as PreToolInput;
  t.same([pre.kind, pre.tool, pre.command], ['pre-tool', 'shell', 'seq 1 300']);
  const start = codex.read(fx('SessionStart.startup'));
  t.same([start?.kind, (start as any).source], ['session-start', 'startup']);
  const end = codex.read(fx('SessionEnd.other'));
  t.same([end?.kind, (end as any).reason], ['session-end', 'other']);
  const sub = codex.read({ ...fx('PreToolUse.Bash.seq-1-300'), agent_id: 'agent-7' }) as PreToolInput;
  t.equal(sub.agentId, 'agent-7', 'subagents keep their own reader scope');
});

// Keys Codex 0.171.0 accepts in a PostToolUse reply (post-tool-use.command.output schema,
// additionalProperties: false: any other key makes Codex drop the whole reply).
const POST_KEYS = ['continue', 'decision', 'hookSpecificOutput', 'reason', 'stopReason', 'suppressOutput', 'systemMessage'];

t.test('the output reply: decision block + reason, the exit status line kept', async (t) => {
  const p = withRollout('PostToolUse.Bash.seq-1-300', 'rollout.bypass');
  const i = codex.read(p) as PostShellInput;
  const reply = JSON.parse(codex.replyOutput(p, i, '1\n[omni: 298 lines folded — omni retrieve 0123456789abcdef]\n300'));
  t.same(Object.keys(reply).sort(), ['decision', 'reason']);
  t.ok(Object.keys(reply).every((k) => POST_KEYS.includes(k)), 'only keys Codex accepts');
  t.equal(reply.decision, 'block');
  t.equal(reply.reason, 'Process exited with code 0\nOutput:\n1\n[omni: 298 lines folded — omni retrieve 0123456789abcdef]\n300');
  // What Codex measured: the model gets exactly the reason (fixtures/reply.applied.json).
  const applied = fx('reply.applied') as any;
  t.equal(applied.modelSaw, applied.replies.PostToolUse.reason, 'Codex sends the reason verbatim as the tool result');
  t.equal(outputReply('x'), JSON.stringify({ decision: 'block', reason: 'Process exited with code 0\nOutput:\nx' }));
});

t.test('session context reply', async (t) => {
  const p = fx('SessionStart.startup');
  const input = codex.read(p)!;
  t.same(JSON.parse(codex.replyContext!(p, input, 'ctx')), { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } });
  const applied = fx('reply.applied') as any;
  t.ok(applied.developerMessages.some((m: string) => m.endsWith(applied.replies.SessionStart.hookSpecificOutput.additionalContext)), 'measured: it reaches the model as a developer message');
  const end = fx('SessionEnd.other');
  t.equal(codex.replyContext!(end, codex.read(end)!, 'ctx'), '', 'nowhere else');
});

t.test('rewrite policy: only where Codex runs commands unasked and unsandboxed', async (t) => {
  const noRules = { CODEX_HOME: mkdtempSync(join(work, 'codex-home-')) };
  const policy = async (p: JsonObject, env: NodeJS.ProcessEnv = noRules) => await codex.rewrite!.policy(p, codex.read(p) as PreToolInput, env, "");
  const bypass = await policy(withRollout('PreToolUse.Bash.seq-1-300', 'rollout.bypass'));
  t.same([bypass.rewrite, bypass.rewrite && bypass.decision], [true, 'allow'], `bypass: ${bypass.reason}`);
  const ro = await policy(withRollout('PreToolUse.Bash.read-only', 'rollout.read-only'));
  t.equal(ro.rewrite, false, `read-only sandbox, approvals never: ${ro.reason}`);
  t.match(ro.reason, /read-only sandbox/);
  const afm = await policy(withRollout('PreToolUse.Bash.approve-for-me', 'rollout.approve-for-me'));
  t.equal(afm.rewrite, false, `approve-for-me: ${afm.reason}`);
  t.match(afm.reason, /permission_mode default/);
  const lost = await policy(withRollout('PreToolUse.Bash.seq-1-300', null));
  t.equal(lost.rewrite, false, `no rollout: ${lost.reason}`);
  const otherTurn = await policy({ ...withRollout('PreToolUse.Bash.seq-1-300', 'rollout.bypass'), turn_id: 'another-turn' });
  t.equal(otherTurn.rewrite, false, "another turn's record does not count");
  // A user rule that forbids or prompts would be judged on the rewritten command: no rewrite.
  const withRules = mkdtempSync(join(work, 'codex-home-rules-'));
  mkdirSync(join(withRules, 'rules'));
  writeFileSync(join(withRules, 'rules', 'default.rules'), 'prefix_rule(pattern = ["npm", "publish"], decision = "forbidden")\n');
  const ruled = await policy(withRollout('PreToolUse.Bash.seq-1-300', 'rollout.bypass'), { CODEX_HOME: withRules });
  t.equal(ruled.rewrite, false, `forbidden rule: ${ruled.reason}`);
  t.match(ruled.reason, /default\.rules/);
  const past = fx('reply.allow-past-forbidden-rule') as any;
  t.match(past.modelSawWithoutHookReply, /rejected: ls is forbidden here/, 'measured: the rule stops the raw command');
  t.match(past.modelSawWithRewrite, /Process exited with code 0/, 'measured: the same command rewritten by a hook ran past the rule');
  // The fixture's own measurement: allow does not lift the read-only sandbox.
  t.match((fx('reply.allow-in-read-only-sandbox') as any).modelSaw, /Read-only file system/);
});

t.test('rewrite reply: allow + updatedInput, the rest of tool_input kept', async (t) => {
  const p = { ...fx('PreToolUse.Bash.seq-1-300'), tool_input: { command: 'seq 1 300', workdir: '/x' } };
  const input = codex.read(p) as PreToolInput;
  const r = JSON.parse(codex.rewrite!.reply(p, input, "OMNI_SESSION_ID=s omni exec 'seq 1 300'", 'allow', 'why'));
  t.same(r, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'why', updatedInput: { command: "OMNI_SESSION_ID=s omni exec 'seq 1 300'", workdir: '/x' } } });
  t.equal(codex.rewrite!.reply(p, input, 'x', null, 'why'), '', 'without allow Codex ignores updatedInput: no reply');
  const ignored = fx('reply.ignored') as any;
  t.equal(ignored.postToolUseSaw.tool_input.command, 'seq 1 3', 'measured: updatedInput without allow is not applied');
});

t.test('exec-policy rule sources that can prompt or forbid', async (t) => {
  const root = mkdtempSync(join(work, 'rules-'));
  const sys = join(root, 'etc-codex');
  const home = join(root, 'codex-home');
  const proj = join(root, 'repo', 'sub', 'dir');
  mkdirSync(proj, { recursive: true });
  const env = { CODEX_HOME: home };
  t.equal(restrictiveRules(proj, env, sys), null, 'no rule files');
  mkdirSync(join(home, 'rules'), { recursive: true });
  writeFileSync(join(home, 'rules', 'default.rules'), 'prefix_rule(pattern = ["git", "status"], decision = "allow")\nprefix_rule(pattern = ["ls"])\n');
  t.equal(restrictiveRules(proj, env, sys), null, 'allow-only rules (what the TUI appends) change nothing under approvals never');
  mkdirSync(join(root, 'repo', '.codex', 'rules'), { recursive: true });
  writeFileSync(join(root, 'repo', '.codex', 'rules', 'team.rules'), 'prefix_rule(\n    pattern = ["git", "push"],\n    decision = "prompt",\n)\n');
  t.equal(restrictiveRules(proj, env, sys), join(root, 'repo', '.codex', 'rules', 'team.rules'), "a parent project's prompt rule");
  t.equal(restrictiveRules(join(root, 'elsewhere'), env, sys), null, 'not on the path of another cwd');
  writeFileSync(join(home, 'rules', 'x.rules'), "prefix_rule(pattern = ['rm'], decision = 'forbidden')\n");
  t.equal(restrictiveRules(null, env, sys), join(home, 'rules', 'x.rules'), 'a user forbidden rule');
  mkdirSync(sys, { recursive: true });
  writeFileSync(join(sys, 'requirements.toml'), '[rules]\nprefix_rules = []\n');
  t.equal(restrictiveRules(null, { CODEX_HOME: join(root, 'none') }, sys), join(sys, 'requirements.toml'), 'managed requirements with rules');
});

t.test('rollout reading helpers', async (t) => {
  const text = readFileSync(join(FIX, 'rollout.bypass.jsonl'), 'utf8');
  t.equal(exitCodeIn(text, 'call_bypass_00'), 0);
  t.equal(exitCodeIn(text, 'call_bypass_01'), 2);
  t.equal(exitCodeIn(text, 'call_bypass_02'), 3);
  t.equal(exitCodeIn(text, 'call_bypass_0'), null, 'ids match whole');
  t.same(turnPolicyIn(text, null), { approvalPolicy: 'never', sandbox: 'danger-full-access' });
  t.same(turnPolicyIn(readFileSync(join(FIX, 'rollout.read-only.jsonl'), 'utf8'), null), { approvalPolicy: 'never', sandbox: 'read-only' });
  t.equal(lastInRollout('{"a":1}\nnot json "x"\n{"a":2,"x":1}\n', '"x"', (r) => (r.a as number) ?? null), 2, 'the last matching record');
  // A big rollout: the record is found past the first tail window.
  const file = join(work, 'big-rollout-x.jsonl');
  const pad = JSON.stringify({ type: 'event_msg', payload: { type: 'noise', text: 'x'.repeat(1000) } });
  const lines = text.split('\n').filter(Boolean);
  writeFileSync(file, [lines.find((l) => l.includes('call_bypass_01')), ...Array(600).fill(pad)].join('\n') + '\n');
  t.equal(commandExitCode(file, 'call_bypass_01'), 2);
  const tail = readTail(file, 4096)!;
  t.equal(tail.whole, false);
  t.ok(tail.text.startsWith('{'), 'the tail starts on a whole line');
});

// ---------------------------------------------------------------------------------------------
// Installer, on real files.

function tmpEnv(): { env: NodeJS.ProcessEnv; dir: string; proj: string } {
  const dir = mkdtempSync(join(work, 'install-'));
  const proj = join(dir, 'proj');
  mkdirSync(proj, { recursive: true });
  return { dir, proj, env: { HOME: join(dir, 'home'), CODEX_HOME: join(dir, 'codex-home'), PATH: '/usr/bin:/bin' } };
}

const BIN = '/opt/omni/dist/omni.cjs';

t.test('installer: idempotent, keeps foreign entries, uninstall removes only omni', async (t) => {
  const { env, proj } = tmpEnv();
  const file = hooksPath('user', proj, env);
  t.equal(file, join(env.CODEX_HOME!, 'hooks.json'), '$CODEX_HOME is respected');
  mkdirSync(env.CODEX_HOME!, { recursive: true });
  const foreign = { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit-log', timeout: 5 }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] }, description: 'mine' };
  writeFileSync(file, JSON.stringify(foreign, null, 2));
  const opts = { scope: 'user' as const, cwd: proj, bin: BIN, nodePath: '/usr/bin/node', preHook: true, env };
  const first = codexInstaller.install(opts);
  t.equal(first.changed, true);
  t.match(first.notes.join('\n'), /not trusted yet.*\/hooks/s, 'the trust step is in the notes');
  const after = JSON.parse(readFileSync(file, 'utf8'));
  t.equal(after.description, 'mine');
  t.equal(after.hooks.Stop[0].hooks[0].command, 'notify-send done');
  t.equal(after.hooks.PostToolUse[0].hooks[0].command, '/usr/local/bin/audit-log', 'the foreign hook stays first');
  const mine = omniHooksWithKeys(file, after);
  t.same(mine.map((h) => h.event).sort(), CODEX_HOOKS.map((h) => h.event).sort());
  t.ok(mine.every((h) => h.command.includes(BIN)));
  t.equal(mine.find((h) => h.event === 'PostToolUse')!.key, `${file}:post_tool_use:1:0`, "omni's group comes after the foreign one");
  const bytes = readFileSync(file, 'utf8');
  const second = codexInstaller.install(opts);
  t.equal(second.changed, false, 'a second install changes nothing');
  t.equal(readFileSync(file, 'utf8'), bytes, 'byte-identical');
  const un = codexInstaller.uninstall(opts);
  t.equal(un.changed, true);
  t.same(JSON.parse(readFileSync(file, 'utf8')), foreign, 'exactly the foreign file again');
  t.equal(codexInstaller.uninstall(opts).changed, false);
  const noPre = codexInstaller.install({ ...opts, preHook: false });
  t.ok(noPre.changed);
  t.notOk(omniHooksWithKeys(file, JSON.parse(readFileSync(file, 'utf8'))).some((h) => h.event === 'PreToolUse'), 'preHook false: no PreToolUse');
});

t.test('installer: project scope', async (t) => {
  const { env, proj } = tmpEnv();
  const r = codexInstaller.install({ scope: 'project', cwd: proj, bin: BIN, preHook: true, env });
  t.same(r.files, [join(proj, '.codex', 'hooks.json')]);
  t.ok(existsSync(join(proj, '.codex', 'hooks.json')));
  t.match(r.notes.join('\n'), /trusted/);
});

t.test('trust hashes and keys are the ones Codex itself reports (hooks/list, captured)', async (t) => {
  const list = fx('hooks-list.omni') as any;
  const file = '/tmp/omni-codex-list/codex-home/hooks.json';
  const mine = omniHooksWithKeys(file, list.hooksJson);
  t.equal(mine.length, list.hooks.length);
  for (const h of list.hooks) {
    const m = mine.find((x) => x.key === h.key);
    t.ok(m, `${h.key}: same key`);
    t.equal(m?.hash, h.currentHash, `${h.key}: same hash`);
  }
  // Codex said the one entry written with our hash is trusted, the rest untrusted.
  const states = new Map([[mine[0].key, { trustedHash: mine[0].hash }]]);
  t.same(list.hooks.map((h: any) => h.trustStatus), mine.map((m) => trustOf(m, states)));
  t.equal(eventKey('PostToolUse'), 'post_tool_use');
  t.equal(eventKey('SessionStart'), 'session_start');
  t.not(trustHash('PostToolUse', 'Bash', { command: 'a', timeout: 60 }), trustHash('PostToolUse', 'Bash', { command: 'b', timeout: 60 }), 'a changed command needs trust again');
});

t.test('reading trust state from config.toml', async (t) => {
  const toml = [
    'model = "x"',
    '[hooks.state."/h/.codex/hooks.json:post_tool_use:0:0"]',
    'trusted_hash = "sha256:aaa"',
    '',
    "[hooks.state.'/h/.codex/hooks.json:session_start:0:0']",
    'trusted_hash = "sha256:bbb" # reviewed',
    'enabled = false',
    '[other]',
    'trusted_hash = "sha256:zzz"',
  ].join('\n');
  const s = readHookStates(toml);
  t.same(s.get('/h/.codex/hooks.json:post_tool_use:0:0'), { trustedHash: 'sha256:aaa' });
  t.same(s.get('/h/.codex/hooks.json:session_start:0:0'), { trustedHash: 'sha256:bbb', enabled: false });
  t.equal(s.size, 2);
  t.equal(hooksDisabled('[features]\nhooks = false\n'), true);
  t.equal(hooksDisabled('features.hooks = false\n'), true);
  t.equal(hooksDisabled('[features]\nhooks = true\n[x]\nhooks = false\n'), false);
});

t.test('status: trust recorded under the resolved path of a symlinked CODEX_HOME counts', async (t) => {
  const { env, proj, dir } = tmpEnv();
  const real = join(dir, 'real-codex-home');
  mkdirSync(real, { recursive: true });
  symlinkSync(real, env.CODEX_HOME!);
  codexInstaller.install({ scope: 'user', cwd: proj, bin: BIN, preHook: true, env });
  const mine = omniHooksWithKeys(join(real, 'hooks.json'), JSON.parse(readFileSync(join(real, 'hooks.json'), 'utf8')));
  writeFileSync(userConfigPath(env), mine.map((h) => `[hooks.state."${h.key}"]\ntrusted_hash = "${h.hash}"\n`).join('\n'));
  const st = await codexInstaller.status({ cwd: proj, env, bin: BIN, scope: 'user' });
  t.equal(st.wired, true);
  t.notOk(st.problems.some((p) => /trust/.test(p.what)), 'trusted under the real path');
});

t.test('status: wiring, trust and problems, on real files', async (t) => {
  const { env, proj } = tmpEnv();
  const opts = { scope: 'user' as const, cwd: proj, bin: BIN, nodePath: '/usr/bin/node', preHook: true, env };
  const before = await codexInstaller.status({ cwd: proj, env, bin: BIN, scope: 'user' });
  t.equal(before.wired, false);
  t.ok(before.problems.some((p) => /not wired/.test(p.what)));
  codexInstaller.install(opts);
  const untrusted = await codexInstaller.status({ cwd: proj, env, bin: BIN, scope: 'user' });
  t.equal(untrusted.wired, true);
  t.equal(untrusted.tier, 'full');
  t.ok(untrusted.problems.some((p) => p.status === 'fail' && /does not trust/.test(p.what) && /\/hooks/.test(p.fix)), 'untrusted hooks are a failure with the fix');
  t.ok(untrusted.problems.some((p) => /\/opt\/omni\/dist\/omni\.cjs/.test(p.what) && /not there/.test(p.what)), 'a hook command path that does not exist is reported');
  // Trust them the way /hooks does.
  const file = hooksPath('user', proj, env);
  const mine = omniHooksWithKeys(file, JSON.parse(readFileSync(file, 'utf8')));
  writeFileSync(userConfigPath(env), mine.map((h) => `[hooks.state."${h.key}"]\ntrusted_hash = "${h.hash}"\n`).join('\n'));
  const trusted = await codexInstaller.status({ cwd: proj, env, bin: BIN, scope: 'user' });
  t.notOk(trusted.problems.some((p) => /trust/.test(p.what)), 'trusted: no trust problem');
  t.match(trusted.note, /replaces a successful command's output/);
  writeFileSync(userConfigPath(env), readFileSync(userConfigPath(env), 'utf8') + '\n[features]\nhooks = false\n');
  t.ok((await codexInstaller.status({ cwd: proj, env, bin: BIN, scope: 'user' })).problems.some((p) => /switched off/.test(p.what)));
  t.ok((await codexInstaller.status({ cwd: proj, env, bin: '/elsewhere/omni.cjs', scope: 'user' })).problems.some((p) => /another omni/.test(p.what)));
});

t.test('detect: the real pinned CLI and its version', async (t) => {
  const CODEX = hostBin('codex');
  if (!needs(t, Boolean(existsSync(CODEX)), `${CODEX} (node scripts/host-clis.mjs installs the pinned Codex)`)) return;
  const bin = CODEX;
  const d = codexInstaller.detect({ OMNI_CODEX_BIN: bin, PATH: process.env.PATH, HOME: work });
  t.equal(d.detected, true);
  t.equal(d.version, '0.171.0');
  t.same(codexInstaller.detect({ PATH: '/nonexistent', HOME: join(work, 'nohome'), CODEX_HOME: join(work, 'nocodex') }), { detected: false });
  t.equal(codexInstaller.detect({ OMNI_CODEX_BIN: join(work, 'missing'), PATH: '/nonexistent', HOME: work, CODEX_HOME: join(work, 'nocodex') }).detected, false);
});

// ---------------------------------------------------------------------------------------------
// Through the hook door, with a real store: what `omni --post-hook` / `--pre-hook` print for
// Codex's captured payloads.

t.test('the hook door answers Codex payloads in Codex shape (real store)', async (t) => {
  const { runHook } = await import('../../lib/doors/hook.js');
  const env: NodeJS.ProcessEnv = { HOME: join(work, 'door-home'), OMNI_HOME: mkdtempSync(join(work, 'door-omni-')), PATH: process.env.PATH, OMNI_BIN: '/opt/omni/dist/omni.cjs' };
  const hook = (flag: string, p: JsonObject) => runHook(flag, Buffer.from(JSON.stringify(p)), env);

  const noisy = Array.from({ length: 300 }, (_, i) => `Downloading https://registry.example.org/package-${i % 3}.tgz 50%`).join('\n') + '\nadded 300 packages in 3s\n';
  const ok = { ...withRollout('PostToolUse.Bash.seq-1-300', 'rollout.bypass'), tool_response: noisy };
  const reply = JSON.parse(await hook('post-hook', ok));
  t.same(Object.keys(reply).sort(), ['decision', 'reason']);
  t.equal(reply.decision, 'block');
  t.match(reply.reason, /^Process exited with code 0\nOutput:\n/);
  t.ok(reply.reason.length < noisy.length / 4, `${noisy.length} B -> ${reply.reason.length} B`);
  t.match(reply.reason, /omni retrieve [0-9a-f]{16}/);
  t.ok(reply.reason.trimEnd().endsWith('added 300 packages in 3s'));

  const failed: JsonObject = { ...withRollout('PostToolUse.Bash.ls-nonexistent', 'rollout.bypass'), tool_response: noisy };
  t.equal(await hook('post-hook', failed), '', 'exit 2 (from the rollout): no reply, the output stays verbatim');
  {
    const { openStore } = await import('../../lib/store/open.js');
    const { lastError } = await import('../../lib/store/memory.js');
    const store = openStore({ home: env.OMNI_HOME });
    try {
      const last = lastError(store, String(failed.cwd));
      t.equal(last?.command, String((failed.tool_input as JsonObject).command), 'the failure is remembered');
      t.match(last?.excerpt ?? '', /^Exit code 2\n/, 'with the exit code the rollout gave');
    } finally {
      store.close();
    }
  }
  const unknown = { ...fx('PostToolUse.Bash.ephemeral'), tool_response: noisy };
  t.equal(await hook('post-hook', unknown), '', 'exit unknown: no reply');

  const pre = { ...withRollout('PreToolUse.Bash.seq-1-300', 'rollout.bypass'), tool_input: { command: 'npm test' } };
  const pr = JSON.parse(await hook('pre-hook', pre));
  t.equal(pr.hookSpecificOutput.permissionDecision, 'allow');
  t.match(pr.hookSpecificOutput.updatedInput.command, /^OMNI_SESSION_ID=\S+ OMNI_AGENT_ID=main \S+ \/opt\/omni\/dist\/omni\.cjs exec --bash 'npm test'$/, 'under bash, as Codex runs it');
  for (const c of ['npm  test', '"npm" test', 'env FOO=1 npm test', '/usr/bin/npm test', 'npm test -- {a,b}']) {
    t.equal(await hook('pre-hook', { ...pre, tool_input: { command: c } }), '', `${JSON.stringify(c)}: not plain words, left to Codex as typed`);
  }
  const reveal = { ...withRollout('PreToolUse.Bash.read-only', 'rollout.read-only'), tool_input: { command: "omni retrieve 0123456789abcdef '--reveal'" } };
  t.same(JSON.parse(await hook('pre-hook', reveal)), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: REVEAL_DENIED } }, 'omni retrieve --reveal: denied, with the reason Codex requires');
  const preRo = { ...withRollout('PreToolUse.Bash.read-only', 'rollout.read-only'), tool_input: { command: 'npm test' } };
  t.equal(await hook('pre-hook', preRo), '', 'read-only sandbox: no rewrite');
  const preAfm = { ...withRollout('PreToolUse.Bash.approve-for-me', 'rollout.approve-for-me'), tool_input: { command: 'npm test' } };
  t.equal(await hook('pre-hook', preAfm), '', 'on-request approvals: no rewrite');

  t.equal(await hook('post-hook', fx('SessionStart.startup')), '', 'a SessionStart payload on --post-hook: no reply');
  const start = await hook('session-start', fx('SessionStart.startup'));
  if (start !== '') t.same(Object.keys(JSON.parse(start).hookSpecificOutput).sort(), ['additionalContext', 'hookEventName']);
  t.equal(await hook('session-end', fx('SessionEnd.other')), '');
});
