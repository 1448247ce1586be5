/**
 * The hook door: one host hook payload in, at most one JSON reply out.
 *
 * Host-neutral: the payload's host is recognised through lib/hosts/registry.ts, read into the
 * neutral shape (lib/hosts/adapter.ts), handled here, and answered by the host's own reply
 * writer. `runHook(name, stdin, env)` returns exactly what the bin prints on stdout
 * ('' = nothing) and never throws: malformed JSON, binary stdin, wrong types, an unknown host
 * or event, or a crash anywhere gives ''. The bin always exits 0. Diagnostics go to
 * `$OMNI_HOME/omni.log` (logDiagnostic), never stdout.
 *
 * Hot path: no zod (hand-written guards in each host module); the pipeline, the store and the
 * pre-hook policy are imported lazily so each event loads only what it uses.
 */
import type { PipelineContext } from '../pipeline/types.js';
import type { Store } from '../store/open.js';
import { logDiagnostic } from '../store/diagnostics.js';
import { type AfterDistil, type Distilled, type Settled } from './distil-text.js';
import { claudeReplied, claudeSilentPersisted, codexReplied, codexSilent, HOST_MIN_INLINE_CHARS, NOTHING, WHOLE, type ModelView } from './model-view.js';
import { isObject, type HookInput, type HookKind, type HostAdapter, type JsonObject, type PostMcpInput, type PostReadInput, type PostShellInput, type PreToolInput } from '../hosts/adapter.js';
import { hostFor } from '../hosts/registry.js';
import { isOmniOwnCommand, omniExecOriginal } from '../hosts/omni-command.js';
import { maskAllRequested, passthroughRequested } from '../command/passthrough.js';
import { readRegularFile } from '../hosts/read-text.js';

/** `omni --<name>` → the neutral event it serves. `hook` dispatches on the payload alone. */
export const HOOK_NAMES: Record<string, HookKind | null> = {
  'post-hook': 'post-tool',
  'post-hook-failure': 'post-tool-failure',
  'pre-hook': 'pre-tool',
  'session-start': 'session-start',
  'session-end': 'session-end',
  'pre-compact': 'pre-compact',
  hook: null,
};

export async function runHook(name: string, stdin: Buffer, env: NodeJS.ProcessEnv): Promise<string> {
  const hookName = name.replace(/^--/, '');
  try {
    if (!(hookName in HOOK_NAMES)) {
      logDiagnostic('hook', `unknown hook entry ${JSON.stringify(name)}`, env);
      return '';
    }
    if (stdin.length === 0) return '';
    let payload: unknown;
    try {
      payload = JSON.parse(stdin.toString('utf8'));
    } catch {
      logDiagnostic('hook', `${hookName}: stdin is not JSON (${stdin.length} bytes)`, env);
      return '';
    }
    if (!isObject(payload)) return '';
    const host = hostFor(payload, env);
    const event = payload.hook_event_name;
    if (!host) {
      logDiagnostic('hook', `${hookName}: no host recognises this payload (event ${JSON.stringify(event)}); no reply`, env);
      return '';
    }
    const expected = HOOK_NAMES[hookName];
    const kind = typeof event === 'string' ? host.kindOf(event) : null;
    if (kind === null) return '';
    if (expected !== null && kind !== expected) {
      logDiagnostic('hook', `${hookName}: ${host.id} payload is ${String(event)}, expected ${expected}`, env);
      return '';
    }
    const input = host.read(payload);
    if (!input) {
      if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `${hookName}: ${host.id} ${String(event)}: nothing for omni (other tool, or does not validate)`, env);
      return '';
    }
    const reply = await dispatch(host, payload, input, env);
    if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `${hookName} ${host.id} ${String(event)} -> ${reply === '' ? '(no reply)' : `${reply.length} B reply`}`, env);
    return reply;
  } catch (err) {
    logDiagnostic('hook', `${hookName}: ${err instanceof Error ? err.stack || err.message : String(err)}`, env);
    return '';
  }
}

async function dispatch(host: HostAdapter, p: JsonObject, input: HookInput, env: NodeJS.ProcessEnv): Promise<string> {
  switch (input.kind) {
    case 'post-tool':
      if (input.tool === 'mcp') return postMcp(host, p, input, env);
      return input.tool === 'shell' ? postShell(host, p, input, env) : postRead(host, p, input, env);
    case 'post-tool-failure':
      return postToolFailure(input, env);
    case 'pre-tool':
      return preTool(host, p, input, env);
    case 'session-start':
      return sessionStart(host, p, input, env);
    case 'session-end':
      return sessionEnd(input, env);
    case 'pre-compact':
      return preCompact(input, env);
  }
}

function ctxFor(input: HookInput, command: string, tool: string, env: NodeJS.ProcessEnv): PipelineContext {
  return {
    maskAll: maskAllRequested(env),
    door: 'hook',
    host: input.host,
    command,
    tool,
    sessionId: input.sessionId,
    agentId: input.agentId,
    cwd: input.cwd,
    exitCode: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The one pipeline, with the store's archive (removed bytes stay retrievable) and the ledger
// (lines this reader was already shown fold). A store that cannot open means: nothing is
// archived, so nothing is removed, and no ledger; the hook still answers (fail open).

/**
 * Where a call's store comes from. A hook process opens its own per call (the default); a
 * process that serves many calls (the MCP server, lib/mcp/hook-tool.ts) lends its warm one.
 */
export const hookStores: { forCall: ((env: NodeJS.ProcessEnv) => import('./store-access.js').LazyStore) | null } = { forCall: null };

async function callStore(env: NodeJS.ProcessEnv): Promise<import('./store-access.js').LazyStore> {
  if (hookStores.forCall) return hookStores.forCall(env);
  const { LazyStore } = await import('./store-access.js');
  return new LazyStore(env.OMNI_HOME || undefined);
}

async function distil(ctx: PipelineContext, text: string, env: NodeJS.ProcessEnv, after: AfterDistil | undefined, settle: (d: Distilled) => Settled<string>): Promise<string> {
  const [{ distilText }, store] = await Promise.all([import('./distil-text.js'), callStore(env)]);
  try {
    return await distilText(ctx, text, env, store, after, (what) => logDiagnostic('hook', what, env), settle);
  } finally {
    store.close();
  }
}

function claudeReplyStdout(reply: string): string | null {
  try {
    const out = JSON.parse(reply)?.hookSpecificOutput?.updatedToolOutput?.stdout;
    return typeof out === 'string' ? out : null;
  } catch {
    return null;
  }
}

/**
 * What of a shell result reached the model: omni's reply (`reply` non-empty, `sent` its text) or,
 * when omni stayed silent, the host's own view of the original. The ledger records only that.
 */
export function shellView(host: HostAdapter, input: PostShellInput, full: string, reply: string, sent: string): ModelView {
  switch (host.id) {
    case 'claude':
      // The reply's stdout may carry the tool's own stderr notices after the digest.
      if (reply !== '') return claudeReplied(claudeReplyStdout(reply) ?? sent);
      // Persisted by the host: the model got the preview of the whole output, not the payload's prefix.
      return input.outputFile !== undefined ? claudeSilentPersisted(full) : WHOLE;
    case 'codex':
      return reply !== '' ? codexReplied(sent) : codexSilent(input.output);
    case 'gemini':
      // The CLI cuts long results by a threshold the user may set (tools.truncateToolOutputThreshold),
      // and how it treats a long deny reason was not measured: only a short reply is known whole.
      return reply !== '' && sent.length < HOST_MIN_INLINE_CHARS ? WHOLE : NOTHING;
    default:
      return NOTHING;
  }
}

// ---------------------------------------------------------------------------------------------
// Post-tool: a successful shell output is distilled; a failed one (or one whose status the
// host does not say) is never touched.

async function postShell(host: HostAdapter, p: JsonObject, input: PostShellInput, env: NodeJS.ProcessEnv): Promise<string> {
  // Hosts without a failure event (Gemini, Codex) bring failures here: remember them the way
  // a failure event would, and leave the output alone.
  if (input.failed === true) {
    const error = input.exitCode === undefined ? input.output : `Exit code ${input.exitCode}\n${input.output}`;
    return postToolFailure({ ...input, kind: 'post-tool-failure', error, interrupted: false }, env);
  }
  if (input.failed !== false) return '';
  // A host that shows any replacement as the tool's error (Gemini) gets omni's digest only on
  // request; a secret is masked all the same (an error-framed result beats a leaked credential).
  const maskOnly = host.replacesAsError === true && env.OMNI_REPLACE_AS_ERROR !== '1';
  const command = input.command;
  if (isOmniOwnCommand(command) || passthroughRequested(command, env)) return '';
  let text = input.output;
  if (input.outputFile !== undefined) {
    // The payload holds only a prefix: distil the whole output from the file. If it cannot be
    // read, reply nothing: the host's own wrapper at least tells the model that the output was
    // cut and where the rest is; a digest of the prefix would not. The path is the payload's:
    // only a regular file under the cap is read (a FIFO or /dev/zero would hang or flood the hook).
    try {
      text = readRegularFile(input.outputFile);
    } catch (err) {
      logDiagnostic('hook', `post-hook: cannot read ${input.outputFile}: ${(err as Error).message}; no reply`, env);
      return '';
    }
    // Hosts strip the trailing newline from inline output; do the same with the file.
    if (text.endsWith('\n')) text = text.slice(0, -1);
  }
  if (text === '') return '';
  if (maskOnly) return maskedShell(host, p, input, command, text, env);
  const cwd = input.cwd;
  // A command that succeeds clears its own "last error" in session memory.
  const full = text;
  return distil(ctxFor(input, command, 'Bash', env), text, env, cwd ? (s, ev) => ev.commandSucceeded(() => s, { cwd, command }) : undefined, (res) => {
    let out = res.output;
    if (out.endsWith('\n') && !full.endsWith('\n')) out = out.slice(0, -1);
    const reply = res.changed ? host.replyOutput(p, input, out) : '';
    return { reply, applied: reply !== '', view: shellView(host, input, full, reply, out) };
  });
}

/**
 * The output as it came with its secrets masked, and nothing else changed: the same pipeline
 * with no archive, so nothing can be folded or removed (structured data and the rest that
 * passes byte for byte still does). No run is recorded: omni did not distil it.
 */
async function maskedShell(host: HostAdapter, p: JsonObject, input: PostShellInput, command: string, text: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { distillBuffer } = await import('../pipeline/run.js');
  const res = await distillBuffer(ctxFor(input, command, 'Bash', env), Buffer.from(text, 'utf8'));
  if (!res.changed) return '';
  let out = res.output.toString('utf8');
  if (out.endsWith('\n') && !text.endsWith('\n')) out = out.slice(0, -1);
  return host.replyOutput(p, input, out);
}

async function postRead(host: HostAdapter, p: JsonObject, input: PostReadInput, env: NodeJS.ProcessEnv): Promise<string> {
  if (!host.replyRead || input.content === '' || passthroughRequested(null, env)) return '';
  const cwd = input.cwd;
  const path = input.path;
  // Hot files for the session-start context.
  const after: AfterDistil | undefined = cwd ? (s, ev) => ev.fileRead(() => s, { cwd, path }) : undefined;
  const [{ replyToRead }, store] = await Promise.all([import('./reread.js'), callStore(env)]);
  try {
    // A file this reader already holds is answered from what it holds, when that is smaller.
    return (await replyToRead(host, p, input, env, store, ctxFor(input, `Read ${path}`, 'Read', env), after, (what) => logDiagnostic('hook', what, env))).reply;
  } finally {
    store.close();
  }
}

/**
 * An MCP tool's result: each text part through the one pipeline, routed by content (no command:
 * the generic distiller unless a sniff recognises a tool's own lines; JSON and other structured
 * text pass byte for byte in the guard). Images and every other part go back as they came.
 */
async function postMcp(host: HostAdapter, p: JsonObject, input: PostMcpInput, env: NodeJS.ProcessEnv): Promise<string> {
  if (!host.replyMcp || passthroughRequested(null, env)) return '';
  const texts = [...input.texts];
  for (let i = 0; i < texts.length; i++) {
    const full = texts[i];
    if (full === '') continue;
    texts[i] = await distil(ctxFor(input, '', input.name, env), full, env, undefined, (res) => {
      let out = res.output;
      if (out.endsWith('\n') && !full.endsWith('\n')) out = out.slice(0, -1);
      // A changed text always goes out (replyMcp answers whenever one part changed), inline: the
      // host's token cap was checked on the original, and a digest is never larger.
      return { reply: res.changed ? out : full, applied: res.changed && out !== full, view: WHOLE };
    });
  }
  return host.replyMcp(p, input, texts);
}

// ---------------------------------------------------------------------------------------------
// Post-tool failure: hosts that have it cannot rewrite failures; they reach the model verbatim.

async function postToolFailure(input: Extract<HookInput, { kind: 'post-tool-failure' }>, env: NodeJS.ProcessEnv): Promise<string> {
  // Failure memory: the project's last active error, for session context.
  await sessionEvent(env, 'recordFailure', (ev, store) =>
    ev.commandFailed(store, {
      cwd: input.cwd,
      // The user's command, not omni's wrapper around it.
      command: omniExecOriginal(input.command) ?? input.command,
      error: input.error.slice(0, 2000),
      interrupted: input.interrupted,
    }),
  );
  return '';
}

// ---------------------------------------------------------------------------------------------
// Pre-tool: the rewrite into `omni exec`.

async function preTool(host: HostAdapter, p: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv): Promise<string> {
  if (!host.rewrite) return '';
  const { decideRewrite } = await import('./prehook-policy.js');
  const d = await decideRewrite(host, p, input, env);
  if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `pre-hook ${host.id}: ${d.rewrite ? 'rewrite' : d.reply ? 'deny' : 'leave'} (${d.reason})`, env);
  return d.reply ?? '';
}

// ---------------------------------------------------------------------------------------------
// Session events: through lib/doors/session-events.ts, as Pi's door does; valid, fast, silent.

/** Session memory keys the main agent by the absence of an agent id. */
const isMain = (input: HookInput): boolean => input.agentId === 'main' || !input.agentId;

async function sessionStart(host: HostAdapter, p: JsonObject, input: Extract<HookInput, { kind: 'session-start' }>, env: NodeJS.ProcessEnv): Promise<string> {
  // Session context (goal, facts, last error, hot files) for the model. After compact or clear
  // the agent no longer holds what it was shown: reset the ledger first.
  if (input.source === 'compact' || input.source === 'clear') await forget(env, input.sessionId);
  const text = await sessionEvent(env, 'sessionStart', (ev, store) => ev.sessionStarted(store, { sessionId: input.sessionId, main: isMain(input), cwd: input.cwd, source: input.source }));
  if (typeof text === 'string' && text !== '' && host.replyContext) return host.replyContext(p, input, text);
  return '';
}

async function sessionEnd(input: Extract<HookInput, { kind: 'session-end' }>, env: NodeJS.ProcessEnv): Promise<string> {
  // Claude Code gives SessionEnd a 1.5 s shared budget: a quick flush only. Replies are discarded.
  await sessionEvent(env, 'sessionEnd', (ev, store) => ev.sessionEnded(store, { sessionId: input.sessionId, main: isMain(input), cwd: input.cwd, reason: input.reason }));
  return '';
}

async function preCompact(input: Extract<HookInput, { kind: 'pre-compact' }>, env: NodeJS.ProcessEnv): Promise<string> {
  // PreCompact cannot talk to the model; session start (source compact) re-injects context.
  // After compaction the agent no longer holds what it was shown: reset the ledger.
  await forget(env, input.sessionId);
  return '';
}

/** Reset the ledger's "already shown" bookkeeping for a session. Never throws. */
async function forget(env: NodeJS.ProcessEnv, sessionId: string): Promise<void> {
  try {
    const [store, { contextReset }] = await Promise.all([callStore(env), import('./session-events.js')]);
    try {
      contextReset(() => store.get(), sessionId);
    } finally {
      store.close();
    }
  } catch (err) {
    logDiagnostic('hook', `forgetSession: ${(err as Error).message}`, env);
  }
}

type SessionEvents = typeof import('./session-events.js');

/**
 * One session event against the store, opened (OMNI_HOME from `env`) only if the event has
 * something to record and closed after it. A missing or broken store never breaks a hook:
 * caught, logged, no reply.
 */
async function sessionEvent<T>(env: NodeJS.ProcessEnv, what: string, fn: (ev: SessionEvents, store: () => Store) => T): Promise<T | undefined> {
  try {
    // callStore: the warm server's store when one lends it (lib/mcp/hook-tool.ts), else one
    // opened for this call, only if the event has something to record.
    const [ev, store] = await Promise.all([import('./session-events.js'), callStore(env)]);
    try {
      return fn(ev, () => {
        const s = store.get();
        if (!s) throw new Error('the store is not available');
        return s;
      });
    } finally {
      store.close();
    }
  } catch (err) {
    logDiagnostic('hook', `store ${what}: ${(err as Error).message}`, env);
    return undefined;
  }
}
