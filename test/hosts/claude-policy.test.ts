/**
 * Claude Code's rewrite policy reads the host's shell snapshots: Claude Code runs every Bash
 * command after `$CLAUDE_CONFIG_DIR/shell-snapshots/*` (the user's functions and aliases), which
 * a rewritten command's fresh bash would not, so a program a snapshot defines is not rewritten.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeRewritePolicy, claudeSnapshotFiles } from '../../lib/hosts/claude/policy.js';
import type { PreToolInput } from '../../lib/hosts/adapter.js';

const input: PreToolInput = { host: 'claude', event: 'PreToolUse', sessionId: 's', agentId: 'main', kind: 'pre-tool', tool: 'shell', command: 'npm test' };

t.test("a program the host's shell snapshot defines is never rewritten; without it the bypass mode rewrites", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'omni-claude-policy-'));
  const config = join(dir, 'claude');
  mkdirSync(join(dir, 'home'), { recursive: true });
  const env: NodeJS.ProcessEnv = { HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: config, OMNI_IGNORE_HOST_ARGS: '1' };
  const payload = { permission_mode: 'bypassPermissions' };
  const before = claudeRewritePolicy(payload, input, env, 'omni exec --bash npm test');
  t.equal(before.rewrite, true, before.reason);
  const snap = join(config, 'shell-snapshots', 'snapshot-bash-1.sh');
  mkdirSync(join(config, 'shell-snapshots'), { recursive: true });
  writeFileSync(snap, 'npm () {\n  command npm --no-fund "$@"\n}\n');
  t.same(claudeSnapshotFiles(env), [snap]);
  const after = claudeRewritePolicy(payload, input, env, 'omni exec --bash npm test');
  t.same(after, { rewrite: false, reason: `npm may be a function or alias of the host's shell (${snap})` });
});
