import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Claude Code payloads captured with the real CLI (copied from the team's shared samples so a
 * clone with nothing beside it runs every test). Nothing under test/ reads outside the repo.
 */
export const CLAUDE_SAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'claude-code');
