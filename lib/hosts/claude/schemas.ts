/**
 * Zod schemas for Claude Code hook payloads and replies: one per event and per tool.
 *
 * Source of truth for the shapes. Unknown keys are tolerated (`looseObject`), optional fields
 * come and go between versions. NOT imported on the hook hot path (zod costs ~100 ms per
 * process start): the hand-written guards in ./adapter.ts are tested against these.
 */
import { z } from 'zod';

const str = z.string();
const optStr = z.string().optional();

export const BasePayload = z.looseObject({
  session_id: str,
  hook_event_name: str,
  transcript_path: optStr,
  cwd: optStr,
  permission_mode: optStr,
  agent_id: optStr,
  agent_type: optStr,
  // prompt_id, effort, model, …: present on some events only; omni does not read them.
});

export const BashInput = z.looseObject({
  command: str,
  description: optStr,
  timeout: z.number().optional(),
  run_in_background: z.boolean().optional(),
});

export const ReadInput = z.looseObject({
  file_path: str,
  offset: z.number().optional(),
  limit: z.number().optional(),
});

/** `BashOutput` in the CLI's sdk-tools.d.ts (required triple + the optional keys omni reads). */
export const BashOutput = z.looseObject({
  stdout: str,
  stderr: str,
  interrupted: z.boolean(),
  isImage: z.boolean().optional(),
  noOutputExpected: z.boolean().optional(),
  persistedOutputPath: optStr,
  persistedOutputSize: z.number().optional(),
  backgroundTaskId: optStr,
  returnCodeInterpretation: optStr,
});

export const ReadTextOutput = z.looseObject({
  type: z.literal('text'),
  file: z.looseObject({
    filePath: str,
    content: str,
    numLines: z.number(),
    startLine: z.number().int(),
    totalLines: z.number(),
    truncatedByTokenCap: z.boolean().optional(),
  }),
});

/** Read's other result kinds: omni leaves them alone. */
export const ReadOtherOutput = z.looseObject({
  type: z.enum(['image', 'notebook', 'pdf', 'parts', 'file_unchanged']),
});
export const ReadOutput = z.union([ReadTextOutput, ReadOtherOutput]);

/**
 * An MCP tool's `tool_response` as omni reads it: the host's content blocks (2.1.332; a string
 * stands for structuredContent's JSON or the host's own over-the-cap notice, and is left alone).
 */
export const McpBlock = z.looseObject({ type: str }).refine((b) => b.type !== 'text' || typeof (b as { text?: unknown }).text === 'string', 'a text block has a string text');
export const McpBlocks = z.array(McpBlock).min(1);

const toolEvent = <E extends string>(event: E) =>
  BasePayload.extend({
    hook_event_name: z.literal(event),
    tool_name: str,
    tool_input: z.looseObject({}),
    tool_use_id: optStr,
  });

export const PreToolUse = toolEvent('PreToolUse');
export const PreToolUseBash = PreToolUse.extend({ tool_name: z.literal('Bash'), tool_input: BashInput });
export const PreToolUseRead = PreToolUse.extend({ tool_name: z.literal('Read'), tool_input: ReadInput });

export const PostToolUse = toolEvent('PostToolUse').extend({ tool_response: z.unknown() });
export const PostToolUseBash = PostToolUse.extend({ tool_name: z.literal('Bash'), tool_input: BashInput, tool_response: BashOutput });
export const PostToolUseRead = PostToolUse.extend({ tool_name: z.literal('Read'), tool_input: ReadInput, tool_response: ReadOutput });
export const PostToolUseReadText = PostToolUseRead.extend({ tool_response: ReadTextOutput });

export const PostToolUseFailure = toolEvent('PostToolUseFailure').extend({
  error: str,
  is_interrupt: z.boolean().optional(),
});
export const PostToolUseFailureBash = PostToolUseFailure.extend({ tool_name: z.literal('Bash'), tool_input: BashInput });

export const SessionStart = BasePayload.extend({ hook_event_name: z.literal('SessionStart'), source: str });
export const SessionEnd = BasePayload.extend({ hook_event_name: z.literal('SessionEnd'), reason: str });
export const PreCompact = BasePayload.extend({
  hook_event_name: z.literal('PreCompact'),
  trigger: str,
  custom_instructions: z.string().nullable().optional(),
});

export const EVENT_SCHEMAS = {
  PreToolUse,
  PostToolUse,
  PostToolUseFailure,
  SessionStart,
  SessionEnd,
  PreCompact,
} as const;

// --- replies -------------------------------------------------------------------------------

export const PostToolUseBashReply = z.strictObject({
  hookSpecificOutput: z.strictObject({ hookEventName: z.literal('PostToolUse'), updatedToolOutput: BashOutput }),
});
export const PostToolUseReadReply = z.strictObject({
  hookSpecificOutput: z.strictObject({ hookEventName: z.literal('PostToolUse'), updatedToolOutput: ReadTextOutput }),
});
export const PostToolUseMcpReply = z.strictObject({
  hookSpecificOutput: z.strictObject({ hookEventName: z.literal('PostToolUse'), updatedToolOutput: McpBlocks }),
});
export const PreToolUseReply = z.strictObject({
  hookSpecificOutput: z.strictObject({
    hookEventName: z.literal('PreToolUse'),
    updatedInput: BashInput,
    permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
    permissionDecisionReason: optStr,
  }),
});
export const PreToolUseDenyReply = z.strictObject({
  hookSpecificOutput: z.strictObject({
    hookEventName: z.literal('PreToolUse'),
    permissionDecision: z.literal('deny'),
    permissionDecisionReason: str,
  }),
});
export const AdditionalContextReply = z.strictObject({
  hookSpecificOutput: z.strictObject({
    hookEventName: z.enum(['PostToolUseFailure', 'SessionStart']),
    additionalContext: str,
  }),
});
