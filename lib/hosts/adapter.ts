/**
 * The host adapter contract. Every host omni sits in (Claude Code, Codex CLI, Gemini CLI,
 * Cursor…) speaks its own hook dialect; the hook door (lib/doors/hook.ts) speaks only the
 * neutral shape below and dispatches through the adapter table in ./registry.ts.
 *
 * One folder per host, `lib/hosts/<host>/`, in halves, so a hook call never loads installer code:
 * - `<host>/adapter.ts` exports a `HostAdapter` (hot path: no zod, no fs writes);
 * - `<host>/install.ts` exports a `HostInstaller` (init/doctor only), listed in
 *   ./installers.ts.
 */

import type { ModelView } from './model-view.js';

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `pi` has an installer only: omni runs inside Pi as an extension, not behind hook payloads. */
export type HostId = 'claude' | 'codex' | 'gemini' | 'cursor' | 'pi';

/**
 * What the user gets from a host, shown by `omni doctor`:
 * - full: the host applies omni's reply (output replaced or command rewritten into `omni exec`);
 * - handoff: the host cannot replace shell output; the agent is told to run noisy commands
 *   through omni's MCP tool `omni_run`;
 * - memory: session memory and `omni_retrieve` only.
 */
export type Tier = 'full' | 'handoff' | 'memory';

/** The hook entry omni was invoked through (`omni --post-hook` …). */
export type HookKind = 'pre-tool' | 'post-tool' | 'post-tool-failure' | 'session-start' | 'session-end' | 'pre-compact';

interface Common {
  host: HostId;
  /** The host's own event name, as sent (`PostToolUse`, `AfterTool`, …). */
  event: string;
  sessionId: string;
  /** Reader scope inside a session: subagents share the parent's session id. `main` otherwise. */
  agentId: string;
  cwd?: string;
}

/** One hook payload, read into omni's neutral shape. */
export type HookInput =
  | (Common & { kind: 'pre-tool'; tool: 'shell'; command: string; background?: boolean })
  | (Common & {
      kind: 'post-tool';
      tool: 'shell';
      command: string;
      /** The command's output as the model would see it, without the host's own framing. */
      output: string;
      /** When the payload holds only a prefix, the file with the whole output. */
      outputFile?: string;
      /**
       * true: the command failed (its output must reach the model verbatim). null: the payload
       * cannot tell; omni then treats it as a failure and leaves it alone.
       */
      failed: boolean | null;
      /** The exit code, when the host says it (a failure is remembered with it). */
      exitCode?: number;
    })
  | (Common & {
      kind: 'post-tool';
      tool: 'read';
      path: string;
      /** The lines read, as the host numbers them from `startLine`. */
      content: string;
      startLine: number;
      /** The file's line count as the host counts it (its `totalLines`). */
      totalLines: number;
    })
  | (Common & {
      kind: 'post-tool';
      tool: 'write';
      /** The file the model's own call changed. */
      path: string;
      /** The file before the call, as the host read it (null: the call created it). */
      before: string | null;
      /** The file as the call's own arguments make it from `before`: what the model wrote. */
      after: string;
      /** An edit of some of its lines, or the whole file written. */
      via: 'edit' | 'write';
    })
  | (Common & {
      kind: 'post-tool';
      tool: 'mcp';
      /** The host's name for the tool (`mcp__<server>__<tool>` in Claude Code). */
      name: string;
      /**
       * The text of each text part of the result, in order. Every other part (images, resources,
       * anything the host adds) stays with the host's payload and goes back untouched.
       */
      texts: string[];
    })
  | (Common & { kind: 'post-tool-failure'; tool: 'shell'; command: string; error: string; interrupted: boolean })
  | (Common & { kind: 'session-start'; source: string })
  | (Common & { kind: 'session-end'; reason: string })
  | (Common & { kind: 'pre-compact'; trigger: string });

export type PreToolInput = Extract<HookInput, { kind: 'pre-tool' }>;
export type PostToolInput = Extract<HookInput, { kind: 'post-tool' }>;
export type PostShellInput = Extract<HookInput, { kind: 'post-tool'; tool: 'shell' }>;
export type PostReadInput = Extract<HookInput, { kind: 'post-tool'; tool: 'read' }>;
export type PostMcpInput = Extract<HookInput, { kind: 'post-tool'; tool: 'mcp' }>;
export type PostWriteInput = Extract<HookInput, { kind: 'post-tool'; tool: 'write' }>;

/** The pre-tool decision: rewrite into `omni exec`, and whether the reply approves the call. */
export type RewriteDecision =
  | { rewrite: true; decision: 'allow' | null; reason: string }
  | { rewrite: false; reason: string };

export interface HostAdapter {
  id: HostId;
  /** Cheap key checks: did this payload come from this host? Tried in registry order. */
  recognise(payload: JsonObject, env: NodeJS.ProcessEnv): boolean;
  /** The payload in neutral shape, or null when omni has nothing to do with it (other tool, invalid). */
  read(payload: JsonObject): HookInput | null;
  /** Which neutral kind each of the host's event names maps to (for `--post-hook` etc.). */
  kindOf(event: string): HookKind | null;
  /**
   * Replies in the host's own shape; '' = no reply (the host keeps what it had).
   * `output`: the distilled text that replaces a successful shell output.
   */
  replyOutput(payload: JsonObject, input: PostShellInput, output: string): string;
  /**
   * What of a shell result reached the model (the ledger records only that, ./model-view.ts):
   * with a reply (`reply` non-empty, `sent` the text omni put in it), what the host shows of the
   * reply; without one, the host's own view of the original (`full`: the whole output omni read).
   */
  viewOf(payload: JsonObject, input: PostShellInput, d: { reply: string; sent: string; full: string }): ModelView;
  /**
   * The host applies a replaced output only as an error result (Gemini CLI 0.61: a deny
   * reason). A model told that a success failed may retry or go looking for the failure, so
   * such replies are off unless the user opts in with OMNI_REPLACE_AS_ERROR=1.
   */
  replacesAsError?: boolean;
  /** Read results (Claude Code only); absent = never rewritten. */
  replyRead?(payload: JsonObject, input: PostReadInput, content: string): string;
  /**
   * A Read answered from what the reader already holds (lib/reread/plan.ts): `content` as the
   * host numbers it from `startLine`, sent as it is. Absent = re-reads are never answered so.
   */
  replyReadAs?(payload: JsonObject, input: PostReadInput, content: string, startLine: number): string;
  /**
   * MCP tool results (Claude Code only): `texts` replaces the result's text parts one for one;
   * every other part goes back as the host sent it. Absent = never rewritten.
   */
  replyMcp?(payload: JsonObject, input: PostMcpInput, texts: string[]): string;
  /**
   * Pre-tool rewrite. Absent = this host is never rewritten. `policy` decides whether the host's
   * own approval rules allow a rewrite (a rewrite must never widen permissions).
   */
  rewrite?: {
    /** `rewritten`: the command omni would hand back, for rules the host would judge it by. */
    policy(payload: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv, rewritten: string): RewriteDecision | Promise<RewriteDecision>;
    reply(payload: JsonObject, input: PreToolInput, command: string, decision: 'allow' | null, reason: string): string;
    /** Refuse the call, with a short reason the model is shown (it can only narrow). */
    deny(payload: JsonObject, input: PreToolInput, reason: string): string;
  };
  /** Context for the model at session start (and after a failure, where the host allows it). */
  replyContext?(payload: JsonObject, input: HookInput, text: string): string;
}

// ---------------------------------------------------------------------------------------------
// Installers (cold path: init and doctor).

export interface Problem {
  status: 'warn' | 'fail';
  what: string;
  fix: string;
}

export interface HostStatus {
  id: HostId;
  name: string;
  /** The host's CLI or config directory was found. */
  detected: boolean;
  version?: string;
  /** omni is wired into this host (hooks, MCP entry or rule present). */
  wired: boolean;
  /** What the user gets once wired; `memory` when nothing stronger is possible. */
  tier: Tier;
  /** Files omni wrote or would write. */
  files: string[];
  problems: Problem[];
  /** One line: what this tier means for this host. */
  note: string;
  /** Optional detailed checks behind `problems` (name, status, detail), shown by `doctor --json`. */
  checks?: { name: string; status: 'ok' | 'warn' | 'fail'; detail: string }[];
}

export interface InstallOptions {
  scope: 'user' | 'project';
  /** Project directory for `project` scope (and for doctor's project checks). */
  cwd: string;
  /** Absolute path of omni's entry (`dist/omni.cjs`). */
  bin: string;
  nodePath?: string;
  /**
   * true: also the pre-tool rewrite into `omni exec` (`omni init --rewrite`). false (the
   * default): omni acts after the tool only, so the command the user approved is the one the
   * host runs, in the host's own shell.
   */
  preHook: boolean;
  /** Offer the model omni's MCP tools (omni_run, …) where the install registers omni's server. */
  mcpTools?: boolean;
  env: NodeJS.ProcessEnv;
}

export interface InstallResult {
  changed: boolean;
  files: string[];
  /** Lines for the user: what was written, and any step they must take (trust, restart). */
  notes: string[];
}

export interface HostInstaller {
  id: HostId;
  name: string;
  /** Is the host here (CLI on PATH or its config directory)? */
  detect(env: NodeJS.ProcessEnv): { detected: boolean; version?: string; where?: string };
  /** Idempotent; keeps every foreign entry; atomic writes with a backup. */
  install(opts: InstallOptions): InstallResult;
  /** Removes omni's entries only. */
  uninstall(opts: InstallOptions): InstallResult;
  /** For doctor: wiring, tier and problems with their fixes. Never throws. */
  status(opts: Omit<InstallOptions, 'bin' | 'preHook'> & { bin: string | null }): HostStatus | Promise<HostStatus>;
}
