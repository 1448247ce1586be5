/**
 * One decision per post-tool call (lib/doors/post-tool.ts): the command hook, the MCP hook tool
 * and `omni discover` reach the same `handlePostTool` over a parsed payload, each with its own
 * store; the clock is a dependency; what the model saw is each host adapter's to say, and the
 * host-neutral door names no host.
 */
import t from 'tap';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempHome } from '../helpers/omni.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';
import { fileRead, readPayload } from '../helpers/reread.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { claude } from '../../lib/hosts/claude/adapter.js';
import { gemini } from '../../lib/hosts/gemini/adapter.js';
import { HOSTS } from '../../lib/hosts/registry.js';
import type { PostReadInput, PostShellInput } from '../../lib/hosts/adapter.js';

const sample = (f: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, f), 'utf8'));
const noisy = Array.from({ length: 400 }, (_, i) => `Downloading package-${i % 9} ${i}%`).join('\n') + '\ndone';

function scratch(t: { teardown(fn: () => void): void }): string {
  const home = tempHome();
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

t.test('the clock is a dependency: a re-read names the time the first read was recorded at, by the given clock', async (t) => {
  const { handlePostTool } = await import('../../lib/doors/post-tool.js');
  const home = scratch(t);
  const text = Array.from({ length: 60 }, (_, i) => `    value_${i} = compute(${i}, "some argument text")  # line ${i + 1}`).join('\n') + '\n';
  const r = fileRead(text);
  const payload = readPayload('s-clock', '/proj/src/app.py', r.content, r.startLine, r.totalLines);
  payload.cwd = '/proj';
  const input = claude.read(payload) as PostReadInput;
  t.equal(input.tool, 'read');
  const at = Date.UTC(2026, 0, 2, 3, 4, 5);
  const once = async () => {
    const store = new LazyStore(home);
    try {
      return await handlePostTool(claude, input, payload, { store, env: { OMNI_HOME: home }, now: () => at, log: () => {}, readOutputFile: () => { throw new Error('none'); }, sessionMemory: true });
    } finally {
      store.close();
    }
  };
  t.equal((await once()).reply, '', 'the first read goes as it is');
  const again = await once();
  t.match(again.delivered, /unchanged since you read them at 03:04:05 /, 'the marker names the clock the first read was recorded with');
  t.not(again.reply, '', 'and the host gets it as its reply');
});

t.test('the MCP hook tool hands the door the payload itself and its warm store: no module slot, no JSON text', async (t) => {
  const hook = await import('../../lib/doors/hook.js');
  t.notOk('hookStores' in hook, 'the hook door holds no module-global store slot');
  const { hookToolReply, resetWarmStore, warmStore } = await import('../../lib/mcp/hook-tool.js');
  const { hookToolInput, renderTemplate } = await import('../../lib/hosts/claude/hook-tool.js');
  const home = scratch(t);
  const env = { ...process.env, OMNI_HOME: home };
  t.teardown(resetWarmStore);
  const p = sample('PostToolUse.Bash.seq-1-300.json');
  let seen: { payload: unknown; same: boolean } | null = null;
  const reply = await hookToolReply(renderTemplate(hookToolInput('post-hook'), p), env, async (name, payload, deps) => {
    const store = await deps.store();
    seen = { payload, same: store.get() === warmStore(env).get() };
    store.close();
    return hook.answerHook(name, payload, deps);
  });
  t.ok(seen, 'the door was called');
  t.notOk(Buffer.isBuffer(seen!.payload), 'a parsed payload, not bytes to parse again');
  t.same(seen!.payload, p, 'the payload the host sent');
  t.equal(seen!.same, true, "the call's store is the server's warm one, lent for the call");
  const direct = await hook.runHook('post-hook', Buffer.from(JSON.stringify(p)), { ...env, OMNI_HOME: scratch(t) });
  t.equal(reply, direct, 'and the reply is the command hook\'s');
});

t.test('omni discover takes a result the way the hook does: a Gemini result carrying a secret is masked and counted delivered so', async (t) => {
  const { replay } = await import('../../lib/cli/discover.js');
  const { runHook } = await import('../../lib/doors/hook.js');
  const token = 'gl' + 'pat-' + 'Zq8xT3vN5mR2wK7yP4bL';
  const output = `${noisy.split('\n').slice(0, 5).join('\n')}\nconfigured personal access token ${token}\ndone`;
  const payload = {
    session_id: 'g-1', transcript_path: '/home/dev/.gemini/tmp/p/chats/session-1.jsonl', cwd: '/proj', hook_event_name: 'AfterTool', timestamp: '2026-11-30T00:47:09.844Z',
    tool_name: 'run_shell_command', tool_input: { command: './configure.sh', description: 'configure' },
    tool_response: { llmContent: `<untrusted_context>\nOutput: ${output}\nProcess Group PGID: 1\n</untrusted_context>`, returnDisplay: output },
  };
  const input = gemini.read(payload) as PostShellInput;
  t.equal(input.failed, false, 'a success');
  const home = scratch(t);
  const hookReply = await runHook('hook', Buffer.from(JSON.stringify(payload)), { ...process.env, OMNI_HOME: home });
  t.not(hookReply, '', 'the hook masks the secret (its only change, as installed)');
  t.notMatch(hookReply, new RegExp(token), 'the token is not in the reply');
  const store = new LazyStore(scratch(t));
  t.teardown(() => store.close());
  const o = await replay({ host: 'gemini', tool: 'shell', command: input.command, failed: false, failureText: null, payload, input, file: '/nowhere.jsonl' }, store, { OMNI_HOME: scratch(t) });
  t.equal(o.applied, true, 'discover counts the reply the hook makes');
  t.ok(o.bytesDelivered < o.bytesIn, `what the model gets, masked (${o.bytesDelivered} < ${o.bytesIn} bytes)`);
});

t.test('each host adapter says what the model saw; the host-neutral door names no host', async (t) => {
  for (const h of HOSTS) t.type(h.viewOf, 'function', `${h.id} has its own viewOf`);
  const neutral = ['hook.ts', 'post-tool.ts', 'tool-call.ts', 'distil-text.ts', 'reread.ts', 'run-record.ts'];
  for (const f of neutral) {
    const src = readFileSync(join(ROOT, 'lib', 'doors', f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    t.notMatch(src, /host\.id\s*===|case '(claude|codex|gemini|cursor|pi)'|from '\.\.\/hosts\/(claude|codex|gemini|cursor|pi)[.-]/, `lib/doors/${f} has no rule of one host's`);
  }
  t.notOk(readFileSync(join(ROOT, 'lib', 'doors', 'post-tool.ts'), 'utf8').includes('JSON.parse'), 'the post-tool door reads no reply back');
});

t.test("Claude Code's view of a Bash reply is the stdout it carries, tool notices included", async (t) => {
  const p = sample('PostToolUse.Bash.seq-1-300.json');
  p.tool_response = { ...p.tool_response, stdout: noisy, stderr: 'Shell cwd was reset to /proj' };
  const input = claude.read(p) as PostShellInput;
  const sent = 'x\n'.repeat(2500);
  const reply = claude.replyOutput(p, input, sent);
  const stdout: string = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout;
  t.ok(stdout.endsWith('Shell cwd was reset to /proj'), 'the notice moved into stdout');
  const view = claude.viewOf(p, input, { reply, sent, full: noisy });
  t.equal(view.kind, 'lines', 'over the inline cap: the preview of what the reply carries');
  t.same(claude.viewOf(p, input, { reply: '', sent: noisy, full: noisy }), { kind: 'whole' }, 'silent and inline: whole');
});
