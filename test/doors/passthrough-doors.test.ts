/**
 * OMNI_PASSTHROUGH=1 is one decision (lib/command/passthrough.ts), and every door makes it
 * the same way for the same command: pipe with --command, exec running a real child, the
 * Claude Code post-hook, and the pre-hook, which must leave such a command as typed.
 *
 * The output is a real capture (corpus case 028, `go test -v ./...`, distilled 8 KB -> 0.4 KB);
 * exec runs it through a `go` on PATH that prints exactly those bytes.
 */
import t from 'tap';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, ROOT, tempHome } from '../helpers/omni.js';
import { runHook } from '../../lib/doors/hook.js';
import { commandRequestsPassthrough, passthroughRequested } from '../../lib/command/passthrough.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';
import { readBashSuccess } from '../../lib/hosts/pi/adapter.js';
import { createOmniExtension } from '../../lib/doors/pi.js';

const CASE = join(ROOT, 'corpus', 'cases', '028-go-test-verbose-pass');
const raw = readFileSync(join(CASE, 'output.txt'));
const GO = 'go test -v ./...';

const dir = tempHome();
const bin = join(dir, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'go'), `#!/bin/sh\ncat '${join(CASE, 'output.txt')}'\n`);
chmodSync(join(bin, 'go'), 0o755);
const PATH = `${bin}:${process.env.PATH}`;

/** [command, omni's environment has OMNI_PASSTHROUGH=1, expected: passed through] */
const CASES: [string, boolean, boolean][] = [
  [GO, false, false],
  [GO, true, true],
  [`OMNI_PASSTHROUGH=1 ${GO}`, false, true],
  [`CI=1 OMNI_PASSTHROUGH=1 ${GO}`, false, true],
  [`  CI=1 GOFLAGS='-count=1' OMNI_PASSTHROUGH="1" ${GO}`, false, true],
  [`env OMNI_PASSTHROUGH=1 ${GO}`, false, true],
  [`CI=1 /usr/bin/env -i PATH=${PATH} OMNI_PASSTHROUGH=1 ${GO}`, false, true],
  [`OMNI_PASSTHROUGH=0 ${GO}`, false, false],
  [`OMNI_PASSTHROUGH=1 OMNI_PASSTHROUGH=0 ${GO}`, false, false],
  [`OMNI_PASSTHROUGH=10 ${GO}`, false, false],
];

const label = (c: string, e: boolean) => `${e ? 'env OMNI_PASSTHROUGH=1, ' : ''}${c.replace(PATH, '$PATH')}`;
const envOf = (e: boolean) => (e ? { OMNI_PASSTHROUGH: '1' } : { OMNI_PASSTHROUGH: '' });

t.test('the decision, on its own', async (t) => {
  for (const [c, e, want] of CASES) t.equal(passthroughRequested(c, e ? { OMNI_PASSTHROUGH: '1' } : {}), want, label(c, e));
  for (const c of ['echo OMNI_PASSTHROUGH=1', 'cd x && OMNI_PASSTHROUGH=1 make', 'OMNI_PASSTHROUGH=1; make', 'OMNI_PASSTHROUGH=$X make', "'OMNI_PASSTHROUGH=1' make", 'OMNI_PASSTHROUGH=1', "OMNI_PASSTHROUGH='1 make", 'OMNI_PASSTHROUGH=1 env -u OMNI_PASSTHROUGH make', 'OMNI_PASSTHROUGH=1 env -i make']) {
    t.equal(commandRequestsPassthrough(c), false, c);
  }
  for (const c of ["OMNI_PASSTHROUGH='1' make", 'OMNI_PASSTHROUGH=1 make; ls', 'OMNI_PASSTHROUGH=1\tmake', 'env -C /tmp OMNI_PASSTHROUGH=1 make', 'FOO=x env BAR=y OMNI_PASSTHROUGH=1 make']) {
    t.equal(commandRequestsPassthrough(c), true, c);
  }
  t.equal(passthroughRequested(undefined, { OMNI_PASSTHROUGH: '1' }), true, 'no command: the environment alone');
  t.equal(passthroughRequested(GO, { OMNI_PASSTHROUGH: 'yes' }), false, 'only "1" counts');
});

t.test('pipe --command: passed through byte for byte, or distilled, as decided', async (t) => {
  for (const [c, e, want] of CASES) {
    const r = omni(['pipe', '--command', c], { input: raw, env: envOf(e) });
    t.equal(r.status, 0);
    if (want) t.ok(r.stdout.equals(raw), `${label(c, e)}: raw bytes`);
    else t.ok(r.stdout.length < raw.length / 2, `${label(c, e)}: distilled (${raw.length} -> ${r.stdout.length} B)`);
  }
});

t.test('exec with a real child: the same decisions', async (t) => {
  for (const [c, e, want] of CASES) {
    const r = omni(['exec', c], { env: { ...envOf(e), PATH } });
    t.equal(r.status, 0, label(c, e));
    if (want) t.ok(r.stdout.equals(raw), `${label(c, e)}: raw bytes`);
    else t.ok(r.stdout.length < raw.length / 2, `${label(c, e)}: distilled (${raw.length} -> ${r.stdout.length} B)`);
  }
});

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));
const hookEnv = (e: boolean): NodeJS.ProcessEnv => ({ HOME: dir, OMNI_HOME: tempHome(), PATH, OMNI_BIN: '/opt/omni/dist/omni.cjs', ...(e ? { OMNI_PASSTHROUGH: '1' } : {}) });

t.test('the Claude Code post-hook: no reply (raw) exactly when pipe and exec pass through', async (t) => {
  for (const [c, e, want] of CASES) {
    const p = sample('PostToolUse.Bash.seq-1-300.json');
    p.tool_input.command = c;
    // Claude Code strips the trailing newline from Bash's stdout.
    p.tool_response.stdout = raw.toString('utf8').replace(/\n$/, '');
    const out = await runHook('post-hook', Buffer.from(JSON.stringify(p)), hookEnv(e));
    if (want) t.equal(out, '', `${label(c, e)}: no reply`);
    else if (out === '') t.fail(`${label(c, e)}: no reply, so not distilled`);
    else t.ok(JSON.parse(out).hookSpecificOutput.updatedToolOutput.stdout.length < raw.length / 2, `${label(c, e)}: distilled`);
  }
});

t.test('the pre-hook leaves a passed-through command as typed, and rewrites only what exec would distil', async (t) => {
  let rewrote = 0;
  for (const [c, e, want] of CASES) {
    const p = sample('PreToolUse.Bash.seq-1-300.json');
    p.tool_input = { command: c, description: 'run it' };
    p.cwd = dir;
    const out = await runHook('pre-hook', Buffer.from(JSON.stringify(p)), hookEnv(e));
    if (want) { t.equal(out, '', `${label(c, e)}: not rewritten`); continue; }
    if (out === '') continue;
    rewrote++;
    const rewritten: string = JSON.parse(out).hookSpecificOutput.updatedInput.command;
    t.equal(passthroughRequested(rewritten, {}), false, `${label(c, e)}: the rewrite does not ask for pass-through either`);
  }
  t.ok(rewrote > 0, `the pre-hook does rewrite the distilled commands (${rewrote})`);
});

t.test('a Claude Code Read under OMNI_PASSTHROUGH=1 in omni\'s environment is left alone too', async (t) => {
  // A file read twice in one session: the second Read folds what this reader was already shown.
  const p = Buffer.from(JSON.stringify(sample('PostToolUse.Read.whole-file.json')));
  const again = async (e: boolean) => {
    const env = hookEnv(e);
    await runHook('post-hook', p, env);
    return runHook('post-hook', p, env);
  };
  t.not(await again(false), '', 'without it, the re-read is distilled');
  t.equal(await again(true), '', 'with it: no reply');
});

t.test('Pi\'s extension: the same decisions', async (t) => {
  const text = raw.toString('utf8');
  for (const [c, e, want] of CASES) {
    const ev = { toolName: 'bash', input: { command: c }, content: [{ type: 'text' as const, text }], isError: false, details: undefined };
    if (!e) t.equal(readBashSuccess(ev) === 'passthrough', want, `${label(c, e)}: readBashSuccess`);
    // The registered tool_result handler, as Pi calls it.
    const handlers: Record<string, (ev: unknown, ctx: unknown) => Promise<unknown>> = {};
    const env = { OMNI_HOME: tempHome(), ...(e ? { OMNI_PASSTHROUGH: '1' } : {}) };
    createOmniExtension({ env })({ on: (name: string, h: (ev: unknown, ctx: unknown) => Promise<unknown>) => { handlers[name] = h; } } as never);
    const ctx = { cwd: dir, sessionManager: { getSessionId: () => 'pi-session' } };
    const patch = await handlers.tool_result(ev, ctx);
    t.equal(patch === undefined, want, `${label(c, e)}: ${want ? 'untouched' : 'patched'}`);
  }
});
