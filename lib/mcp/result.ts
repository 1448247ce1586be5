/**
 * Tool results. MCP text content is a string, so bytes that are not valid UTF-8 cannot go
 * out as text without being altered: they travel base64 as an embedded resource instead,
 * so the exact bytes survive (omni never hands on a lossy copy of a failure or a receipt).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Content = CallToolResult['content'][number];

const strict = new TextDecoder('utf-8', { fatal: true });

/** The text of `bytes` when they are valid UTF-8, else null. */
export function utf8OrNull(bytes: Buffer): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** `bytes` as one content item: text when valid UTF-8, else a base64 blob (exact bytes). */
export function bytesContent(bytes: Buffer, uri: string): Content[] {
  const text = utf8OrNull(bytes);
  if (text !== null) return [{ type: 'text', text }];
  return [
    { type: 'resource', resource: { uri, mimeType: 'application/octet-stream', blob: bytes.toString('base64') } },
    { type: 'text', text: `[omni: the output is not valid UTF-8; its exact ${bytes.length} bytes are the base64 resource ${uri}]` },
  ];
}

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A tool error the caller can act on; never a thrown exception that ends the server. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
