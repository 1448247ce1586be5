/**
 * What of a model request the host spent on omni's MCP server, read from the request body the
 * real CLI sent (the stand-in records every one): the `tools` entries named `mcp__omni__*`,
 * the lines naming them in the host's list of deferred tools, and the server's instructions
 * section in the prompt. Used by test/real-host/claude-mcp-tools.test.ts and bench/mcp-tools.mjs.
 */
import type { RecordedRequest } from './standin.js';

export interface OfferBytes {
  /** `tools` entries whose name starts with mcp__omni__, as JSON. */
  tools: number;
  /** Lines `mcp__omni__<tool>` (the deferred-tool list), newline included. */
  names: number;
  /** The "# MCP Server Instructions" section holding omni's instructions (its separator included). */
  instructions: number;
  total: number;
}

const PREFIX = 'mcp__omni__';
const HEADER = '# MCP Server Instructions';

/** Every text the host wrote into the request: system blocks and non-tool-result text blocks. */
function hostTexts(body: any): string[] {
  const out: string[] = [];
  const add = (c: unknown) => {
    if (typeof c === 'string') out.push(c);
    else if (Array.isArray(c)) for (const b of c) if (b?.type === 'text' && typeof b.text === 'string') out.push(b.text);
  };
  add(body?.system);
  for (const m of Array.isArray(body?.messages) ? body.messages : []) add(m?.content);
  return out;
}

/** `instructions`: the server's instructions text, to find its section. */
export function offerBytes(body: any, instructions: string): OfferBytes {
  const tools = (Array.isArray(body?.tools) ? body.tools : [])
    .filter((t: any) => typeof t?.name === 'string' && t.name.startsWith(PREFIX))
    .reduce((n: number, t: any) => n + Buffer.byteLength(JSON.stringify(t)), 0);
  let names = 0;
  let instr = 0;
  for (const text of hostTexts(body)) {
    for (const line of text.split('\n')) if (new RegExp(`^${PREFIX}\\w+$`).test(line)) names += Buffer.byteLength(line) + 1;
    const h = text.indexOf(HEADER);
    const i = text.indexOf(instructions);
    if (h >= 0 && i > h) {
      const section = text.slice(h, i + instructions.length);
      // Only omni's: another server's instructions would share the header.
      if ((section.match(/^## /gm) ?? []).length === 1) instr += Buffer.byteLength(section) + 2;
    }
  }
  return { tools, names, instructions: instr, total: tools + names + instr };
}

/** The main loop's model requests (those offering Bash): what every turn of the session carries. */
export function mainRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => /\/v1\/messages(\?|$)/.test(r.url) && Array.isArray(r.body?.tools) && r.body.tools.some((t: any) => t?.name === 'Bash'));
}
