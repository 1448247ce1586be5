/**
 * Cursor: recognised only so omni can stand aside. Cursor cannot replace shell output
 * (its hooks can observe a command but not change what the agent gets), and it also runs Claude Code's hooks from ~/.claude/settings.json, so
 * omni's Claude Code entry would run a second time for every Cursor tool call. Cursor users get
 * omni through its MCP tool `omni_run` (tier "handoff", installed by ./install.ts).
 */
import type { HostAdapter } from '../adapter.js';
import { NOTHING } from '../model-view.js';

export const cursor: HostAdapter = {
  id: 'cursor',
  recognise: (p, env) => 'cursor_version' in p || !!env.CURSOR_VERSION,
  kindOf: () => null,
  read: () => null,
  replyOutput: () => '',
  viewOf: () => NOTHING,
};
