/**
 * Every host whose own session logs `omni discover` replays, in the order its report lists
 * them (cold path: never loaded by a hook). Adding a host's logs: its `<host>/log.ts` (a
 * `HostLog`, ./session-log.ts) and one line here.
 */
import type { HostLog } from './session-log.js';
import { claudeLog } from './claude/log.js';
import { codexLog } from './codex/log.js';
import { geminiLog } from './gemini/log.js';

export const HOST_LOGS: readonly HostLog[] = [claudeLog, codexLog, geminiLog];
