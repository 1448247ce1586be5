/**
 * omni's Pi extension (lib/hosts/pi/adapter.ts, lib/doors/pi.ts): the pure readers of Pi's tool_result shape, and the
 * handlers the factory registers, driven with Pi's event shapes against a real SQLite store in
 * a temporary OMNI_HOME. The proof that Pi applies the patch is test/real-host/pi.test.ts.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bashPatch, PI_NO_OUTPUT, readBashSuccess, sourceOf, withSessionMemory, type PiBashSuccess } from '../../lib/hosts/pi/adapter.js';
import { createOmniExtension } from '../../lib/doors/pi.js';
import { getBlob, lastError, lastSession, loadShown, openStore, setGoal } from '../../lib/store/index.js';

const NOISE = Array.from({ length: 200 }, (_, i) => `Downloading https://registry.example.org/package-${i % 3}.tgz 50%`).join('\n') + '\nadded 200 packages in 3s\n';

type Ev = Parameters<typeof readBashSuccess>[0];
const bash = (text: string, over: Partial<Ev> = {}): Ev => ({ toolName: 'bash', input: { command: 'npm install' }, content: [{ type: 'text', text }], isError: false, details: undefined, ...over });

t.test('readBashSuccess: only a successful bash result in Pi\'s own shape', async (t) => {
  t.same(readBashSuccess(bash(NOISE)), { command: 'npm install', text: NOISE });
  t.equal(readBashSuccess(bash(NOISE, { toolName: 'read' })), 'not-bash');
  t.equal(readBashSuccess(bash(NOISE, { isError: true })), 'failed', 'a failure is never distilled');
  t.equal(readBashSuccess(bash(NOISE, { isError: undefined as unknown as boolean })), 'failed', 'an unknown status counts as a failure');
  t.equal(readBashSuccess(bash(NOISE, { input: {} })), 'shape');
  t.equal(readBashSuccess(bash(NOISE, { content: [] })), 'shape');
  t.equal(readBashSuccess(bash(NOISE, { content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })), 'shape', 'two blocks: reshaped by someone else');
  t.equal(readBashSuccess(bash(NOISE, { content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] })), 'shape');
  t.equal(readBashSuccess(bash('')), 'empty');
  t.equal(readBashSuccess(bash(PI_NO_OUTPUT)), 'empty');
  t.equal(readBashSuccess(bash(NOISE, { input: { command: 'omni retrieve 0123456789abcdef' } })), 'omni-own', 'omni\'s own output is never distilled');
  t.equal(readBashSuccess(bash(NOISE, { input: { command: 'OMNI_PASSTHROUGH=1 npm install' } })), 'passthrough');
  const cut = { truncation: { truncated: true }, fullOutputPath: '/tmp/pi-bash-0123.log' };
  t.same(readBashSuccess(bash(NOISE, { details: cut })), { command: 'npm install', text: NOISE, fullOutputPath: '/tmp/pi-bash-0123.log' }, 'a cut result is distilled from its file');
  t.equal(readBashSuccess(bash(NOISE, { details: { truncation: { truncated: true } } })), 'shape', 'a cut result without its file is left alone');
  t.same(readBashSuccess(bash(NOISE, { details: { truncation: { truncated: false } } })), { command: 'npm install', text: NOISE });
});

t.test('bashPatch: a patch only when the text changed (and, for a cut result, shrank)', async (t) => {
  const r: PiBashSuccess = { command: 'x', text: 'abc\n' };
  t.equal(bashPatch(r, { output: 'abc\n', changed: false }), undefined);
  t.equal(bashPatch(r, { output: 'abc\n', changed: true }), undefined, 'same text: no patch');
  t.same(bashPatch(r, { output: 'a\n', changed: true }), { content: [{ type: 'text', text: 'a\n' }] });
  const cut: PiBashSuccess = { command: 'x', text: 'tail\n', fullOutputPath: '/f' };
  t.equal(bashPatch(cut, { output: 'longer than the tail\n', changed: true }), undefined, 'a digest larger than Pi\'s tail is not sent');
  t.same(bashPatch(cut, { output: 't\n', changed: true }), { content: [{ type: 'text', text: 't\n' }] });
});

t.test('withSessionMemory and sourceOf', async (t) => {
  t.equal(withSessionMemory('SYS', null), undefined);
  t.equal(withSessionMemory('SYS', 'omni session memory for /p:\nPinned goal: g'), 'SYS\n\nomni session memory for /p:\nPinned goal: g');
  t.equal(sourceOf('startup'), 'startup');
  t.equal(sourceOf('new'), 'startup');
  t.equal(sourceOf('resume'), 'resume');
  t.equal(sourceOf('fork'), 'resume');
  t.equal(sourceOf(undefined), 'startup');
});

// ---------------------------------------------------------------------------------------------
// The handlers, as Pi calls them.

type Handler = (event: any, ctx: any) => unknown;

function load(env: NodeJS.ProcessEnv): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  const pi = { on: (name: string, h: Handler) => (handlers[name] = h) };
  createOmniExtension({ env })(pi as never);
  return handlers;
}

function fixture(t: Tap) {
  const dir = mkdtempSync(join(tmpdir(), 'omni-pi-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, 'omni');
  const cwd = join(dir, 'proj');
  const ctx = { cwd, sessionManager: { getSessionId: () => 'sess-1' } };
  return { dir, home, cwd, ctx, env: { OMNI_HOME: home } as NodeJS.ProcessEnv };
}
type Tap = { teardown(fn: () => void): void };

const piEvent = (text: string, over: Record<string, unknown> = {}) => ({ type: 'tool_result', toolCallId: 'call_1', ...bash(text), ...over });

t.test('tool_result: a noisy success is replaced, every removed byte is in the store', async (t) => {
  const f = fixture(t);
  const h = load(f.env);
  t.same(Object.keys(h).sort(), ['before_agent_start', 'session_compact', 'session_shutdown', 'session_start', 'session_tree', 'tool_result']);
  const patch = (await h.tool_result(piEvent(NOISE), f.ctx)) as { content: { type: string; text: string }[] };
  t.ok(patch, 'a patch');
  const out = patch.content[0].text;
  t.ok(out.length < NOISE.length / 4, `${NOISE.length} -> ${out.length}`);
  t.ok(out.endsWith('added 200 packages in 3s\n'), 'the last line');
  const m = /omni retrieve ([0-9a-f]{16})\]/.exec(out);
  t.ok(m, 'a handle');
  const s = openStore({ home: f.home });
  try {
    const expanded = out.replace(/\[omni: [^\]\n]* — omni retrieve ([0-9a-f]{16})\]\n/, (_x, hd: string) => getBlob(s, hd)!.toString('utf8'));
    t.equal(expanded, NOISE, 'the handle gives back the exact bytes');
    t.ok(loadShown(s, { sessionId: 'sess-1', cwd: f.cwd }).session.size > 0, 'the ledger knows what this session was shown');
  } finally {
    s.close();
  }
  await h.session_compact({ type: 'session_compact' }, f.ctx);
  const s2 = openStore({ home: f.home });
  try {
    t.equal(loadShown(s2, { sessionId: 'sess-1', cwd: f.cwd }).session.size, 0, 'after compaction nothing counts as shown');
  } finally {
    s2.close();
  }
  await h.session_shutdown({ type: 'session_shutdown', reason: 'quit' }, f.ctx);
});

t.test('tool_result: failures, other tools and passthrough are left alone; a failure is remembered', async (t) => {
  const f = fixture(t);
  const h = load(f.env);
  const failed = piEvent(NOISE + '\n\nCommand exited with code 1', { isError: true, input: { command: 'npm test' } });
  t.equal(await h.tool_result(failed, f.ctx), undefined, 'failure: untouched');
  t.equal(await h.tool_result(piEvent(NOISE, { toolName: 'read', input: { path: 'x' } }), f.ctx), undefined, 'read: untouched');
  t.equal(await h.tool_result(piEvent('Command aborted', { isError: true, input: { command: 'sleep 100' } }), f.ctx), undefined);
  const s = openStore({ home: f.home });
  try {
    t.equal(lastError(s, f.cwd)?.command, 'npm test', 'the failure is the project\'s last error; an abort is not');
  } finally {
    s.close();
  }
  const hp = load({ ...f.env, OMNI_PASSTHROUGH: '1' });
  t.equal(await hp.tool_result(piEvent(NOISE), f.ctx), undefined, 'OMNI_PASSTHROUGH=1: untouched');
  await h.session_shutdown({ type: 'session_shutdown', reason: 'quit' }, f.ctx);
});

t.test('tool_result: a cut result is distilled from Pi\'s full-output file', async (t) => {
  const f = fixture(t);
  const h = load(f.env);
  const file = join(f.dir, 'pi-bash-0001.log');
  writeFileSync(file, NOISE);
  const tail = NOISE.split('\n').slice(-60).join('\n') + `\n\n[Showing lines 142-201 of 201 (50.0KB limit). Full output: ${file}]`;
  const details = { truncation: { truncated: true }, fullOutputPath: file };
  const patch = (await h.tool_result(piEvent(tail, { details }), f.ctx)) as { content: { text: string }[] };
  t.ok(patch.content[0].text.startsWith('Downloading https://registry.example.org/package-0.tgz 50%\n'), 'from the first line of the file');
  t.ok(patch.content[0].text.endsWith('added 200 packages in 3s\n'));
  t.equal(await h.tool_result(piEvent(tail, { details: { ...details, fullOutputPath: join(f.dir, 'gone.log') } }), f.ctx), undefined, 'a missing file: untouched');
  await h.session_shutdown({ type: 'session_shutdown', reason: 'quit' }, f.ctx);
});

t.test('fail open: a store that cannot open removes nothing; a throwing event changes nothing', async (t) => {
  const f = fixture(t);
  writeFileSync(join(f.dir, 'not-a-dir'), 'x');
  const h = load({ OMNI_HOME: join(f.dir, 'not-a-dir', 'omni') });
  t.equal(await h.tool_result(piEvent(NOISE), f.ctx), undefined, 'nothing archived, so nothing folded');
  const hostile = { ...piEvent(NOISE), get input(): never { throw new Error('boom'); } };
  t.equal(await load(f.env).tool_result(hostile, f.ctx), undefined, 'an exception leaves the result as it was');
  const noSession = { cwd: f.cwd, sessionManager: { getSessionId: () => { throw new Error('no session'); } } };
  const patch = (await load(f.env).tool_result(piEvent(NOISE), noSession)) as { content: unknown[] } | undefined;
  t.ok(patch, 'without a session id: distilled without the ledger');
  t.same(await h.before_agent_start({ type: 'before_agent_start', systemPrompt: 'SYS', prompt: 'p' }, f.ctx), undefined, 'no store, no memory block');
});

t.test('before_agent_start: the session memory block, the same on every prompt; shutdown ends the session row', async (t) => {
  const f = fixture(t);
  const s = openStore({ home: f.home });
  setGoal(s, { cwd: f.cwd, text: 'first goal' });
  s.close();
  const h = load(f.env);
  await h.session_start({ type: 'session_start', reason: 'startup' }, f.ctx);
  const r1 = (await h.before_agent_start({ type: 'before_agent_start', systemPrompt: 'SYS', prompt: 'p' }, f.ctx)) as { systemPrompt: string };
  t.equal(r1.systemPrompt, `SYS\n\nomni session memory for ${f.cwd}:\nPinned goal: first goal`);
  const s2 = openStore({ home: f.home });
  setGoal(s2, { cwd: f.cwd, text: 'second goal' });
  s2.close();
  const r2 = (await h.before_agent_start({ type: 'before_agent_start', systemPrompt: 'SYS', prompt: 'q' }, f.ctx)) as { systemPrompt: string };
  t.equal(r2.systemPrompt, r1.systemPrompt, 'computed once per session (the prompt cache stays warm)');
  await h.session_shutdown({ type: 'session_shutdown', reason: 'quit' }, f.ctx);
  const s3 = openStore({ home: f.home });
  try {
    const row = lastSession(s3);
    t.equal(row?.session, 'sess-1');
    t.equal(row?.reason, 'quit', 'the session row ended');
    t.equal(row?.source, 'startup');
  } finally {
    s3.close();
  }
  const empty = fixture(t);
  t.equal(await load(empty.env).before_agent_start({ type: 'before_agent_start', systemPrompt: 'SYS', prompt: 'p' }, empty.ctx), undefined, 'nothing to say: the prompt is untouched');
});
