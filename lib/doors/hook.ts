/**
 * The hook door: one host hook payload in, at most one JSON reply out.
 *
 * Host-neutral: the payload's host is recognised through lib/hosts/registry.ts, read into the
 * neutral shape (lib/hosts/adapter.ts), handled here, and answered by the host's own reply
 * writer. `runHook(name, stdin, env)` (the command hook) returns exactly what the bin prints on
 * stdout ('' = nothing); `answerHook(name, payload, deps)` is the same over a parsed payload and
 * the caller's store (the MCP hook tool). Neither throws: malformed JSON, binary stdin, wrong
 * types, an unknown host or event, or a crash anywhere gives ''. The bin always exits 0.
 * Diagnostics go to `$OMNI_HOME/omni.log` (logDiagnostic), never stdout.
 *
 * The walk runs one way: entry -> host -> the event's handler (a post-tool call is one decision,
 * ./post-tool.ts) -> the host's reply. Nothing below calls back up into this file.
 *
 * Hot path: no zod (hand-written guards in each host module); the pipeline, the store and the
 * pre-hook policy are imported lazily so each event loads only what it uses.
 */
import type { Store } from '../store/open.js';
import type { LazyStore } from './store-access.js';
import { logDiagnostic } from '../store/diagnostics.js';
import { isObject, type HookInput, type HookKind, type HostAdapter, type JsonObject, type PostToolInput, type PreToolInput } from '../hosts/adapter.js';
import { hostFor } from '../hosts/registry.js';
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

/**
 * What a hook call is given besides its payload: the host's environment, the call's store (a
 * hook process opens its own; the MCP server lends its warm one, lib/mcp/hook-tool.ts) and the
 * clock its records are written with.
 */
export interface HookDeps {
  env: NodeJS.ProcessEnv;
  /** A store for one call, opened only when used; the door closes it when the call is done. */
  store: () => LazyStore | Promise<LazyStore>;
  now?: () => number;
}

/** The command hook's store: one opened for this call, at the omni home the host's env names. */
async function processStore(env: NodeJS.ProcessEnv): Promise<LazyStore> {
  const { LazyStore } = await import('./store-access.js');
  return new LazyStore(env.OMNI_HOME || undefined);
}

/** The command hook (`omni --post-hook` …): stdin's bytes are the payload. */
export async function runHook(name: string, stdin: Buffer, env: NodeJS.ProcessEnv): Promise<string> {
  const hookName = name.replace(/^--/, '');
  if (!(hookName in HOOK_NAMES)) return unknownEntry(name, env);
  if (stdin.length === 0) return '';
  let payload: unknown;
  try {
    payload = JSON.parse(stdin.toString('utf8'));
  } catch {
    logDiagnostic('hook', `${hookName}: stdin is not JSON (${stdin.length} bytes)`, env);
    return '';
  }
  return answerHook(hookName, payload, { env, store: () => processStore(env) });
}

function unknownEntry(name: string, env: NodeJS.ProcessEnv): string {
  logDiagnostic('hook', `unknown hook entry ${JSON.stringify(name)}`, env);
  return '';
}

/**
 * One hook call over a parsed payload: the host recognised (lib/hosts/registry.ts), the payload
 * read into the neutral shape (lib/hosts/adapter.ts), the event handled, and the host's own
 * reply returned ('' = none). Never throws.
 */
export async function answerHook(name: string, payload: unknown, deps: HookDeps): Promise<string> {
  const hookName = name.replace(/^--/, '');
  const { env } = deps;
  try {
    if (!(hookName in HOOK_NAMES)) return unknownEntry(name, env);
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
    const reply = await dispatch(host, payload, input, deps);
    if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `${hookName} ${host.id} ${String(event)} -> ${reply === '' ? '(no reply)' : `${reply.length} B reply`}`, env);
    return reply;
  } catch (err) {
    logDiagnostic('hook', `${hookName}: ${err instanceof Error ? err.stack || err.message : String(err)}`, env);
    return '';
  }
}

async function dispatch(host: HostAdapter, p: JsonObject, input: HookInput, deps: HookDeps): Promise<string> {
  switch (input.kind) {
    case 'post-tool':
      return postTool(host, p, input, deps);
    case 'post-tool-failure':
      return postToolFailure(input, deps);
    case 'pre-tool':
      return preTool(host, p, input, deps.env);
    case 'session-start':
      return sessionStart(host, p, input, deps);
    case 'session-end':
      return sessionEnd(input, deps);
    case 'pre-compact':
      return preCompact(input, deps);
  }
}

/** Runs `fn` with the call's store and closes it after, whatever happens. */
async function withStore<T>(deps: HookDeps, fn: (store: LazyStore) => Promise<T> | T): Promise<T> {
  const store = await deps.store();
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

const hookLog = (env: NodeJS.ProcessEnv) => (what: string) => logDiagnostic('hook', what, env);

// ---------------------------------------------------------------------------------------------
// Post-tool: one decision (./post-tool.ts), over the call's store. A store that cannot open
// means: nothing is archived, so nothing is removed, and no ledger; the hook still answers.

async function postTool(host: HostAdapter, p: JsonObject, input: PostToolInput, deps: HookDeps): Promise<string> {
  const { handlePostTool } = await import('./post-tool.js');
  const { env, now } = deps;
  const r = await withStore(deps, (store) => handlePostTool(host, input, p, { store, env, now, log: hookLog(env), readOutputFile: readRegularFile, sessionMemory: true }));
  return r.reply;
}

// ---------------------------------------------------------------------------------------------
// Post-tool failure: hosts that have it cannot rewrite failures; they reach the model verbatim.

async function postToolFailure(input: Extract<HookInput, { kind: 'post-tool-failure' }>, deps: HookDeps): Promise<string> {
  // Failure memory: the project's last active error, for session context.
  const { rememberFailure } = await import('./post-tool.js');
  await withStore(deps, (store) => rememberFailure({ store, log: hookLog(deps.env), sessionMemory: true }, input));
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

async function sessionStart(host: HostAdapter, p: JsonObject, input: Extract<HookInput, { kind: 'session-start' }>, deps: HookDeps): Promise<string> {
  // Session context (goal, facts, last error, hot files) for the model. After compact or clear
  // the agent no longer holds what it was shown: reset the ledger first.
  if (input.source === 'compact' || input.source === 'clear') await forget(deps, input.sessionId);
  const text = await sessionEvent(deps, 'sessionStart', (ev, store) => ev.sessionStarted(store, { sessionId: input.sessionId, main: isMain(input), cwd: input.cwd, source: input.source }));
  if (typeof text === 'string' && text !== '' && host.replyContext) return host.replyContext(p, input, text);
  return '';
}

async function sessionEnd(input: Extract<HookInput, { kind: 'session-end' }>, deps: HookDeps): Promise<string> {
  // Claude Code gives SessionEnd a 1.5 s shared budget: a quick flush only. Replies are discarded.
  await sessionEvent(deps, 'sessionEnd', (ev, store) => ev.sessionEnded(store, { sessionId: input.sessionId, main: isMain(input), cwd: input.cwd, reason: input.reason }));
  return '';
}

async function preCompact(input: Extract<HookInput, { kind: 'pre-compact' }>, deps: HookDeps): Promise<string> {
  // PreCompact cannot talk to the model; session start (source compact) re-injects context.
  // After compaction the agent no longer holds what it was shown: reset the ledger.
  await forget(deps, input.sessionId);
  return '';
}

/** Reset the ledger's "already shown" bookkeeping for a session. Never throws. */
async function forget(deps: HookDeps, sessionId: string): Promise<void> {
  try {
    const { contextReset } = await import('./session-events.js');
    await withStore(deps, (store) => contextReset(() => store.get(), sessionId));
  } catch (err) {
    logDiagnostic('hook', `forgetSession: ${(err as Error).message}`, deps.env);
  }
}

type SessionEvents = typeof import('./session-events.js');

/**
 * One session event against the call's store, opened only if the event has something to
 * record. A missing or broken store never breaks a hook: caught, logged, no reply.
 */
async function sessionEvent<T>(deps: HookDeps, what: string, fn: (ev: SessionEvents, store: () => Store) => T): Promise<T | undefined> {
  try {
    const ev = await import('./session-events.js');
    return await withStore(deps, (store) =>
      fn(ev, () => {
        const s = store.get();
        if (!s) throw new Error('the store is not available');
        return s;
      }),
    );
  } catch (err) {
    logDiagnostic('hook', `store ${what}: ${(err as Error).message}`, deps.env);
    return undefined;
  }
}
