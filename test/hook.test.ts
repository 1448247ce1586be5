import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../lib/doors/hook.js';
import { decideRewrite } from '../lib/doors/prehook-policy.js';
import { claude } from '../lib/hosts/claude/adapter.js';
import type { PreToolInput } from '../lib/hosts/adapter.js';

/** The pre-hook decision exactly as the door makes it for a Claude Code payload. */
function decidePreHook(p: Record<string, unknown>, e: NodeJS.ProcessEnv) {
  const input = claude.read(p);
  if (!input || input.kind !== 'pre-tool') throw new Error('not a Bash PreToolUse payload');
  return decideRewrite(claude, p, input as PreToolInput, e);
}
import { PostToolUseBashReply, PostToolUseReadReply, PreToolUseReply } from '../lib/hosts/claude/schemas.js';
import { CLAUDE_SAMPLES as SAMPLES } from './helpers/samples.js';


const sample = (name: string) => JSON.parse(readFileSync(join(SAMPLES, name), 'utf8'));

const dir = mkdtempSync(join(tmpdir(), 'omni-hook-test-'));
const home = join(dir, 'home');
mkdirSync(home, { recursive: true });
const env: NodeJS.ProcessEnv = { HOME: home, OMNI_HOME: join(dir, 'omni'), PATH: process.env.PATH, OMNI_BIN: '/opt/omni/dist/omni.cjs' };

const run = (name: string, payload: unknown, e: NodeJS.ProcessEnv = env) =>
  runHook(name, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), e);

/** Output the pipeline is sure to fold: hundreds of identical progress lines, one final verdict. */
export function noisyOutput(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 600; i++) lines.push(`Downloading https://registry.example.org/package-${i % 3}.tgz 50%`);
  lines.push('added 600 packages in 3s');
  return lines.join('\n');
}

function bashPayload(command: string, stdout: string, extra: Record<string, unknown> = {}) {
  const p = sample('PostToolUse.Bash.seq-1-300.json');
  p.tool_input.command = command;
  p.tool_response.stdout = stdout;
  Object.assign(p.tool_response, extra);
  return p;
}

t.test('the hook fails open: malformed, empty, binary or mistyped stdin gives no reply', async (t) => {
  for (const bad of ['', '{', 'null', '[]', '"x"', '\u0000\u0001\u00ff', '{"hook_event_name":"PostToolUse"}', JSON.stringify({ ...bashPayload('x', 'y'), tool_response: { stdout: 1 } })]) {
    t.equal(await run('post-hook', bad), '', JSON.stringify(bad).slice(0, 40));
  }
  t.equal(await runHook('post-hook', Buffer.from([0xff, 0xfe, 0x00, 0x7b]), env), '');
  t.equal(await run('no-such-hook', bashPayload('x', noisyOutput())), '', 'unknown entry point');
  t.equal(await run('hook', { ...bashPayload('x', noisyOutput()), hook_event_name: 'Stop' }), '', 'unknown event');
});

t.test('an entry point given another event\'s payload stays silent', async (t) => {
  t.equal(await run('pre-hook', bashPayload('x', noisyOutput())), '');
});

t.test('a Bash result with nothing to gain gets no reply at all', async (t) => {
  const names = Array.from({ length: 40 }, (_, i) => `built module${i}`).join('\n') + '\nbuild ok';
  t.equal(await run('post-hook', bashPayload('./build.sh', names)), '', 'forty names: nothing a fold may take');
  t.equal(await run('post-hook', bashPayload('echo hi', 'hi')), '');
  t.equal(await run('post-hook', bashPayload('true', '')), '');
});

t.test('forty lines of one template (a captured payload: `progress N/40`) fold to first, marker, last', async (t) => {
  const out = await run('post-hook', sample('PostToolUse.Bash.stderr-40-lines.json'));
  const text = JSON.parse(out).hookSpecificOutput.updatedToolOutput.stdout as string;
  t.match(text, /^progress 1\/40\n\[omni: 38 lines like "progress \d+\/40" folded — omni retrieve [0-9a-f]{16}\]\nprogress 40\/40\nbuild ok$/);
});

t.test('a noisy successful Bash result is replaced: smaller, last line kept, Bash\'s own shape', async (t) => {
  const raw = noisyOutput();
  const out = await run('post-hook', bashPayload('npm install', raw));
  t.not(out, '', 'there is a reply');
  const reply = JSON.parse(out);
  t.ok(PostToolUseBashReply.safeParse(reply).success, 'matches the host schema');
  const u = reply.hookSpecificOutput.updatedToolOutput;
  t.ok(u.stdout.length < raw.length, `${raw.length} B -> ${u.stdout.length} B`);
  t.ok(u.stdout.endsWith('added 600 packages in 3s'), 'last line kept');
  t.equal(u.stderr, '');
  t.equal(u.isImage, false, 'other keys kept');
  t.equal(u.noOutputExpected, false);
  const viaHook = await run('hook', bashPayload('npm install', raw));
  t.equal(viaHook, out, '--hook dispatches the same way');
});

t.test('omni retrieve, omni diff and OMNI_PASSTHROUGH=1 output is never distilled', async (t) => {
  const raw = noisyOutput();
  for (const c of ['omni retrieve 0123456789abcdef', 'omni diff', 'OMNI_PASSTHROUGH=1 npm install', "OMNI_SESSION_ID=s OMNI_AGENT_ID=main /usr/bin/node /x/dist/omni.cjs exec 'npm install'"]) {
    t.equal(await run('post-hook', bashPayload(c, raw)), '', c);
  }
});

t.test('under Cursor (cursor_version or CURSOR_VERSION) the hook does nothing', async (t) => {
  const raw = noisyOutput();
  t.equal(await run('post-hook', { ...bashPayload('npm install', raw), cursor_version: '1.7' }), '');
  t.equal(await run('post-hook', bashPayload('npm install', raw), { ...env, CURSOR_VERSION: '1.7' }), '');
});

t.test('a persisted Bash result is distilled from the full file and the persisted keys are dropped', async (t) => {
  const full = noisyOutput() + '\n';
  const file = join(dir, 'persisted.txt');
  writeFileSync(file, full);
  const p = bashPayload('npm install', full.slice(0, 2000), { persistedOutputPath: file, persistedOutputSize: full.length });
  const reply = JSON.parse(await run('post-hook', p));
  const u = reply.hookSpecificOutput.updatedToolOutput;
  t.ok(u.stdout.endsWith('added 600 packages in 3s'), 'the tail only the file has is there');
  t.notOk('persistedOutputPath' in u);
  t.notOk('persistedOutputSize' in u);
});

t.test('an unreadable persisted file gets no reply: the host\'s wrapper still says where the full output is', async (t) => {
  const raw = noisyOutput();
  const p = bashPayload('npm install', raw, { persistedOutputPath: join(dir, 'missing.txt'), persistedOutputSize: 1 });
  t.equal(await run('post-hook', p), '');
  t.match(readFileSync(join(dir, 'omni', 'omni.log'), 'utf8'), /cannot read .*missing\.txt/, 'the reason is in omni.log, not on stdout');
});

t.test('a tool notice in Bash\'s stderr is kept, moved after the digest', async (t) => {
  const reply = JSON.parse(await run('post-hook', bashPayload('npm install', noisyOutput(), { stderr: 'Shell cwd was reset to /home/dev/project' })));
  const u = reply.hookSpecificOutput.updatedToolOutput;
  t.equal(u.stderr, '');
  t.ok(u.stdout.endsWith('added 600 packages in 3s\nShell cwd was reset to /home/dev/project'));
});

t.test('images and background runs are left alone', async (t) => {
  t.equal(await run('post-hook', bashPayload('x', noisyOutput(), { isImage: true })), '');
  t.equal(await run('post-hook', bashPayload('x', noisyOutput(), { backgroundTaskId: 'b1' })), '');
});

t.test('a Read that changes nothing, or is not text, gets no reply', async (t) => {
  t.equal(await run('post-hook', sample('PostToolUse.Read.offset50-limit20.json')), '');
  const img = sample('PostToolUse.Read.offset50-limit20.json');
  img.tool_response = { type: 'image', file: { base64: 'AAAA', type: 'image/png', originalSize: 3 } };
  t.equal(await run('post-hook', img), '');
  const unchanged = sample('PostToolUse.Read.offset50-limit20.json');
  unchanged.tool_response = { type: 'file_unchanged', file: { filePath: '/x' } };
  t.equal(await run('post-hook', unchanged), '');
});

t.test('a Read whose head folds comes back in Read\'s shape with the remaining lines correctly numbered', async (t) => {
  // A file read once, then read again after its end changed: the unchanged head is what the
  // model has seen, so it folds behind one marker (the header of the changed lines, which come
  // with a line of context), and the new end keeps its line numbers.
  const fresh = { ...env, OMNI_HOME: mkdtempSync(join(tmpdir(), 'omni-hook-read-')) };
  const head = Array.from({ length: 300 }, (_, i) => `export const value${i} = compute(${i}, 'row ${i * 7}');`);
  const read = (tail: string[]) => {
    const p = sample('PostToolUse.Read.whole-file.json');
    p.tool_response.file.content = [...head, ...tail].join('\n');
    p.tool_response.file.numLines = head.length + tail.length;
    p.tool_response.file.totalLines = head.length + tail.length;
    return p;
  };
  t.equal(await run('post-hook', read(['// first ending']), fresh), '', 'the first read is left as it is');
  const tail = Array.from({ length: 5 }, (_, i) => `signal line ${i + 1}: the end of the file`);
  const p = read(tail);
  const out = await run('post-hook', p, fresh);
  t.not(out, '', 'the re-read with a new end earns a reply');
  const reply = JSON.parse(out || 'null');
  t.ok(PostToolUseReadReply.safeParse(reply).success, 'Read\'s shape');
  const f = reply?.hookSpecificOutput?.updatedToolOutput?.file ?? { content: '', startLine: 0 };
  t.ok(f.content.length < p.tool_response.file.content.length, 'the reply is smaller than the file');
  const got: string[] = f.content.split('\n');
  t.match(got[0], /^\[omni: changed since you read it at [^\]]*: lines 1-299 as you read them, lines 300-305 below replace your lines 300-301; whole file — omni retrieve [0-9a-f]{16}\]$/, 'one marker stands where the head was');
  t.equal(f.startLine, 299, 'at the number of the last line it vouches for');
  t.equal(got.filter((l) => l.startsWith('export const value')).length, 1, 'the head is folded but for one line of context');
  for (let i = 0; i < 5; i++) {
    t.not(got.indexOf(tail[i]), -1, `"${tail[i]}" is in the reply`);
    t.equal(f.startLine + got.indexOf(tail[i]), head.length + i + 1, `"${tail[i]}" keeps its line number`);
  }
});

t.test('a failed Bash call gets no reply: the host shows the failure verbatim', async (t) => {
  for (const f of ['PostToolUseFailure.Bash.ls-nonexistent.json', 'PostToolUseFailure.Bash.seq-1-100000-exit1.truncated.json', 'PostToolUseFailure.Bash.false.json']) {
    t.equal(await run('post-hook-failure', sample(f)), '', f);
    t.equal(await run('hook', sample(f)), '', `${f} via --hook`);
  }
});

// How fast they answer is bench/hook-phases' and bench/startup's business, not a pass/fail test's.
t.test('session start, session end and pre-compact are valid and silent on a fresh store', async (t) => {
  const fresh = { ...env, OMNI_HOME: mkdtempSync(join(tmpdir(), 'omni-hook-fresh-')) };
  for (const [name, f] of [['session-start', 'SessionStart.startup.json'], ['session-start', 'SessionStart.compact.json'], ['session-start', 'SessionStart.resume.json'], ['session-end', 'SessionEnd.other.json'], ['pre-compact', 'PreCompact.manual.json']]) {
    t.equal(await run(name, sample(f), fresh), '', f);
  }
});

t.test('after a failure, the next session start tells the model the last failing command', async (t) => {
  const fresh = { ...env, OMNI_HOME: mkdtempSync(join(tmpdir(), 'omni-hook-mem-')) };
  t.equal(await run('post-hook-failure', sample('PostToolUseFailure.Bash.ls-nonexistent.json'), fresh), '', 'the failure itself gets no reply');
  const out = await run('session-start', sample('SessionStart.startup.json'), fresh);
  const reply = JSON.parse(out);
  t.equal(reply.hookSpecificOutput.hookEventName, 'SessionStart');
  t.match(reply.hookSpecificOutput.additionalContext, /ls \/nonexistent/);
  t.equal(await run('session-end', sample('SessionEnd.other.json'), fresh), '', 'session end prints nothing');
});

t.test('a host without a failure event (Gemini) brings failures to the post-hook: remembered, never answered', async (t) => {
  const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname ?? '.', 'fixtures', 'hosts', 'gemini', name), 'utf8'));
  const fresh = { ...env, OMNI_HOME: mkdtempSync(join(tmpdir(), 'omni-hook-gemini-mem-')) };
  const fail = fixture('after-tool-ls-nonexistent.json');
  t.equal(await run('post-hook', fail, fresh), '', 'the failure gets no reply');
  const start = fixture('session-start.json');
  start.cwd = fail.cwd;
  start.session_id = 'a-later-session';
  const out = await run('session-start', start, fresh);
  t.not(out, '', 'the next session start has context');
  t.match(out, /ls \/nonexistent/, 'naming the failing command');
});

// --- pre-hook ------------------------------------------------------------------------------

function prePayload(command: string, mode = 'bypassPermissions', cwd = join(dir, 'proj')) {
  const p = sample('PreToolUse.Bash.seq-1-300.json');
  p.tool_input = { command, description: 'run it', timeout: 120000 };
  p.permission_mode = mode;
  p.cwd = cwd;
  return p;
}

t.test('the pre-hook never rewrites pipes, redirects, sequences, background jobs, chains, subshells or interactive programs', async (t) => {
  for (const c of ['npm test | tail', 'npm test > log', 'npm test; echo', 'npm test &', 'cd x && npm test', 'echo $(npm test)', 'vim x', 'OMNI_PASSTHROUGH=1 npm test', 'omni retrieve abc', "npm test 'unbalanced"]) {
    t.equal(await run('pre-hook', prePayload(c)), '', c);
  }
});

t.test('the pre-hook rewrites only plain words: every respelling, expansion and wrapper is left to the host as typed', async (t) => {
  // Each of these ran through `omni exec` before: the host denies or reads them its own way.
  const lines = [
    'npm  test', 'npm\ttest', ' npm test', 'npm test ', '"npm" test', 'npm "test"', '\\npm test', "npm 'test'",
    'env FOO=1 npm test', 'env -u FOO npm test', 'nice -n 5 npm test', 'time -p npm test', 'stdbuf -oL npm test',
    'timeout -s KILL 60 npm test', 'exec npm test', 'command npm test', 'nohup npm test', '/usr/bin/npm test', './node_modules/.bin/jest',
    'FOO=1 npm test', 'npm test -s -- {a,b}', 'npm test -- ${HOME:0:3}', 'npm test -- $RANDOM', 'npm test -- ~+', 'npx jest src/{a,b}.test.js',
    'pytest tests/**/test_*.py', 'npm test -- a?', 'npm test -- [ab]', 'npm test -- `x`', 'npm test #x', 'npm test -- !x',
  ];
  for (const c of lines) t.equal(await run('pre-hook', prePayload(c)), '', JSON.stringify(c));
  const ok = await decidePreHook(prePayload('npm test -s -- a b'), env);
  t.equal(ok.rewrite, true, `plain words on the allow-list are rewritten (${ok.reason})`);
  if (ok.rewrite) t.match(ok.command, / exec --bash 'npm test -s -- a b'$/, 'under bash, the line as one word');
});

t.test('the pre-hook refuses `omni retrieve … --reveal`, however it is spelled, and only that', async (t) => {
  const { PreToolUseDenyReply } = await import('../lib/hosts/claude/schemas.js');
  const asks = [
    'omni retrieve 0123456789abcdef --reveal', 'omni retrieve --reveal 0123456789abcdef', 'omni retrieve 0123456789abcdef --reveal=all',
    '"omni" retrieve 0123456789abcdef "--reveal"', "omni retrieve 0123456789abcdef --rev''eal", 'omni retrieve 0123456789abcdef \\--reveal',
    'env X=1 nice omni retrieve 0123456789abcdef --reveal', '/opt/omni/bin/omni retrieve 0123456789abcdef --reveal',
    'node /opt/omni/dist/omni.cjs retrieve 0123456789abcdef --reveal', 'npx omni retrieve 0123456789abcdef --REVEAL',
    'cd /tmp && omni retrieve 0123456789abcdef --reveal | head', "sh -c 'omni retrieve 0123456789abcdef --reveal'",
    'omni retrieve 0123456789abcdef $FLAG', 'omni retrieve 0123456789abcdef $(printf -- --reveal)',
  ];
  for (const c of asks) {
    for (const mode of ['bypassPermissions', 'default', 'plan']) {
      const out = await run('pre-hook', prePayload(c, mode));
      const reply = out ? JSON.parse(out) : null;
      t.ok(reply && PreToolUseDenyReply.safeParse(reply).success, `${JSON.stringify(c)} (${mode}): denied`);
    }
    t.match(JSON.parse(await run('pre-hook', prePayload(c))).hookSpecificOutput.permissionDecisionReason, /--reveal/);
  }
  for (const c of ['omni retrieve 0123456789abcdef', 'omni stats', 'grep -- --reveal notes.txt', 'echo omni retrieve']) {
    t.equal(await run('pre-hook', prePayload(c)), '', `${JSON.stringify(c)}: not refused`);
  }
  t.ok(JSON.parse(await run('pre-hook', prePayload('omni retrieve 0123456789abcdef --reveal'), { ...env, OMNI_NO_REWRITE: '1' })), 'OMNI_NO_REWRITE=1 stops rewrites, not the refusal');
});

t.test('the pre-hook leaves a Read alone', async (t) => {
  t.equal(await run('pre-hook', sample('PreToolUse.Read.offset50-limit20.json')), '');
});

t.test('a rewrite keeps every tool_input field, carries session and agent ids, and runs omni exec on the original', async (t) => {
  const p = prePayload('npm test');
  const d = await decidePreHook(p, env);
  if (!d.rewrite) {
    t.match(d.reason, /allow-list|not distilled/, `npm test is not on the registry's rewrite allow-list yet (${d.reason})`);
    return;
  }
  const reply = JSON.parse(d.reply);
  t.ok(PreToolUseReply.safeParse(reply).success);
  const u = reply.hookSpecificOutput.updatedInput;
  t.equal(u.description, 'run it');
  t.equal(u.timeout, 120000);
  t.equal(u.command, `OMNI_SESSION_ID=${p.session_id} OMNI_AGENT_ID=main ${process.execPath} /opt/omni/dist/omni.cjs exec --bash 'npm test'`);
  t.notOk('permissionDecision' in reply.hookSpecificOutput, 'bypassPermissions: no decision needed');
});

t.test('the pre-hook does not rewrite a command a deny or ask rule matches, and says allow only for an allow rule', async (t) => {
  const proj = join(dir, 'proj-rules');
  mkdirSync(join(proj, '.claude'), { recursive: true });
  writeFileSync(join(proj, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(npm test)'], ask: ['Bash(npm run lint:*)'], allow: ['Bash(npm run build:*)'] } }));
  t.equal((await decidePreHook(prePayload('npm test', 'bypassPermissions', proj), env)).rewrite, false, 'deny rule');
  t.equal((await decidePreHook(prePayload('npm run lint -- --fix', 'bypassPermissions', proj), env)).rewrite, false, 'ask rule');
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm run test)'] } }));
  const allowed = await decidePreHook(prePayload('npm run test', 'default', proj), env);
  t.equal(allowed.rewrite, true, `the user's allow rule matched the original (${allowed.reason})`);
  if (allowed.rewrite) {
    t.equal(allowed.decision, 'allow');
    t.equal(JSON.parse(allowed.reply).hookSpecificOutput.permissionDecision, 'allow');
  }
  t.equal((await decidePreHook(prePayload('npm run test', 'plan', proj), env)).rewrite, false, 'plan mode: never');
  t.equal((await decidePreHook(prePayload('npm run build:prod', 'default', proj), env)).rewrite, false, 'an allow rule in an untrusted project does not count');
  const other = await decidePreHook(prePayload('npm install', 'default', proj), env);
  t.equal(other.rewrite, false, 'default mode without an allow rule: left alone (the host would refuse or prompt for the wrapper)');
});

/** A deterministic pseudo-random sequence in [0, 1]: the same fuzz cases on every run. */
function seeded(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** The hook's answer, or null after recording a failure when runHook threw (it never may). */
async function runOrFail(t: { fail(message: string): unknown }, i: number, name: string, p: Record<string, unknown>, e: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    return await run(name, p, e);
  } catch (err) {
    t.fail(`runHook threw on variant ${i}: ${(err as Error).message}`);
    return null;
  }
}

/** One to three random edits (a key deleted or set to a weird value) in a payload or its tool fields. */
function mutate(p: Record<string, unknown>, r: () => number, weird: unknown[]): void {
  const stack: Record<string, unknown>[] = [p];
  for (const k of ['tool_input', 'tool_response']) if (p[k] && typeof p[k] === 'object') stack.push(p[k] as Record<string, unknown>);
  for (let j = 0; j < 1 + Math.floor(r() * 3); j++) {
    const o = stack[Math.floor(r() * stack.length)];
    const keys = Object.keys(o);
    const k = keys[Math.floor(r() * keys.length)];
    if (k === undefined) continue;
    if (r() < 0.3) delete o[k];
    else o[k] = JSON.parse(JSON.stringify(weird[Math.floor(r() * weird.length)]));
  }
}

t.test('fuzzed payloads never crash the hook: every answer is nothing or one valid reply for its event', async (t) => {
  const { readdirSync } = await import('node:fs');
  const { PostToolUseBashReply: BashR, PostToolUseReadReply: ReadR, PostToolUseMcpReply: McpR, PreToolUseReply: PreR, AdditionalContextReply: CtxR } = await import('../lib/hosts/claude/schemas.js');
  const names = readdirSync(SAMPLES).filter((n) => n.endsWith('.json') && !n.includes('.reply.') && !n.includes('.transcript.') && !n.includes('persisted') && !n.includes('token-capped'));
  const r = seeded(7);
  const weird = [null, 0, -1, '', 'x', true, [], {}, { a: [1] }, 'Bash', 'PostToolUse', '\u0000'];
  const fresh = { ...env, OMNI_HOME: mkdtempSync(join(tmpdir(), 'omni-hook-fuzz-')) };
  let replies = 0;
  for (let i = 0; i < 150; i++) {
    const p = sample(names[i % names.length]);
    mutate(p, r, weird);
    if (r() < 0.5 && p.tool_response && typeof p.tool_response === 'object' && typeof (p.tool_response as { stdout?: unknown }).stdout === 'string') {
      (p.tool_response as { stdout: string }).stdout = noisyOutput();
    }
    const name = ['hook', 'post-hook', 'pre-hook', 'post-hook-failure', 'session-start'][i % 5];
    const out = await runOrFail(t, i, name, p, fresh);
    if (out === null || out === '') continue;
    replies++;
    const reply = JSON.parse(out);
    const ev = reply.hookSpecificOutput?.hookEventName;
    t.equal(ev, p.hook_event_name, `variant ${i}: the reply names the payload's event`);
    const ok = [BashR, ReadR, McpR, PreR, CtxR].some((s) => s.safeParse(reply).success);
    t.ok(ok, `variant ${i}: the reply matches a host schema`);
  }
  t.ok(replies > 0, `${replies} of 150 fuzzed payloads got a reply, each checked against a schema`);
});

t.test('fuzzed Codex and Gemini payloads never crash the hook, and a failure never gets a reply', async (t) => {
  const { readdirSync } = await import('node:fs');
  const fixtures = join(import.meta.dirname ?? '.', 'fixtures', 'hosts');
  const files: string[] = [];
  for (const host of ['codex', 'gemini']) {
    for (const n of readdirSync(join(fixtures, host))) {
      if (!n.endsWith('.json')) continue;
      const j = JSON.parse(readFileSync(join(fixtures, host, n), 'utf8'));
      if (j && typeof j === 'object' && typeof j.hook_event_name === 'string') files.push(join(fixtures, host, n));
    }
  }
  t.ok(files.length >= 10, `${files.length} captured payloads`);
  const r = seeded(11);
  const weird = [null, 0, -1, '', 'x', true, [], {}, { llmContent: 5 }, 'Exit Code: 1', '\u0000'];
  const fresh = { ...env, OMNI_HOME: mkdtempSync(join(tmpdir(), 'omni-hook-fuzz-hosts-')), OMNI_REPLACE_AS_ERROR: '1' };
  let replies = 0;
  for (let i = 0; i < 120; i++) {
    const p = JSON.parse(readFileSync(files[i % files.length], 'utf8'));
    // Every third payload keeps its shape, and half the outputs are worth distilling: so
    // replies do happen and the failure check below has something to check.
    if (i % 3 !== 0) mutate(p, r, weird);
    if (r() < 0.5) {
      if (typeof p.tool_response === 'string') p.tool_response = noisyOutput();
      else if (p.tool_response && typeof p.tool_response.llmContent === 'string') {
        p.tool_response.llmContent = p.tool_response.llmContent.replace(/Output: [^]*?\n(?=(Exit Code|Signal|Process Group))/, () => `Output: ${noisyOutput()}\n`);
      }
    }
    const name = ['hook', 'post-hook', 'pre-hook', 'session-start'][i % 4];
    const out = await runOrFail(t, i, name, p, fresh);
    if (out === null || out === '') continue;
    replies++;
    t.doesNotThrow(() => JSON.parse(out), `variant ${i}: one JSON object`);
    const text = JSON.stringify(p.tool_response ?? '');
    t.notMatch(text, /Exit Code: [1-9]|exit_code":\s*[1-9]/, `variant ${i}: a reply only for output that does not state a failure`);
  }
  t.ok(replies > 0, `${replies} of 120 fuzzed payloads got a reply, each checked for a stated failure`);
});
