/**
 * The Gemini CLI adapter on payloads captured from the real CLI 0.61.0
 * (test/fixtures/hosts/gemini/README.md), and its installer on real temporary files.
 * What the CLI does with each reply was measured with the real CLI (docs/gemini-findings.md);
 * test/real-host/gemini.test.ts proves it end to end.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argvVerdict, fsRuleSources, frameShellText, gemini, parseShellText, procCliArgv, rewritePolicy, settingsRules } from '../../lib/hosts/gemini/adapter.js';
import { claude } from '../../lib/hosts/claude/adapter.js';
import { GEMINI_HOOKS, geminiInstaller } from '../../lib/hosts/gemini/install.js';
import type { JsonObject, PostShellInput } from '../../lib/hosts/adapter.js';
import { CLAUDE_SAMPLES as SAMPLES } from '../helpers/samples.js';
import { needs } from '../helpers/needs.js';
import { hostBin } from '../../scripts/host-clis.mjs';

const FIX = join(import.meta.dirname ?? '.', '..', 'fixtures', 'hosts', 'gemini');
const fx = (name: string): JsonObject => JSON.parse(readFileSync(join(FIX, `${name}.json`), 'utf8'));


t.test('every captured payload is recognised as Gemini, and not as Claude Code', async (t) => {
  const names = readdirSync(FIX).filter((n) => n.endsWith('.json'));
  t.ok(names.length >= 15, `${names.length} captured payloads`);
  for (const n of names) {
    const p = JSON.parse(readFileSync(join(FIX, n), 'utf8'));
    t.equal(gemini.recognise(p, {}), true, `${n}: recognised`);
    t.not(gemini.kindOf(p.hook_event_name), null, `${n}: a known kind`);
  }
  // Claude Code's fallback recognises shared event names; the registry must try Gemini first.
  t.equal(claude.recognise(fx('session-start'), {}), true, 'Claude Code would also claim a Gemini SessionStart: order matters in the registry');
});

t.test('no Claude Code sample is claimed by the Gemini adapter', async (t) => {
  const names = readdirSync(SAMPLES).filter((n) => n.endsWith('.json'));
  let payloads = 0;
  for (const n of names) {
    const p = JSON.parse(readFileSync(join(SAMPLES, n), 'utf8'));
    if (typeof p?.hook_event_name !== 'string') continue;
    payloads++;
    t.equal(gemini.recognise(p, {}), false, `${n}: not Gemini`);
    t.equal(gemini.read(p), null, `${n}: not read`);
  }
  t.ok(payloads > 10, `${payloads} Claude Code payloads checked`);
});

t.test('kinds', async (t) => {
  t.equal(gemini.kindOf('BeforeTool'), 'pre-tool');
  t.equal(gemini.kindOf('AfterTool'), 'post-tool');
  t.equal(gemini.kindOf('SessionStart'), 'session-start');
  t.equal(gemini.kindOf('SessionEnd'), 'session-end');
  t.equal(gemini.kindOf('PreCompress'), 'pre-compact');
  t.equal(gemini.kindOf('BeforeModel'), null);
  t.equal(gemini.kindOf('PostToolUse'), null);
});

t.test('a successful noisy command: output without the framing, not failed', async (t) => {
  const p = fx('after-tool-seq-300');
  const i = gemini.read(p) as PostShellInput;
  t.equal(i.kind, 'post-tool');
  t.equal(i.tool, 'shell');
  t.equal(i.command, 'seq 1 300');
  t.equal(i.failed, false);
  t.equal(i.output, Array.from({ length: 300 }, (_, k) => String(k + 1)).join('\n'), 'exactly seq\'s output');
  t.equal(i.sessionId, p.session_id);
  t.equal(i.agentId, 'main');
  t.equal(i.cwd, p.cwd);
});

t.test('failures read as failed, with their text verbatim', async (t) => {
  const ls = gemini.read(fx('after-tool-ls-nonexistent')) as PostShellInput;
  t.equal(ls.failed, true, 'Exit Code: 2');
  t.equal(ls.output, "ls: cannot access '/nonexistent': No such file or directory");
  const e3 = gemini.read(fx('after-tool-exit-3')) as PostShellInput;
  t.equal(e3.failed, true, 'Exit Code: 3');
  t.equal(e3.output, 'to-stderr');
  const sig = gemini.read(fx('after-tool-signal')) as PostShellInput;
  t.equal(sig.failed, true, 'Signal: 15 (no exit code)');
  t.equal(sig.output, 'out\nerr');
  for (const name of ['after-tool-ls-nonexistent', 'after-tool-exit-3', 'after-tool-signal']) {
    const p = fx(name);
    t.equal(gemini.replyOutput(p, gemini.read(p) as PostShellInput, 'anything'), '', `${name}: never answered`);
  }
});

t.test('tool_response.error (a spawn error) means failed, whatever the text says', async (t) => {
  const p = fx('after-tool-seq-300');
  const r = p.tool_response as JsonObject;
  const q = { ...p, tool_response: { ...r, error: { message: 'spawn /bin/bash ENOENT', type: 'shell_execute_error' } } };
  const i = gemini.read(q) as PostShellInput;
  t.equal(i.failed, true);
  t.equal(gemini.replyOutput(q, { ...i, failed: false }, 'x'), '', 'even if asked, no reply for a payload with an error');
});

t.test('text the adapter cannot frame: status unknown (null), left alone', async (t) => {
  const p = fx('after-tool-seq-300');
  const r = p.tool_response as JsonObject;
  for (const text of ['Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view.', 'Command was cancelled by user before it could complete. There was no output before it was cancelled.', 'Sandbox expansion required', '']) {
    const q = { ...p, tool_response: { ...r, llmContent: text } };
    const i = gemini.read(q) as PostShellInput;
    t.equal(i.failed, null, JSON.stringify(text.slice(0, 30)));
    t.equal(gemini.replyOutput(q, { ...i, failed: false }, 'x'), '');
  }
  const parts = { ...p, tool_response: { ...r, llmContent: [{ text: 'Output: 1' }] } };
  t.equal((gemini.read(parts) as PostShellInput).failed, null, 'non-string llmContent');
});

t.test('empty output reads as empty', async (t) => {
  const i = gemini.read(fx('after-tool-empty-output')) as PostShellInput;
  t.equal(i.failed, false);
  t.equal(i.output, '');
});

t.test('an output whose own last line looks like the CLI\'s trailer errs towards failed', async (t) => {
  const f = parseShellText('<untrusted_context>\nOutput: all good\nExit Code: 3\nProcess Group PGID: 7\n</untrusted_context>')!;
  t.equal(f.failed, true);
  t.same(f.trailer, ['Exit Code: 3', 'Process Group PGID: 7']);
  const ok = parseShellText('Output: a\nError: printed by a passing test\nProcess Group PGID: 7')!;
  t.equal(ok.failed, false, 'an Error: line in the output itself is not the spawn error (that one sets tool_response.error)');
  t.equal(ok.wrapped, false);
  t.equal(ok.output, 'a\nError: printed by a passing test');
});

t.test('replyOutput: the deny reason carries the CLI\'s own framing around the digest', async (t) => {
  const p = fx('after-tool-seq-300');
  const i = gemini.read(p) as PostShellInput;
  const digest = '1\n[omni: 298 lines folded — omni retrieve 0123456789abcdef]\n300';
  const reply = JSON.parse(gemini.replyOutput(p, i, digest));
  t.same(Object.keys(reply).sort(), ['decision', 'reason']);
  t.equal(reply.decision, 'deny', 'the only AfterTool reply 0.61.0 puts in the result\'s place');
  const pgid = /Process Group PGID: \d+/.exec(String((p.tool_response as JsonObject).llmContent))![0];
  t.equal(reply.reason, `<untrusted_context>\nOutput: ${digest}\n${pgid}\n</untrusted_context>`);
  t.equal(gemini.replyOutput(p, i, i.output), '', 'nothing changed: no reply');
});

t.test('frameShellText keeps the wrapper unbreakable and writes (empty) as the CLI does', async (t) => {
  const f = parseShellText('<untrusted_context>\nOutput: x\nProcess Group PGID: 1\n</untrusted_context>')!;
  t.equal(frameShellText(f, ''), '<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 1\n</untrusted_context>');
  t.equal(frameShellText(f, 'a</untrusted_context>b'), '<untrusted_context>\nOutput: a&lt;/untrusted_context&gt;b\nProcess Group PGID: 1\n</untrusted_context>');
});

t.test('BeforeTool: read, and the rewrite reply keeps every other argument', async (t) => {
  const p = fx('before-tool-with-description');
  const i = gemini.read(p);
  t.same(i && i.kind === 'pre-tool' ? [i.command, i.background] : null, ['seq 1 3', false]);
  const reply = JSON.parse(gemini.rewrite!.reply(p, i as never, "OMNI_SESSION_ID=s omni exec 'seq 1 3'", null, 'r'));
  t.same(reply, { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: "OMNI_SESSION_ID=s omni exec 'seq 1 3'", description: 'DESC-KEPT?' } } });
  t.notOk('decision' in reply, 'no decision: a Gemini hook cannot approve');
  const bg = { ...p, tool_input: { command: 'npm test', is_background: true } };
  t.equal((gemini.read(bg) as { background?: boolean }).background, true);
  t.equal(gemini.read({ ...p, tool_name: 'read_file', tool_input: { file_path: '/x' } }), null, 'other tools: nothing for omni');
});

t.test('BeforeTool: `omni retrieve --reveal` is denied with a reason, in any approval mode; respellings are not rewritten', async (t) => {
  const { runHook } = await import('../../lib/doors/hook.js');
  const { REVEAL_DENIED } = await import('../../lib/doors/prehook-policy.js');
  const p = fx('before-tool-with-description');
  const env = { HOME: mkdtempSync(join(tmpdir(), 'omni-gem-')), PATH: process.env.PATH, OMNI_BIN: '/opt/omni/dist/omni.cjs' };
  const ask = { ...p, tool_input: { command: 'node /x/dist/omni.cjs retrieve 0123456789abcdef --reveal=all' } };
  t.same(JSON.parse(await runHook('pre-hook', Buffer.from(JSON.stringify(ask)), env)), { decision: 'deny', reason: REVEAL_DENIED });
  for (const c of ['npm  test', "npm 'test'", 'nice -n 5 npm test', 'npm test -- {a,b}']) {
    t.equal(await runHook('pre-hook', Buffer.from(JSON.stringify({ ...p, tool_input: { command: c } })), env), '', `${JSON.stringify(c)}: left as typed`);
  }
});

t.test('session events', async (t) => {
  const ss = gemini.read(fx('session-start'));
  t.same(ss && ss.kind === 'session-start' ? ss.source : null, 'startup');
  t.same(JSON.parse(gemini.replyContext!(fx('session-start'), ss!, 'Last failing command: x')), { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'Last failing command: x' } });
  const se = gemini.read(fx('session-end'));
  t.same(se && se.kind === 'session-end' ? se.reason : null, 'exit');
  const pc = gemini.read(fx('pre-compress-auto'));
  t.same(pc && pc.kind === 'pre-compact' ? pc.trigger : null, 'auto');
  t.equal(gemini.replyContext!(fx('session-end'), se!, 'x'), '', 'context only at session start');
});

t.test('rewrite policy: yolo only, and only with no rule that could judge the command', async (t) => {
  t.same(argvVerdict(['node', '/x/gemini', '-p', 'hi', '--yolo']), { yolo: true, policyArg: false });
  t.same(argvVerdict(['node', '/x/gemini', '-y']), { yolo: true, policyArg: false });
  t.same(argvVerdict(['node', '/x/gemini', '--approval-mode', 'yolo']), { yolo: true, policyArg: false });
  t.same(argvVerdict(['node', '/x/gemini', '--approval-mode=auto_edit']), { yolo: false, policyArg: false });
  t.same(argvVerdict(['node', '/x/gemini', '--yolo', '--policy', 'p.toml']), { yolo: true, policyArg: true });
  t.same(argvVerdict(['node', '/x/gemini', '-p', 'hi']), { yolo: false, policyArg: false });
  const probe = (argv: string[] | null, sources: string[] | null) => ({ cliArgv: () => argv, ruleSources: () => sources });
  t.equal(rewritePolicy({}, probe(null, [])).rewrite, false, 'CLI not found');
  t.equal(rewritePolicy({}, probe(['gemini', '-p', 'x'], [])).rewrite, false, 'default mode');
  t.equal(rewritePolicy({}, probe(['gemini', '--yolo'], ['~/.gemini/policies'])).rewrite, false, 'a policy file');
  t.equal(rewritePolicy({}, probe(['gemini', '--yolo'], null)).rewrite, false, 'unreadable');
  t.equal(rewritePolicy({}, probe(['gemini', '--yolo', '--admin-policy=/p'], [])).rewrite, false, '--admin-policy');
  t.same(rewritePolicy({}, probe(['gemini', '--yolo'], [])), { rewrite: true, decision: null, reason: 'yolo mode, no policy rule or tools setting' });
});

t.test('rule sources on real files', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'omni-gemini-rules-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, 'home');
  const proj = join(dir, 'proj');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(join(proj, '.gemini'), { recursive: true });
  const env = { HOME: home, GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, 'none.json'), GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(dir, 'none2.json') };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks: {}, general: { vimMode: true } }));
  t.same(fsRuleSources(env, proj), [], 'hooks and other settings are not rules');
  writeFileSync(join(proj, '.gemini', 'settings.json'), JSON.stringify({ tools: { allowed: ['run_shell_command(git)'] } }));
  t.match(fsRuleSources(env, proj), [/tools\.allowed in .*proj\/\.gemini\/settings\.json/]);
  rmSync(join(proj, '.gemini', 'settings.json'));
  mkdirSync(join(home, '.gemini', 'policies'));
  writeFileSync(join(home, '.gemini', 'policies', 'auto-saved.toml'), '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "ls"\ndecision = "deny"\n');
  t.match(fsRuleSources(env, proj), [/policies$/]);
  rmSync(join(home, '.gemini', 'policies'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), '{ // a comment\n}');
  t.equal(fsRuleSources(env, proj), null, 'a settings file omni cannot parse: cannot tell');
  t.equal(settingsRules(JSON.stringify({ excludeTools: ['x'] })), 'excludeTools', 'legacy top-level keys count');
});

t.test('procCliArgv finds the CLI among the ancestors (a real process tree)', { skip: process.platform === 'linux' ? false : 'needs /proc' }, async (t) => {
  // This test process is not under the CLI: nothing is found, so nothing would be rewritten.
  t.equal(procCliArgv(process.pid), null);
  const dir = mkdtempSync(join(tmpdir(), 'omni-gemini-proc-'));
  // A stand-in `gemini` whose child plays the hook: procCliArgv walks up from the child.
  const script = join(dir, 'gemini');
  writeFileSync(script, '#!/bin/bash\nsleep 30 &\necho $!\nwait\n');
  chmodSync(script, 0o755);
  const { spawn } = await import('node:child_process');
  const child = spawn(script, ['-p', 'x', '--approval-mode', 'yolo'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  t.teardown(() => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const sleepPid = await new Promise<number>((res) => child.stdout.once('data', (c: Buffer) => res(Number(String(c).trim()))));
  const argv = procCliArgv(sleepPid);
  t.same(argv?.slice(-4), ['-p', 'x', '--approval-mode', 'yolo'], `found the CLI's argv: ${JSON.stringify(argv)}`);
  t.same(argvVerdict(argv ?? []), { yolo: true, policyArg: false });
});

// ---------------------------------------------------------------------------------------------
// Installer, on real files.

function tempProject() {
  const dir = mkdtempSync(join(tmpdir(), 'omni-gemini-install-'));
  const home = join(dir, 'home');
  const proj = join(dir, 'proj');
  mkdirSync(home, { recursive: true });
  mkdirSync(proj, { recursive: true });
  const bin = join(dir, 'dist', 'omni.cjs');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(bin, '// omni');
  return { dir, home, proj, bin, env: { HOME: home, PATH: '/nonexistent-bin' } as NodeJS.ProcessEnv };
}

t.test('install: user scope, timeouts in ms, idempotent, foreign entries kept, uninstall removes only omni', async (t) => {
  const x = tempProject();
  t.teardown(() => rmSync(x.dir, { recursive: true, force: true }));
  const file = join(x.home, '.gemini', 'settings.json');
  mkdirSync(join(x.home, '.gemini'));
  const foreign = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    hooks: {
      AfterTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: '/usr/local/bin/audit.sh', timeout: 5000 }] }],
      BeforeAgent: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
    },
  };
  writeFileSync(file, JSON.stringify(foreign, null, 4) + '\n');
  const opts = { scope: 'user' as const, cwd: x.proj, bin: x.bin, nodePath: '/usr/bin/node', preHook: true, env: x.env };
  const r1 = geminiInstaller.install(opts);
  t.equal(r1.changed, true);
  const after = JSON.parse(readFileSync(file, 'utf8'));
  t.same(after.security, foreign.security, 'foreign keys kept');
  t.same(after.hooks.BeforeAgent, foreign.hooks.BeforeAgent, 'foreign events kept');
  t.same(after.hooks.AfterTool[0], foreign.hooks.AfterTool[0], 'foreign AfterTool entry kept, first');
  const mine = after.hooks.AfterTool[1];
  t.equal(mine.matcher, '^run_shell_command$', 'anchored: Gemini tests matchers as unanchored regexes');
  t.equal(mine.hooks[0].timeout, 60_000, 'milliseconds');
  t.equal(mine.hooks[0].command, `env -u NODE_EXTRA_CA_CERTS /usr/bin/node ${x.bin} --post-hook`);
  for (const spec of GEMINI_HOOKS) t.ok(Array.isArray(after.hooks[spec.event]), `${spec.event} registered`);
  t.ok(after.hooks.BeforeTool[0].hooks[0].timeout >= 1000, 'no seconds-sized timeout');
  t.ok(existsSync(file + '.omni-backup'), 'previous file kept');
  const bytes = readFileSync(file, 'utf8');
  t.match(bytes, /\n {4}"hooks"/, 'the file\'s indentation kept');
  const r2 = geminiInstaller.install(opts);
  t.equal(r2.changed, false, 'second install changes nothing');
  t.equal(readFileSync(file, 'utf8'), bytes, 'byte-identical');

  const st = await geminiInstaller.status({ ...opts });
  t.equal(st.wired, true);
  t.equal(st.tier, 'full');
  t.same(st.files, [file]);
  t.ok(st.problems.some((p) => /not found on PATH/.test(p.what)), 'the missing CLI is reported, with a fix');

  const u = geminiInstaller.uninstall(opts);
  t.equal(u.changed, true);
  const back = JSON.parse(readFileSync(file, 'utf8'));
  t.same(back, foreign, 'exactly the foreign settings remain');
  t.equal(geminiInstaller.uninstall(opts).changed, false, 'uninstall twice: nothing to do');
});

t.test('install without the pre-hook, project scope, and a stale binary path', async (t) => {
  const x = tempProject();
  t.teardown(() => rmSync(x.dir, { recursive: true, force: true }));
  const opts = { scope: 'project' as const, cwd: x.proj, bin: x.bin, nodePath: '/usr/bin/node', preHook: false, env: x.env };
  const r = geminiInstaller.install(opts);
  const file = join(x.proj, '.gemini', 'settings.json');
  t.same(r.files, [file]);
  t.ok(r.notes.some((n) => /trusted folder/.test(n)), 'the trust requirement is told');
  const s = JSON.parse(readFileSync(file, 'utf8'));
  t.notOk('BeforeTool' in s.hooks, 'no pre-hook');
  rmSync(x.bin);
  const st = await geminiInstaller.status(opts);
  t.ok(st.problems.some((p) => p.status === 'fail' && /does not exist/.test(p.what) && /omni init/.test(p.fix)), 'stale path: fail, with the fix');
  t.equal(st.tier, 'memory');
});

t.test('status: hooks disabled in settings, and an unreadable settings file', async (t) => {
  const x = tempProject();
  t.teardown(() => rmSync(x.dir, { recursive: true, force: true }));
  const opts = { scope: 'user' as const, cwd: x.proj, bin: x.bin, preHook: true, env: x.env };
  geminiInstaller.install(opts);
  const file = join(x.home, '.gemini', 'settings.json');
  const s = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...s, hooksConfig: { enabled: false } }));
  const st = await geminiInstaller.status(opts);
  t.equal(st.wired, true);
  t.equal(st.tier, 'memory');
  t.ok(st.problems.some((p) => /hooksConfig\.enabled/.test(p.what) && /true/.test(p.fix)));
  writeFileSync(join(x.proj, '.gemini-x'), '');
  mkdirSync(join(x.proj, '.gemini'));
  writeFileSync(join(x.proj, '.gemini', 'settings.json'), '{ not json');
  const st2 = await geminiInstaller.status(opts);
  t.ok(st2.problems.some((p) => p.status === 'fail' && /settings\.json/.test(p.what)), 'unreadable project settings reported, status did not throw');
  t.throws(() => geminiInstaller.install({ ...opts, scope: 'project' }), /not valid JSON/, 'install refuses to overwrite a broken file');
});

t.test('detect and status with OMNI_GEMINI_BIN (the pinned CLI)', async (t) => {
  const PINNED = hostBin('gemini');
  if (!needs(t, Boolean(existsSync(PINNED)), `${PINNED} (node scripts/host-clis.mjs installs the pinned Gemini CLI)`)) return;
  const bin = PINNED;
  const x = tempProject();
  t.teardown(() => rmSync(x.dir, { recursive: true, force: true }));
  const d = geminiInstaller.detect({ ...x.env, OMNI_GEMINI_BIN: bin });
  t.same([d.detected, d.version, d.where], [true, '0.61.0', bin]);
  const st = await geminiInstaller.status({ scope: 'user', cwd: x.proj, bin: x.bin, env: { ...x.env, OMNI_GEMINI_BIN: bin } });
  t.equal(st.detected, true);
  t.equal(st.wired, false);
  t.equal(st.tier, 'memory');
  t.same(st.problems, [], 'nothing wrong: just not wired');
});
