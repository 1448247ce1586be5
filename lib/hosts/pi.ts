/**
 * The Pi extension (npm @mariozechner/pi-coding-agent, checked with 0.73.1).
 *
 * Pi has no hook files: it loads TypeScript or JavaScript modules in its own process and hands
 * them its event bus. So omni runs in-process here: no child process per tool call, and one
 * SQLite connection for the whole session, opened only when a run first needs the archive or
 * the ledger.
 *
 * - `tool_result` for the built-in `bash` tool: a result Pi reports as a success
 *   (`isError: false`, i.e. the shell exited 0) goes through the one pipeline and its text is
 *   replaced when the distilled text differs. A failure (`isError: true`: non-zero exit, timeout,
 *   abort) is never touched, nor is any result whose shape is not the one Pi's bash tool writes.
 * - `before_agent_start`: omni's session memory (goal, facts, last failure, hot files) is
 *   appended to the system prompt, the same block on every prompt of the session.
 * - `session_compact` / `session_tree`: the model's context changed; the ledger forgets what
 *   this session was shown.
 * - `session_shutdown`: the session row ends, the store closes.
 *
 * Every handler fails open: an exception leaves Pi's result as it was (Pi itself also catches
 * a throwing handler, but would report it as an extension error).
 */
import type { ExtensionAPI, ExtensionContext, ToolResultEvent } from '@mariozechner/pi-coding-agent';
import type { PipelineContext } from '../pipeline/types.js';
import type { LazyStore } from '../doors/store-access.js';
import type { Store } from '../store/open.js';
import { isOmniOwnCommand } from './omni-command.js';
import { passthroughRequested } from '../pipeline/passthrough.js';
import { distilText, MAX_FULL_OUTPUT_BYTES } from '../doors/distil-text.js';
import { piSilentCut, WHOLE } from '../doors/model-view.js';

// ---------------------------------------------------------------------------------------------
// Pure helpers: what Pi handed over, and what goes back.

/** Pi's `tool_result` patch (its `ToolResultEventResult`, not exported by the package). */
export interface ToolResultEventResult {
  content?: ToolResultEvent['content'];
  details?: unknown;
  isError?: boolean;
}

/** What the bash tool writes when a command printed nothing (bash.js `formatOutput`). */
export const PI_NO_OUTPUT = '(no output)';

/** A successful bash result omni may distil. */
export interface PiBashSuccess {
  command: string;
  /** The text the model would see. */
  text: string;
  /**
   * Pi cut the output to its tail and saved the whole of it here: distil the file instead, and
   * replace only when the digest is no larger than what Pi would have sent.
   */
  fullOutputPath?: string;
}

/** Why a tool result is left alone; `null` from `readBashSuccess` always comes with one. */
export type Skip = 'not-bash' | 'failed' | 'shape' | 'empty' | 'omni-own' | 'passthrough';

/**
 * The successful bash result in `event`, or why there is none. Only Pi's own bash result shape
 * qualifies: exactly one text block, `isError === false`. Anything else (an error, an image, an
 * extension's reshaped result) is a status omni cannot read, so it is left alone.
 */
export function readBashSuccess(event: Pick<ToolResultEvent, 'toolName' | 'input' | 'content' | 'isError' | 'details'>): PiBashSuccess | Skip {
  if (event.toolName !== 'bash') return 'not-bash';
  if (event.isError !== false) return 'failed';
  const command = (event.input as { command?: unknown } | undefined)?.command;
  if (typeof command !== 'string') return 'shape';
  const content = event.content;
  if (!Array.isArray(content) || content.length !== 1) return 'shape';
  const block = content[0] as { type?: unknown; text?: unknown };
  if (block?.type !== 'text' || typeof block.text !== 'string') return 'shape';
  if (block.text === '' || block.text === PI_NO_OUTPUT) return 'empty';
  if (isOmniOwnCommand(command)) return 'omni-own';
  if (passthroughRequested(command)) return 'passthrough';
  const details = event.details as { truncation?: { truncated?: unknown }; fullOutputPath?: unknown } | undefined;
  if (details?.truncation?.truncated === true) {
    // A cut result without its file: only the tail is known, and a digest of a tail would
    // drop Pi's "Full output:" pointer. Leave it.
    if (typeof details.fullOutputPath !== 'string' || details.fullOutputPath === '') return 'shape';
    return { command, text: block.text, fullOutputPath: details.fullOutputPath };
  }
  return { command, text: block.text };
}

/**
 * The patch for Pi's `tool_result` chain, or undefined (no change) when the distilled text is
 * the same or, for a cut result, larger than what Pi would have sent.
 */
export function bashPatch(r: PiBashSuccess, distilled: { output: string; changed: boolean }): ToolResultEventResult | undefined {
  if (!distilled.changed || distilled.output === r.text) return undefined;
  if (r.fullOutputPath && Buffer.byteLength(distilled.output, 'utf8') >= Buffer.byteLength(r.text, 'utf8')) return undefined;
  return { content: [{ type: 'text', text: distilled.output }] };
}

/** The system prompt with omni's session memory block appended (unchanged when there is none). */
export function withSessionMemory(systemPrompt: string, memory: string | null): string | undefined {
  if (!memory) return undefined;
  return `${systemPrompt}\n\n${memory}`;
}

/** Pi's session-start reasons in the store's `source` vocabulary (Claude Code's). */
export function sourceOf(reason: string | undefined): string {
  return reason === 'resume' || reason === 'fork' ? 'resume' : 'startup';
}

// ---------------------------------------------------------------------------------------------
// The session: one lazily opened store, the one pipeline, session memory.

export interface PiExtensionOptions {
  /** Read on every call, so OMNI_HOME / OMNI_PASSTHROUGH set after load still count. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

type Log = (what: unknown) => void;

/**
 * One Pi session's omni state. Pi builds a fresh extension runtime per session (new, resume,
 * fork, reload all emit session_shutdown first), so this lives exactly as long as the session.
 */
export class PiSession {
  private store: Promise<LazyStore> | null = null;
  /** The store handle the LazyStore opened, to close it for real at shutdown. */
  private opened: Store | null = null;
  private memory: string | null | undefined;
  private source = 'startup';
  private sessionRecorded = false;

  constructor(private readonly env: () => NodeJS.ProcessEnv) {}

  private lazy(): Promise<LazyStore> {
    // One promise, so parallel tool results (Pi runs sibling tool calls concurrently) share one store.
    this.store ??= import('../doors/store-access.js').then(({ LazyStore }) => {
      const self = this;
      // Kept open for the session: a long-lived host pays the SQLite open once, not per call.
      return new (class extends LazyStore {
        override get() {
          const s = super.get();
          if (s) self.opened = s;
          return s;
        }
        override close() {}
      })(this.env().OMNI_HOME || undefined);
    });
    return this.store;
  }

  private log: Log = (what) => {
    void import('../doors/diagnostics.js').then(({ logDiagnostic }) => logDiagnostic('pi', what, this.env())).catch(() => undefined);
  };

  started(reason: string | undefined): void {
    this.source = sourceOf(reason);
  }

  async toolResult(event: ToolResultEvent, ctx: ExtensionContext): Promise<ToolResultEventResult | undefined> {
    try {
      const env = this.env();
      if (passthroughRequested(null, env)) return undefined;
      const r = readBashSuccess(event);
      if (typeof r === 'string') {
        if (r === 'failed' && event.isError === true) await this.failed(event, ctx);
        return undefined;
      }
      let text = r.text;
      if (r.fullOutputPath) {
        const full = await readFullOutput(r.fullOutputPath);
        if (full === null) return undefined;
        text = full;
      }
      const sessionId = sessionIdOf(ctx);
      const pctx: PipelineContext = { door: 'hook', host: 'pi', command: r.command, tool: 'bash', sessionId, agentId: 'main', cwd: ctx.cwd, exitCode: 0 };
      const store = await this.lazy();
      return await distilText(pctx, text, env, store, (s, m) => m.recordSuccess(s, { cwd: ctx.cwd, command: r.command }), this.log, (res) => {
        const patch = bashPatch(r, res);
        // A patch reaches the model as it is; without one the model gets Pi's own result: whole,
        // or for a cut one Pi's tail, whose first line may be partial.
        return { reply: patch, applied: patch !== undefined, view: patch || !r.fullOutputPath ? WHOLE : piSilentCut(r.text) };
      });
    } catch (err) {
      this.log(err);
      return undefined;
    }
  }

  /** A failing command: the project's last error, for the next session's context. */
  private async failed(event: ToolResultEvent, ctx: ExtensionContext): Promise<void> {
    try {
      const command = (event.input as { command?: unknown }).command;
      const text = event.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      // Esc in Pi aborts the command: an interrupt, not an error.
      if (typeof command !== 'string' || /\n*Command aborted$/.test(text)) return;
      const s = (await this.lazy()).get();
      if (!s) return;
      const { recordFailure } = await import('../store/memory.js');
      recordFailure(s, { cwd: ctx.cwd, command, error: text.slice(0, 2000) });
    } catch (err) {
      this.log(err);
    }
  }

  async beforeAgentStart(systemPrompt: string, ctx: ExtensionContext): Promise<string | undefined> {
    try {
      if (this.memory === undefined) {
        // Computed once: the same block every prompt keeps the provider's prompt cache warm.
        this.memory = null;
        const s = (await this.lazy()).get();
        if (s) {
          const m = await import('../store/memory.js');
          const sessionId = sessionIdOf(ctx);
          if (sessionId) {
            m.recordSessionStart(s, { sessionId, cwd: ctx.cwd, source: this.source });
            this.sessionRecorded = true;
          }
          this.memory = m.sessionStartContext(s, { cwd: ctx.cwd, source: this.source });
        }
      }
      return withSessionMemory(systemPrompt, this.memory);
    } catch (err) {
      this.log(err);
      return undefined;
    }
  }

  /** The model's context was compacted or moved to another branch: nothing counts as shown. */
  async forget(ctx: ExtensionContext): Promise<void> {
    try {
      const sessionId = sessionIdOf(ctx);
      if (!sessionId || !this.store) return;
      const s = (await this.store).get();
      if (!s) return;
      const { forgetSession } = await import('../store/ledger.js');
      forgetSession(s, sessionId);
    } catch (err) {
      this.log(err);
    }
  }

  async shutdown(reason: string, ctx: ExtensionContext): Promise<void> {
    try {
      const sessionId = sessionIdOf(ctx);
      if (this.opened && sessionId && this.sessionRecorded) {
        const { recordSessionEnd } = await import('../store/memory.js');
        const { prune, PRUNE_HOOK_BUDGET_MS } = await import('../store/prune.js');
        recordSessionEnd(this.opened, { sessionId, cwd: ctx.cwd, reason });
        prune(this.opened, { budgetMs: PRUNE_HOOK_BUDGET_MS });
      }
    } catch (err) {
      this.log(err);
    } finally {
      try {
        this.opened?.close();
      } catch {
        /* closing is best effort */
      }
      this.opened = null;
      this.store = null;
    }
  }
}

function sessionIdOf(ctx: ExtensionContext): string | undefined {
  try {
    const id = ctx.sessionManager.getSessionId();
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

async function readFullOutput(path: string): Promise<string | null> {
  const { stat, readFile } = await import('node:fs/promises');
  try {
    if ((await stat(path)).size > MAX_FULL_OUTPUT_BYTES) return null;
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The extension factory Pi calls.

export function createOmniExtension(opts: PiExtensionOptions = {}): (pi: ExtensionAPI) => void {
  const env = () => opts.env ?? process.env;
  return (pi) => {
    const session = new PiSession(env);
    pi.on('session_start', (event) => session.started(event.reason));
    pi.on('tool_result', (event, ctx) => session.toolResult(event, ctx));
    pi.on('before_agent_start', async (event, ctx) => {
      const systemPrompt = await session.beforeAgentStart(event.systemPrompt, ctx);
      return systemPrompt === undefined ? undefined : { systemPrompt };
    });
    pi.on('session_compact', (_event, ctx) => session.forget(ctx));
    pi.on('session_tree', (_event, ctx) => session.forget(ctx));
    pi.on('session_shutdown', (event, ctx) => session.shutdown(event.reason, ctx));
  };
}

export default createOmniExtension();
