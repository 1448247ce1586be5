/**
 * The part of Pi's extension API omni uses, as types only (npm @mariozechner/pi-coding-agent
 * 0.73.1, dist/core/extensions/types.d.ts and pi-ai's content types), copied here so omni
 * type-checks without installing Pi: Pi is a ~25 MB host CLI with its own dependency tree, and
 * omni imports nothing of it at run time (Pi hands the extension its API). Each shape keeps only
 * the fields omni reads or writes; Pi's real ones have more.
 *
 * test/real-host/pi-api.test.ts type-checks these against the pinned Pi's own declarations:
 * what Pi hands over must fit these types, and what omni hands back must fit Pi's.
 */

export interface TextContent {
  type: 'text';
  text: string;
  textSignature?: string;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}

/** Fired after a tool ran; a handler may patch the result. Pi's is a union by tool name, each with its own details. */
export interface ToolResultEvent {
  type: 'tool_result';
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  content: (TextContent | ImageContent)[];
  isError: boolean;
  details: unknown;
}

/** The patch a `tool_result` handler returns. */
export interface ToolResultEventResult {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
}

export interface SessionStartEvent {
  type: 'session_start';
  reason: 'startup' | 'reload' | 'new' | 'resume' | 'fork';
  previousSessionFile?: string;
}

export interface SessionShutdownEvent {
  type: 'session_shutdown';
  reason: 'quit' | 'reload' | 'new' | 'resume' | 'fork';
  targetSessionFile?: string;
}

export interface SessionCompactEvent {
  type: 'session_compact';
  fromExtension: boolean;
}

export interface SessionTreeEvent {
  type: 'session_tree';
  newLeafId: string | null;
  oldLeafId: string | null;
  fromExtension?: boolean;
}

export interface BeforeAgentStartEvent {
  type: 'before_agent_start';
  prompt: string;
  systemPrompt: string;
}

export interface BeforeAgentStartEventResult {
  /** Replaces the system prompt for this turn. */
  systemPrompt?: string;
}

/** What every handler gets beside its event. */
export interface ExtensionContext {
  cwd: string;
  sessionManager: { getSessionId(): string };
}

export type ExtensionHandler<E, R = undefined> = (event: E, ctx: ExtensionContext) => Promise<R | void> | R | void;

/** The API an extension factory is called with: the events omni subscribes to. */
export interface ExtensionAPI {
  on(event: 'session_start', handler: ExtensionHandler<SessionStartEvent>): void;
  on(event: 'session_compact', handler: ExtensionHandler<SessionCompactEvent>): void;
  on(event: 'session_shutdown', handler: ExtensionHandler<SessionShutdownEvent>): void;
  on(event: 'session_tree', handler: ExtensionHandler<SessionTreeEvent>): void;
  on(event: 'before_agent_start', handler: ExtensionHandler<BeforeAgentStartEvent, BeforeAgentStartEventResult>): void;
  on(event: 'tool_result', handler: ExtensionHandler<ToolResultEvent, ToolResultEventResult>): void;
}
