// The hook tool in one long-lived process, the way the MCP server runs it: parallel calls on the
// warm store are isolated (each its own reply, run row and archive), and a call that throws is
// that call's empty reply only.
import t from 'tap';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT, tempHome } from '../helpers/omni.js';
import { loadCorpus } from '../helpers/corpus.js';
import { answerHook, runHook } from '../../lib/doors/hook.js';
import { hookToolReply, resetWarmStore, type HookRunner } from '../../lib/mcp/hook-tool.js';
import { hookToolInput, renderTemplate } from '../../lib/hosts/claude/hook-tool.js';

const base = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'claude-code', 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
const userHome = tempHome();
const cases = loadCorpus().filter((c) => c.exitCode === 0 && c.output.length > 2000).slice(0, 16);
const payloads = cases.map((c, i) => ({
  ...base,
  session_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  cwd: join(userHome, `p${i}`),
  tool_use_id: `toolu_warm_${i}`,
  tool_input: { command: c.cmd, description: c.name },
  tool_response: { ...base.tool_response, stdout: c.output.toString('utf8').replace(/\n$/, '') },
}));
const args = (p: Record<string, unknown>) => renderTemplate(hookToolInput('post-hook'), p);
const envFor = (home: string) => ({ ...process.env, HOME: userHome, OMNI_HOME: home }) as NodeJS.ProcessEnv;

/** What the command door replies to each payload, one process-like call at a time, in a store of its own. */
async function reference(): Promise<string[]> {
  const env = envFor(tempHome());
  const out: string[] = [];
  for (const p of payloads) out.push(await runHook('post-hook', Buffer.from(JSON.stringify(p)), env));
  return out;
}

t.test('16 calls at once on the warm store: the replies one at a time would give, one run row each', async (t) => {
  t.equal(cases.length, 16, '16 noisy corpus outputs');
  const want = await reference();
  t.ok(want.filter((r) => r !== '').length >= 8, `${want.filter((r) => r !== '').length} of 16 have a reply`);
  const home = tempHome();
  t.teardown(resetWarmStore);
  const got = await Promise.all(payloads.map((p) => hookToolReply(args(p), envFor(home))));
  t.same(got, want, 'each reply is its own call\'s');
  resetWarmStore();
  const db = new Database(join(home, 'omni.db'), { readonly: true });
  t.teardown(() => db.close());
  const runs = db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number };
  t.equal(runs.n, 16, 'one run row per call');
});

t.test('a call that throws gets the empty reply; the calls beside it are answered as usual', async (t) => {
  const want = await reference();
  const home = tempHome();
  t.teardown(resetWarmStore);
  const bad = payloads[3].tool_use_id;
  const run: HookRunner = async (name, payload, deps) => {
    if (payload.tool_use_id === bad) {
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('a fault in one call');
    }
    return answerHook(name, payload, deps);
  };
  const got = await Promise.all(payloads.map((p) => hookToolReply(args(p), envFor(home), run)));
  t.equal(got[3], '', 'the faulty call: empty reply (the host keeps the original output)');
  t.not(want[3], '', 'and it would have had a reply');
  t.same(got.filter((_, i) => i !== 3), want.filter((_, i) => i !== 3), 'every other call as without the fault');
  const after = await hookToolReply(args(payloads[3]), envFor(home));
  t.equal(after, want[3], 'the next call of the same payload is answered: the server goes on');
  t.match(readFileSync(join(home, 'omni.log'), 'utf8'), /mcp-hook .*a fault in one call/, 'the fault is in the log');
});

t.test('a persistedOutputPath naming a FIFO: that call is refused at once and the server keeps answering', async (t) => {
  const want = await reference();
  const home = tempHome();
  t.teardown(resetWarmStore);
  const fifo = join(tempHome(), 'persisted.fifo');
  execFileSync('mkfifo', [fifo]);
  // A writer that comes only when this child is killed, or never: a read that waited on the
  // FIFO would hold the whole server (one thread) until then. So every other call must be
  // answered while this child still waits: an order, not a time.
  const writer = spawn('/bin/sh', ['-c', 'sleep 20 > "$1"', 'sh', fifo], { stdio: 'ignore' });
  let writerDone = false;
  writer.on('exit', () => (writerDone = true));
  t.teardown(() => { if (!writerDone) writer.kill('SIGKILL'); });
  const hostile = { ...payloads[0], tool_use_id: 'toolu_warm_fifo', tool_response: { ...payloads[0].tool_response, persistedOutputPath: fifo, persistedOutputSize: 1 << 20 } };
  const got = await Promise.all([hookToolReply(args(hostile), envFor(home)), ...payloads.map((p) => hookToolReply(args(p), envFor(home)))]);
  t.equal(writerDone, false, 'every call was answered while the FIFO still had no data');
  t.equal(got[0], '', 'the FIFO call: no reply, the host keeps its preview');
  t.same(got.slice(1), want, 'every other call as without it');
  t.match(readFileSync(join(home, 'omni.log'), 'utf8'), /a FIFO, not a regular file/, 'the refusal is in the log');
});
