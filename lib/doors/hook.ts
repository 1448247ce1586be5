/**
 * The hook door: one Claude Code hook payload in, at most one JSON reply out.
 *
 * `runHook(name, stdin, env)` returns exactly what the bin prints on stdout ('' = nothing) and
 * never throws: malformed JSON, binary stdin, wrong types, an unknown event or a crash anywhere
 * gives ''. The bin always exits 0. Diagnostics go to `$OMNI_HOME/omni.log` (logDiagnostic), never stdout.
 *
 * Hot path: no zod (guards in ../hosts/claude.ts), the pipeline and the pre-hook policy are
 * imported lazily so each event loads only what it uses.
 */
import { readFileSync, statSync } from 'node:fs';
import type { PipelineContext } from '../pipeline/types.js';
import { logDiagnostic } from './diagnostics.js';
import {
  agentIdOf,
  bashReply,
  hasPassthroughPrefix,
  headFold,
  isBashInput,
  isBashResponse,
  isCursor,
  isObject,
  isOmniOwnCommand,
  omniExecOriginal,
  isPostToolUse,
  isPostToolUseFailure,
  isPreCompact,
  isPreToolUse,
  isReadInput,
  isReadTextResponse,
  isSessionEnd,
  isSessionStart,
  readReply,
  type BasePayload,
  type PostToolUsePayload,
} from '../hosts/claude.js';

/** `omni --<name>` → the event it serves. `hook` dispatches on `hook_event_name`. */
export const HOOK_NAMES: Record<string, string | null> = {
  'post-hook': 'PostToolUse',
  'post-hook-failure': 'PostToolUseFailure',
  'pre-hook': 'PreToolUse',
  'session-start': 'SessionStart',
  'session-end': 'SessionEnd',
  'pre-compact': 'PreCompact',
  hook: null,
};

/** The host caps Bash output at this many characters and persists the rest (host-contract 2.6). */
export const HOST_INLINE_CAP = 30_000;
/** Larger persisted outputs are left to the host (a hook has a time budget too). */
export const MAX_PERSISTED_BYTES = 64 * 1024 * 1024;
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
    if (isCursor(payload, env)) return '';
    const expected = HOOK_NAMES[hookName];
    const event = payload.hook_event_name;
    if (expected !== null && event !== expected) {
      logDiagnostic('hook', `${hookName}: payload is ${String(event)}, expected ${expected}`, env);
      return '';
    }
    const reply = await dispatch(payload, env);
    if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `${hookName} ${String(event)} -> ${reply === '' ? '(no reply)' : `${reply.length} B reply`}`, env);
    return reply;
  } catch (err) {
    logDiagnostic('hook', `${hookName}: ${err instanceof Error ? err.stack || err.message : String(err)}`, env);
    return '';
  }
}

async function dispatch(p: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<string> {
  switch (p.hook_event_name) {
    case 'PostToolUse':
      return isPostToolUse(p) ? postToolUse(p, env) : invalid(env, p);
    case 'PostToolUseFailure':
      return isPostToolUseFailure(p) ? postToolUseFailure(p, env) : invalid(env, p);
    case 'PreToolUse':
      return isPreToolUse(p) ? preToolUse(p, env) : invalid(env, p);
    case 'SessionStart':
      return isSessionStart(p) ? sessionStart(p, env) : invalid(env, p);
    case 'SessionEnd':
      return isSessionEnd(p) ? sessionEnd(p, env) : invalid(env, p);
    case 'PreCompact':
      return isPreCompact(p) ? preCompact(p, env) : invalid(env, p);
    default:
      return '';
  }
}

function invalid(env: NodeJS.ProcessEnv, p: Record<string, unknown>): string {
  logDiagnostic('hook', `${String(p.hook_event_name)}: payload does not validate; no reply`, env);
  return '';
}

function ctxFor(p: BasePayload, command: string, tool: string): PipelineContext {
  return {
    door: 'hook',
    host: 'claude',
    command,
    tool,
    sessionId: p.session_id,
    agentId: agentIdOf(p),
    cwd: typeof p.cwd === 'string' ? p.cwd : undefined,
    exitCode: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The one pipeline, with the store's archive (removed bytes stay retrievable) and the ledger
// (lines this reader was already shown fold). A store that cannot open means: nothing is
// archived, so nothing is removed, and no ledger; the hook still answers (fail open).

interface Distilled {
  output: string;
  changed: boolean;
}

/** Store work to do on the store the distillation opened (one open per hook call). */
type AfterDistil = (store: import('../store/open.js').Store, memory: typeof import('../store/memory.js')) => void;

async function distil(ctx: PipelineContext, text: string, env: NodeJS.ProcessEnv, after?: AfterDistil): Promise<Distilled> {
  const [{ distillBuffer }, { LazyStore }, { RunBook }] = await Promise.all([import('../pipeline/run.js'), import('./store-access.js'), import('./run-record.js')]);
  const store = new LazyStore(env.OMNI_HOME || undefined);
  try {
    ctx.archive = store.archive();
    // The same ledger and run record as exec and pipe (lib/doors/run-record.ts).
    const book = new RunBook(ctx, store);
    book.attachLedger(env);
    const input = Buffer.from(text, 'utf8');
    let res = await distillBuffer(ctx, input);
    if (book.ledgerAttached && res.verbatim?.startsWith('internal error')) {
      // A broken ledger must not cost the distillation: log it, run once more without it.
      logDiagnostic('hook', `ledger stage failed (${res.verbatim}); distilled without the ledger`, env);
      book.detachLedger();
      res = await distillBuffer(ctx, input);
    }
    if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `distil ${ctx.tool} ${res.rawBytes} B -> ${res.outBytes} B (${res.distiller}${res.verbatim ? `, verbatim: ${res.verbatim}` : ''}${book.ledgerAttached ? ', ledger' : ''})`, env);
    book.record({ raw: input, delivered: res.output, bytesIn: res.rawBytes, bytesOut: res.outBytes, distiller: res.distiller, rawHandle: res.rawHandle, applied: res.changed });
    if (after) {
      try {
        const s = store.get();
        if (s) after(s, await import('../store/memory.js'));
      } catch (err) {
        logDiagnostic('hook', `session memory: ${(err as Error).message}`, env);
      }
    }
    return { output: res.output.toString('utf8'), changed: res.changed };
  } finally {
    store.close();
  }
}

// ---------------------------------------------------------------------------------------------
// PostToolUse

async function postToolUse(p: PostToolUsePayload, env: NodeJS.ProcessEnv): Promise<string> {
  if (p.tool_name === 'Bash') return postBash(p, env);
  if (p.tool_name === 'Read') return postRead(p, env);
  return '';
}

async function postBash(p: PostToolUsePayload, env: NodeJS.ProcessEnv): Promise<string> {
  if (!isBashInput(p.tool_input)) return invalid(env, p);
  const r = p.tool_response;
  if (!isBashResponse(r)) return invalid(env, p);
  const command = p.tool_input.command;
  if (isOmniOwnCommand(command) || hasPassthroughPrefix(command)) return '';
  if (r.isImage === true || typeof r.backgroundTaskId === 'string') return '';

  let text = r.stdout;
  let persisted = false;
  if (typeof r.persistedOutputPath === 'string') {
    // The payload's stdout is only the first 30,000 characters: distil the whole output from
    // the file. If it cannot be read, reply nothing: the host's own wrapper at least tells the
    // model that the output was cut and where the rest is; a digest of the prefix would not.
    try {
      const size = statSync(r.persistedOutputPath).size;
      if (size > MAX_PERSISTED_BYTES) return '';
      text = readFileSync(r.persistedOutputPath, 'utf8');
      persisted = true;
    } catch (err) {
      logDiagnostic('hook', `post-hook: cannot read persistedOutputPath: ${(err as Error).message}; no reply`, env);
      return '';
    }
  }
  // The host strips the trailing newline from stdout; do the same with the persisted file.
  if (persisted && text.endsWith('\n')) text = text.slice(0, -1);
  if (text === '') return '';

  const cwd = typeof p.cwd === 'string' ? p.cwd : undefined;
  // A command that succeeds clears its own "last error" in session memory.
  const res = await distil(ctxFor(p, command, 'Bash'), text, env, cwd ? (s, m) => m.recordSuccess(s, { cwd, command }) : undefined);
  if (!res.changed) return '';
  let out = res.output;
  if (out.endsWith('\n') && !text.endsWith('\n')) out = out.slice(0, -1);
  if (!persisted && out === r.stdout && r.stderr === '') return '';
  // Bash's `stderr` holds the tool's own notices (the command's stderr is already in stdout).
  // The model sees "<stdout>\n<stderr>"; keep that text, moved into stdout, so the reply's
  // stderr can be "" without losing a notice.
  if (r.stderr !== '') out = out === '' ? r.stderr : `${out}\n${r.stderr}`;
  // Persisted output (measured with the real CLI 2.1.332, docs/claude-code-findings.md):
  // keeping persistedOutputPath/Size makes the host show only the first 2 KB of the digest in
  // its <persisted-output> wrapper, pointing at the RAW file; dropping them makes it send the
  // digest exactly (and, above 30,000 chars, persist the digest itself with a 2 KB preview).
  // So always drop them; the raw bytes stay reachable through the markers' `omni retrieve`.
  const dropPersisted = true;
  return bashReply(r, out, { dropPersisted });
}

async function postRead(p: PostToolUsePayload, env: NodeJS.ProcessEnv): Promise<string> {
  if (!isReadInput(p.tool_input)) return invalid(env, p);
  const r = p.tool_response;
  // image, pdf, notebook, parts, file_unchanged: left alone.
  if (!isReadTextResponse(r)) return '';
  const content = r.file.content;
  if (content === '') return '';
  const cwd = typeof p.cwd === 'string' ? p.cwd : undefined;
  const path = r.file.filePath;
  // Hot files for the session-start context.
  const res = await distil(ctxFor(p, `Read ${path}`, 'Read'), content, env, cwd ? (s, m) => m.recordFileTouch(s, { cwd, path, tool: 'Read' }) : undefined);
  if (!res.changed) return '';
  let out = res.output;
  if (out.endsWith('\n') && !content.endsWith('\n')) out = out.slice(0, -1);
  // Only a fold at the head keeps the host's line numbers right; anything else is refused.
  const fold = headFold(content, out, r.file.startLine);
  if (!fold) return '';
  return readReply(r, fold.content, fold.startLine);
}

// ---------------------------------------------------------------------------------------------
// PostToolUseFailure: the host cannot rewrite failures; they reach the model verbatim.

async function postToolUseFailure(p: BasePayload & { tool_name: string; tool_input: Record<string, unknown>; error: string }, env: NodeJS.ProcessEnv): Promise<string> {
  if (p.tool_name !== 'Bash' || !isBashInput(p.tool_input)) return '';
  // Failure memory: the project's last active error, for session context.
  await withStore(env, 'recordFailure', {
    sessionId: p.session_id,
    agentId: p.agent_id,
    cwd: p.cwd,
    // The user's command, not omni's wrapper around it.
    command: omniExecOriginal(p.tool_input.command) ?? p.tool_input.command,
    errorHead: p.error.slice(0, 2000),
    interrupted: (p as { is_interrupt?: boolean }).is_interrupt === true,
  });
  return '';
}

// ---------------------------------------------------------------------------------------------
// PreToolUse

async function preToolUse(p: BasePayload & { tool_name: string; tool_input: Record<string, unknown> }, env: NodeJS.ProcessEnv): Promise<string> {
  if (p.tool_name !== 'Bash') return '';
  if (env.OMNI_NO_REWRITE === '1') return '';
  const { decidePreHook } = await import('./prehook-policy.js');
  const d = decidePreHook(p as Parameters<typeof decidePreHook>[0], env);
  if (env.OMNI_HOOK_TRACE) logDiagnostic('hook', `pre-hook: ${d.rewrite ? 'rewrite' : 'leave'} (${d.reason})`, env);
  return d.rewrite ? d.reply : '';
}

// ---------------------------------------------------------------------------------------------
// Session events: valid, fast, silent until the store's session memory lands.

async function sessionStart(p: BasePayload & { source: string }, env: NodeJS.ProcessEnv): Promise<string> {
  // Session context (goal, facts, last error, hot files) as additionalContext. After compact or
  // clear the agent no longer holds what it was shown: reset the ledger first.
  if (p.source === 'compact' || p.source === 'clear') await forget(env, p.session_id);
  const text = await withStore(env, 'sessionStart', { sessionId: p.session_id, agentId: p.agent_id, cwd: p.cwd, source: p.source });
  if (typeof text === 'string' && text !== '') {
    const { additionalContextReply } = await import('../hosts/claude.js');
    return additionalContextReply('SessionStart', text);
  }
  return '';
}

async function sessionEnd(p: BasePayload & { reason: string }, env: NodeJS.ProcessEnv): Promise<string> {
  // 1.5 s shared budget: a quick flush only. JSON output is discarded by the host.
  await withStore(env, 'sessionEnd', { sessionId: p.session_id, agentId: p.agent_id, cwd: p.cwd, reason: p.reason });
  return '';
}

async function preCompact(p: BasePayload & { trigger: string }, env: NodeJS.ProcessEnv): Promise<string> {
  // PreCompact cannot talk to the model; SessionStart(compact) re-injects context.
  // After compaction the agent no longer holds what it was shown: reset the ledger.
  await forget(env, p.session_id);
  await withStore(env, 'preCompact', { sessionId: p.session_id, agentId: agentIdOf(p), trigger: p.trigger });
  return '';
}

/** Reset the ledger's "already shown" bookkeeping for a session. Never throws. */
async function forget(env: NodeJS.ProcessEnv, sessionId: string): Promise<void> {
  try {
    const [{ LazyStore }, { forgetSession }] = await Promise.all([import('./store-access.js'), import('../store/ledger.js')]);
    const store = new LazyStore(env.OMNI_HOME || undefined);
    try {
      const s = store.get();
      if (s) forgetSession(s, sessionId);
    } finally {
      store.close();
    }
  } catch (err) {
    logDiagnostic('hook', `forgetSession: ${(err as Error).message}`, env);
  }
}

/**
 * The one place the hook door talks to the store's session memory for session events
 * (lib/store/events.ts; `storeHandlers` overrides them in tests). A missing or broken store
 * never breaks a hook: caught, logged, '' reply.
 */
export type StoreEvent = 'recordFailure' | 'sessionStart' | 'sessionEnd' | 'preCompact';
export const storeHandlers: Partial<Record<StoreEvent, (env: NodeJS.ProcessEnv, args: Record<string, unknown>) => Promise<unknown>>> = {};

async function withStore(env: NodeJS.ProcessEnv, what: StoreEvent, args: Record<string, unknown>): Promise<unknown> {
  try {
    const h = storeHandlers[what] ?? (await import('../store/events.js')).storeEventHandlers[what];
    if (!h) return undefined;
    return await h(env, args);
  } catch (err) {
    logDiagnostic('hook', `store ${what}: ${(err as Error).message}`, env);
    return undefined;
  }
}
