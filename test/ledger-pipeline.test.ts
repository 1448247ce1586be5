// The ledger stage inside the one pipeline (distillBuffer), with the real store's archive:
// the "done when" for a file read twice, and retrieve returning the exact bytes.
import t from 'tap';
import { distillBuffer } from '../lib/pipeline/run.js';
import { createLedgerStage } from '../lib/pipeline/ledger.js';
import { describeRun } from '../lib/pipeline/describe.js';
import { openStore, type Store } from '../lib/store/open.js';
import { putBlob, getBlob } from '../lib/store/archive.js';
import { loadShown, recordDelivered, type ReaderScope } from '../lib/store/ledger.js';
import { tmpHome, sourceFile } from './store/fixtures/helpers.js';

async function hookDelivery(store: Store, scope: ReaderScope, tool: string, text: string) {
  const desc = describeRun({ door: 'hook', tool, command: tool === 'Read' ? 'Read /p/src/big.ts' : 'cat src/big.ts', ...scope });
  const shown = loadShown(store, scope);
  let stage: ReturnType<typeof createLedgerStage> | null = null;
  const res = await distillBuffer(desc, Buffer.from(text), { archive: { put: (d: Buffer) => putBlob(store, d) }, ledger: () => (stage = createLedgerStage(desc, shown)) });
  const st = stage as ReturnType<typeof createLedgerStage> | null;
  if (st) recordDelivered(store, { ...scope, hashes: st.delivered(), consumed: st.consumed() });
  return res;
}

t.test('a 400-line file read twice in one session comes back as one marker at least 90% smaller, and retrieve returns its bytes', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const scope = { sessionId: 'S', cwd: '/p' };
  const file = sourceFile(400);
  const first = await hookDelivery(store, scope, 'Read', file);
  t.equal(first.output.toString(), file, 'the first read is delivered as it is');
  const second = await hookDelivery(store, scope, 'Read', file);
  const out = second.output.toString();
  const m = /^\[omni: 400 lines already shown — omni retrieve ([0-9a-f]{16})\]\n?$/.exec(out);
  t.ok(m, `one marker: ${JSON.stringify(out.slice(0, 120))}`);
  t.ok(second.outBytes <= 0.1 * second.rawBytes, `${second.outBytes} of ${second.rawBytes} bytes`);
  t.ok(getBlob(store, m![1])?.equals(Buffer.from(file)), 'the handle gives back the exact bytes');
});

t.test('through the pipeline a subagent and another session are not told "already shown"', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  const file = sourceFile(400);
  await hookDelivery(store, { sessionId: 'S', cwd: '/p' }, 'Read', file);
  const sub = await hookDelivery(store, { sessionId: 'S', agentId: 'sub1', cwd: '/p' }, 'Read', file);
  t.notMatch(sub.output.toString(), /already shown/);
  const other = await hookDelivery(store, { sessionId: 'S2', cwd: '/p' }, 'Read', file);
  t.equal(other.output.toString(), file, 'a Read by another session is delivered whole');
  const otherBash = await hookDelivery(store, { sessionId: 'S3', cwd: '/p' }, 'Bash', file);
  t.match(otherBash.output.toString(), /^\[omni: 400 lines not shown here \(seen in another session\) — omni retrieve [0-9a-f]{16}\]/);
});
