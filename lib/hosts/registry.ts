/**
 * Which host a hook payload came from. The first adapter whose `recognise` holds wins, so the
 * order matters: hosts that copy Claude Code's dialect (Codex) and hosts that also run Claude
 * Code's hooks (Cursor) come before it; Claude Code is the fallback.
 * Adding a host: its module (./adapter.ts says what it exports) and one line here.
 */
import type { HostAdapter, JsonObject } from './adapter.js';
import { claude } from './claude/adapter.js';
import { codex } from './codex/adapter.js';
import { cursor } from './cursor/adapter.js';
import { gemini } from './gemini/adapter.js';

export const HOSTS: readonly HostAdapter[] = [
  gemini,
  codex,
  cursor,
  claude,
];

export function hostFor(payload: JsonObject, env: NodeJS.ProcessEnv): HostAdapter | null {
  return HOSTS.find((h) => h.recognise(payload, env)) ?? null;
}
