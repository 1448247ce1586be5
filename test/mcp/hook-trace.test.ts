// bench/host-overhead.mjs splits a tool call's span in the real CLI into the host's part and
// omni's: with OMNI_HOOK_TRACE the server logs each tools/call's time from the request read to
// the answer written. Without it, nothing is logged per call.
import t from 'tap';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OMNI, ROOT, tempHome } from '../helpers/omni.js';
import { HOOK_TOOL, hookToolInput, renderTemplate } from '../../lib/hosts/claude/hook-tool.js';

const post = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'claude-code', 'PostToolUse.Bash.seq-1-300.json'), 'utf8')) as Record<string, unknown>;

async function calls(trace: boolean): Promise<string> {
  const home = tempHome();
  const env = { PATH: process.env.PATH ?? '', HOME: tempHome(), OMNI_HOME: home, ...(trace ? { OMNI_HOOK_TRACE: '1' } : {}) };
  const client = new Client({ name: 'omni-trace-test', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [OMNI, 'mcp', '--hook-tool'], env, cwd: realpathSync(tempHome()), stderr: 'pipe' }));
  for (let k = 0; k < 2; k++) {
    await client.callTool({ name: HOOK_TOOL, arguments: renderTemplate(hookToolInput('post-hook'), { ...post, tool_use_id: `toolu_trace_${k}` }) });
  }
  await client.close();
  const log = join(home, 'omni.log');
  return existsSync(log) ? readFileSync(log, 'utf8') : '';
}

t.test('OMNI_HOOK_TRACE: one line per tools/call with its time in the server', async (t) => {
  const lines = (await calls(true)).split('\n').filter((l) => / mcp tools\/call \S+ answered in [\d.]+ ms$/.test(l));
  t.equal(lines.length, 2, lines.join('\n'));
});

t.test('without it, no line per call', async (t) => {
  t.notMatch(await calls(false), /answered in/);
});
