/**
 * Captures the Codex CLI's real hook payloads and what the model is sent after each kind of
 * hook reply, into test/fixtures/hosts/codex/. Not a test: run it by hand when the pinned CLI
 * changes, then read the diff.
 *
 *   TS_NODE_TRANSPILE_ONLY=1 node --loader file:///work/main/node_modules/@isaacs/ts-node-temp-fork-for-pr-2009/esm.mjs test/real-host/codex-capture.ts
 *
 * Hooks are an observer script (appends each payload, answers with a canned reply per event),
 * trusted through config.toml exactly as /hooks would (./codex-harness.ts trustAll).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexInstaller, omniHooksWithKeys } from '../../lib/hosts/codex/install.js';
import { readSettings } from '../../lib/hosts/kit/config-file.js';
import { codexBin, REPO, runCodex, type CodexMode, type CodexRunResult } from './codex-harness.js';
import type { CodexStep } from './codex-standin.js';

const OUT = join(REPO, 'test', 'fixtures', 'hosts', 'codex');
const EVENTS = [
  { event: 'SessionStart' },
  { event: 'UserPromptSubmit' },
  { event: 'PreToolUse', matcher: 'Bash' },
  { event: 'PostToolUse', matcher: 'Bash' },
  // Registered to show it never fires in 0.171.0.
  { event: 'PostToolUseFailure' },
  { event: 'PreCompact' },
  { event: 'Stop' },
  { event: 'SessionEnd' },
];

const runs: CodexRunResult[] = [];

const OBSERVER = `
const fs = require('fs');
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  fs.appendFileSync(process.env.OBS_LOG, s.trim() + '\\n');
  let ev = '';
  try { ev = JSON.parse(s).hook_event_name; } catch {}
  const f = (process.env.OBS_REPLIES || '/nonexistent') + '/' + ev + '.json';
  if (fs.existsSync(f)) process.stdout.write(fs.readFileSync(f));
});
`;

async function observe(name: string, script: CodexStep[], mode: CodexMode, replies: Record<string, unknown> = {}, extra: { ephemeral?: boolean; codexFiles?: Record<string, string> } = {}) {
  const dir = join(tmpdir(), 'omni-codex-capture-work', name);
  mkdirSync(join(dir, 'replies'), { recursive: true });
  writeFileSync(join(dir, 'observer.cjs'), OBSERVER);
  writeFileSync(join(dir, 'hooks.jsonl'), '');
  for (const [ev, r] of Object.entries(replies)) writeFileSync(join(dir, 'replies', `${ev}.json`), JSON.stringify(r));
  const run = await runCodex({
    script,
    hooks: { command: `'${process.execPath}' '${join(dir, 'observer.cjs')}'`, events: EVENTS },
    trust: 'config',
    mode,
    tag: name.replace(/\W/g, ''),
    env: { OBS_LOG: join(dir, 'hooks.jsonl'), OBS_REPLIES: join(dir, 'replies') },
    ...extra,
  });
  const payloads = readFileSync(join(dir, 'hooks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  runs.push(run);
  console.log(`${name}: exit ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}, ${run.requests.length} requests, ${payloads.length} hook payloads`);
  return { run, payloads };
}

/** Stable paths in fixtures: the temporary run directory becomes /tmp/omni-codex-capture. */
function stable(v: unknown, run: CodexRunResult): unknown {
  return JSON.parse(JSON.stringify(v).split(run.dir).join('/tmp/omni-codex-capture'));
}

function save(file: string, v: unknown): void {
  writeFileSync(join(OUT, file), JSON.stringify(v, null, 2) + '\n');
}

/** The rollout lines omni reads (turn_context, CommandExecution item_completed), paths made stable. */
function rolloutExtract(run: CodexRunResult): string {
  if (!run.rollout) return '';
  return readFileSync(run.rollout, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"turn_context"') || (l.includes('"item_completed"') && l.includes('"CommandExecution"')))
    .map((l) => JSON.stringify(stable(JSON.parse(l), run)))
    .join('\n') + '\n';
}

const pick = (payloads: any[], event: string, command?: string) =>
  payloads.find((p) => p.hook_event_name === event && (command === undefined || p.tool_input?.command === command));

async function main() {
  mkdirSync(OUT, { recursive: true });
  const YIELDED = 'seq 1 5; sleep 2; echo finished';
  const EXIT3 = 'echo out; echo err >&2; exit 3';

  // 1. Payloads, full access (--dangerously-bypass-approvals-and-sandbox).
  {
    const { run, payloads } = await observe('bypass', [
      { cmd: 'seq 1 300' },
      { cmd: 'ls /nonexistent' },
      { cmd: EXIT3 },
      { cmd: YIELDED, args: { yield_time_ms: 300 } },
      { tool: 'write_stdin', args: { session_id: '$SESSION', chars: '', yield_time_ms: 5000 } },
      { text: 'done' },
    ], 'bypass');
    save('SessionStart.startup.json', stable(pick(payloads, 'SessionStart'), run));
    save('PreToolUse.Bash.seq-1-300.json', stable(pick(payloads, 'PreToolUse', 'seq 1 300'), run));
    save('PostToolUse.Bash.seq-1-300.json', stable(pick(payloads, 'PostToolUse', 'seq 1 300'), run));
    save('PostToolUse.Bash.ls-nonexistent.json', stable(pick(payloads, 'PostToolUse', 'ls /nonexistent'), run));
    save('PostToolUse.Bash.stdout-stderr-exit3.json', stable(pick(payloads, 'PostToolUse', EXIT3), run));
    save('PostToolUse.Bash.yielded.json', stable(pick(payloads, 'PostToolUse', YIELDED), run));
    save('SessionEnd.other.json', stable(pick(payloads, 'SessionEnd'), run));
    save('Stop.json', stable(pick(payloads, 'Stop'), run));
    save('UserPromptSubmit.json', stable(pick(payloads, 'UserPromptSubmit'), run));
    writeFileSync(join(OUT, 'rollout.bypass.jsonl'), rolloutExtract(run));
    save('model-saw.bypass.json', stable(run.callIds.map((id, i) => ({ step: i, callId: id, output: run.outputs[i] })), run));
    save('events-seen.bypass.json', payloads.map((p) => p.hook_event_name));
  }

  // 2. codex exec's default: read-only sandbox, approvals "never" (permission_mode still bypassPermissions).
  {
    const { run, payloads } = await observe('read-only', [{ cmd: 'seq 1 3' }, { text: 'done' }], 'read-only');
    save('PreToolUse.Bash.read-only.json', stable(pick(payloads, 'PreToolUse'), run));
    writeFileSync(join(OUT, 'rollout.read-only.jsonl'), rolloutExtract(run));
  }

  // 3. --approve-for-me: approvals on-request, reviewed automatically (permission_mode "default").
  {
    const { run, payloads } = await observe('approve-for-me', [{ cmd: 'seq 1 3' }, { text: 'done' }], 'approve-for-me');
    save('PreToolUse.Bash.approve-for-me.json', stable(pick(payloads, 'PreToolUse'), run));
    save('SessionStart.approve-for-me.json', stable(pick(payloads, 'SessionStart'), run));
    writeFileSync(join(OUT, 'rollout.approve-for-me.jsonl'), rolloutExtract(run));
  }

  // 4. --ephemeral: no rollout, transcript_path null.
  {
    const { run, payloads } = await observe('ephemeral', [{ cmd: 'seq 1 3' }, { text: 'done' }], 'bypass', {}, { ephemeral: true });
    save('PostToolUse.Bash.ephemeral.json', stable(pick(payloads, 'PostToolUse'), run));
  }

  // 5. Replies that Codex applies: block+reason, allow+updatedInput, SessionStart additionalContext.
  {
    const replies = {
      PostToolUse: { decision: 'block', reason: 'OMNI-REASON line 1\nlast line' },
      PreToolUse: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo REWRITTEN; exit 0' } } },
      SessionStart: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'OMNI-SESSION-CONTEXT' } },
    };
    const { run, payloads } = await observe('applied', [{ cmd: 'seq 1 300' }, { text: 'done' }], 'bypass', replies);
    save('reply.applied.json', stable({ replies, postToolUseSaw: pick(payloads, 'PostToolUse'), modelSaw: run.outputs[0], developerMessages: developer(run), stderr: run.stderr }, run));
  }

  // 6. Replies that Codex ignores: updatedToolOutput; updatedInput without allow; additionalContext after a tool.
  {
    const replies = {
      PostToolUse: { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'OMNI-UPDATED', additionalContext: 'OMNI-POST-CONTEXT' } },
      PreToolUse: { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo REWRITTEN' } } },
    };
    const { run, payloads } = await observe('ignored', [{ cmd: 'seq 1 3' }, { text: 'done' }], 'bypass', replies);
    save('reply.ignored.json', stable({ replies, postToolUseSaw: pick(payloads, 'PostToolUse'), modelSaw: run.outputs[0], lastRequestInput: run.requests.at(-1)?.body?.input?.slice(-3), stderr: run.stderr }, run));
  }

  // 8. Codex's own view of omni's installed hooks (keys, hashes, trust), from `codex app-server`'s hooks/list.
  save('hooks-list.omni.json', await hooksListForOmni());

  // 9. A rewrite of a command that a user's exec-policy rule forbids: the rule is judged on the rewritten command.
  {
    const codexFiles = { 'rules/default.rules': 'prefix_rule(pattern = ["ls"], decision = "forbidden", justification = "ls is forbidden here")\n' };
    const replies = { PreToolUse: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo REWRITTEN-RAN ls /' } } } };
    const plain = await observe('rule-plain', [{ cmd: 'ls /' }, { text: 'done' }], 'bypass', {}, { codexFiles });
    const rewritten = await observe('rule-rewritten', [{ cmd: 'ls /' }, { text: 'done' }], 'bypass', replies, { codexFiles });
    save('reply.allow-past-forbidden-rule.json', { rule: codexFiles['rules/default.rules'], replies, modelSawWithoutHookReply: plain.run.outputs[0], modelSawWithRewrite: rewritten.run.outputs[0] });
  }

  // 7. A rewrite under the read-only sandbox: allow does not lift the sandbox.
  {
    const replies = { PreToolUse: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'touch /tmp/omni-codex-outside-sandbox && echo wrote' } } } };
    const { run } = await observe('allow-in-sandbox', [{ cmd: 'echo hi' }, { text: 'done' }], 'read-only', replies);
    save('reply.allow-in-read-only-sandbox.json', stable({ replies, modelSaw: run.outputs[0] }, run));
  }
}

/** Install omni's hooks with codexInstaller in a temporary CODEX_HOME and ask Codex for their keys and hashes. */
async function hooksListForOmni(): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'omni-codex-list-'));
  const env = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), CODEX_HOME: join(dir, 'codex-home') };
  mkdirSync(env.CODEX_HOME, { recursive: true });
  codexInstaller.install({ scope: 'user', cwd: dir, bin: '/opt/omni/dist/omni.cjs', nodePath: '/usr/bin/node', preHook: true, env });
  // One hook trusted the way /hooks writes it, to show the status Codex reports for it.
  const file = join(env.CODEX_HOME, 'hooks.json');
  const mine = omniHooksWithKeys(file, readSettings(file).json);
  writeFileSync(join(env.CODEX_HOME, 'config.toml'), `[hooks.state."${mine[0].key}"]\ntrusted_hash = "${mine[0].hash}"\n`);
  const child = spawn(codexBin(), ['app-server'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const result = await new Promise<any>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('hooks/list timed out')), 20_000);
    const send = (o: unknown) => child.stdin.write(JSON.stringify(o) + '\n');
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (m.id === 1) {
          send({ method: 'initialized' });
          send({ method: 'hooks/list', id: 2, params: { cwds: [dir] } });
        } else if (m.id === 2) {
          clearTimeout(timer);
          resolve(m.result ?? m.error);
        }
      }
    });
    send({ method: 'initialize', id: 1, params: { clientInfo: { name: 'omni-capture', title: null, version: '0' }, capabilities: null } });
  });
  child.kill();
  const hooks = (result?.data?.[0]?.hooks ?? []).map((h: any) => ({ key: h.key.split(dir).join('/tmp/omni-codex-list'), eventName: h.eventName, matcher: h.matcher, command: h.command, timeoutSec: h.timeoutSec, currentHash: h.currentHash, trustStatus: h.trustStatus }));
  const hooksJson = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  return { hooksJson, hooks, warnings: result?.data?.[0]?.warnings ?? [] };
}

function developer(run: CodexRunResult): string[] {
  const out: string[] = [];
  for (const r of run.requests) {
    for (const i of r.body?.input ?? []) {
      if (i?.type === 'message' && i.role === 'developer') for (const c of i.content ?? []) if (String(c?.text).startsWith('OMNI')) out.push(`request ${r.seq}: ${c.text}`);
    }
  }
  return out;
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const r of runs) r.cleanup();
  });
