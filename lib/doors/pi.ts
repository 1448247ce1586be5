/**
 * Pi's door: the omni extension (npm @mariozechner/pi-coding-agent, checked with 0.73.1).
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
 * Pi's shapes are read in lib/hosts/pi/adapter.ts; session events go through ./session-events.ts, as
 * the hook door's do.
 *
 * Every handler fails open: an exception leaves Pi's result as it was (Pi itself also catches
 * a throwing handler, but would report it as an extension error).
 */
import type { ExtensionAPI, ExtensionContext, ToolResultEvent } from '../hosts/pi/api.js';
import type { LazyStore } from './store-access.js';
import type { Store } from '../store/open.js';
import { maskAllRequested, passthroughRequested } from '../command/passthrough.js';
import { readRegularFileAsync } from '../hosts/read-text.js';
import { bashPatch, piView, readBashSuccess, sourceOf, withSessionMemory, type ToolResultEventResult } from '../hosts/pi/adapter.js';

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
    this.store ??= import('./store-access.js').then(({ LazyStore }) => {
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
    void import('../store/diagnostics.js').then(({ logDiagnostic }) => logDiagnostic('pi', what, this.env())).catch(() => undefined);
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
      const [store, { maskSecrets }, { describeRun }, { RunBook }, { distilText, recordDistilled }] = await Promise.all([
        this.lazy(), import('../pipeline/redact.js'), import('../pipeline/describe.js'), import('./run-record.js'), import('./distil-text.js'),
      ]);
      const desc = describeRun({
        door: 'hook', host: 'pi', command: r.command, tool: 'bash', sessionId, agentId: 'main', cwd: ctx.cwd, maskAll: maskAllRequested(env),
        // Rules of one's own are read from the omni home the host's env names, not this process's.
        rules: env.OMNI_HOME ? { home: env.OMNI_HOME } : undefined,
      });
      const book = new RunBook(desc, store);
      const d = await distilText(desc, text, book, env, this.log);
      // Where omni's digest of a cut output is not sent (Pi's own cut is shorter), Pi's text
      // still goes out with its secrets masked.
      const masked = d.changed && r.fullOutputPath ? maskSecrets(r.text) : r.text;
      const patch = bashPatch(r, d) ?? (masked !== r.text ? { content: [{ type: 'text' as const, text: masked }] } : undefined);
      recordDistilled(book, d, { applied: patch !== undefined, view: piView(r, patch !== undefined) });
      await this.remember((ev, s) => ev.commandSucceeded(() => s, { cwd: ctx.cwd, command: r.command }));
      return patch;
    } catch (err) {
      this.log(err);
      return undefined;
    }
  }

  /** Session memory on the session's store, after the run is recorded: its faults cost the memory only. */
  private async remember(fn: (ev: typeof import('./session-events.js'), store: Store) => void): Promise<void> {
    try {
      const s = (await this.lazy()).get();
      if (s) fn(await import('./session-events.js'), s);
    } catch (err) {
      this.log(`session memory: ${(err as Error).message}`);
    }
  }

  /** A failing command: the project's last error, for the next session's context. */
  private async failed(event: ToolResultEvent, ctx: ExtensionContext): Promise<void> {
    try {
      const command = (event.input as { command?: unknown }).command;
      const text = event.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      // Esc in Pi aborts the command: an interrupt, not an error (and no reason to open the store).
      if (typeof command !== 'string' || /\n*Command aborted$/.test(text)) return;
      const store = await this.lazy();
      const { commandFailed } = await import('./session-events.js');
      commandFailed(() => store.get(), { cwd: ctx.cwd, command, error: text.slice(0, 2000) });
    } catch (err) {
      this.log(err);
    }
  }

  async beforeAgentStart(systemPrompt: string, ctx: ExtensionContext): Promise<string | undefined> {
    try {
      if (this.memory === undefined) {
        // Computed once: the same block every prompt keeps the provider's prompt cache warm.
        this.memory = null;
        const store = await this.lazy();
        if (store.get()) {
          const { sessionStarted } = await import('./session-events.js');
          const sessionId = sessionIdOf(ctx);
          this.memory = sessionStarted(() => store.get(), { sessionId, main: true, cwd: ctx.cwd, source: this.source });
          this.sessionRecorded = sessionId !== undefined;
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
      const store = await this.store;
      const { contextReset } = await import('./session-events.js');
      contextReset(() => store.get(), sessionId);
    } catch (err) {
      this.log(err);
    }
  }

  async shutdown(reason: string, ctx: ExtensionContext): Promise<void> {
    try {
      const sessionId = sessionIdOf(ctx);
      const opened = this.opened;
      if (opened && sessionId && this.sessionRecorded) {
        const { sessionEnded } = await import('./session-events.js');
        sessionEnded(() => opened, { sessionId, main: true, cwd: ctx.cwd, reason });
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

/** Only a regular file under the cap: a FIFO or a device there would hang or flood Pi itself. */
async function readFullOutput(path: string): Promise<string | null> {
  try {
    return await readRegularFileAsync(path);
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
