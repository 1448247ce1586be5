import t from 'tap';
import fc from 'fast-check';
import { shownOf } from '../lib/doors/run-record.js';
import type { ModelView } from '../lib/hosts/model-view.js';
import { openStore, type Store } from '../lib/store/open.js';
import { loadShown, recordDelivered, forgetSession, type ReaderScope } from '../lib/store/ledger.js';
import { recordRetrieval, handleOf } from '../lib/store/archive.js';
import {
  createLedgerStage,
  runBytes,
  noteAlreadyShown,
  LEDGER_MIN_OUTPUT_BYTES,
  LEDGER_WHOLE_FOLD_MIN_BYTES,
} from '../lib/pipeline/ledger.js';
import type { Item, Marker, PipelineContext } from '../lib/kit/types.js';
import { tmpHome, linesOf, runStage, show, sourceFile } from './store/fixtures/helpers.js';

const FAIL = /TypeError|Error:/;

/** One hook delivery through the ledger: load, run the stage, record what was delivered. */
async function deliver(store: Store, scope: ReaderScope, text: string, extra: Partial<PipelineContext> = {}, chunk = 7) {
  const shown = loadShown(store, scope);
  const ctx: PipelineContext = { door: 'hook', sessionId: scope.sessionId, agentId: scope.agentId, cwd: scope.cwd, ...extra };
  const stage = createLedgerStage(ctx, shown);
  const items = await runStage(stage, linesOf(text, FAIL), chunk);
  recordDelivered(store, { ...scope, hashes: stage.delivered(), consumed: stage.consumed() });
  return { items, text: show(items), markers: items.filter((i): i is Marker => i.kind === 'marker') };
}

function fresh(t: { teardown(fn: () => void): void }): Store {
  const s = openStore({ home: tmpHome() });
  t.teardown(() => s.close());
  return s;
}

const main: ReaderScope = { sessionId: 'S1', cwd: '/proj' };

t.test('the same lines twice for the same reader are folded the second time with the exact note', async (t) => {
  const store = fresh(t);
  const file = sourceFile(400);
  const first = await deliver(store, main, file);
  t.equal(first.text, file, 'first delivery is verbatim');
  const second = await deliver(store, main, file);
  t.equal(second.markers.length, 1);
  t.equal(second.markers[0].note, noteAlreadyShown(400));
  t.equal(second.markers[0].note, '400 lines already shown');
  t.equal(second.text, '[omni: 400 lines already shown]\n');
  t.ok(runBytes(second.markers[0].hidden).equals(Buffer.from(file)), 'the marker hides the exact bytes');
});

t.test('only the repeated run is folded; new lines around it are delivered', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(30, 'x'));
  const text = 'fresh line one\n' + sourceFile(30, 'x') + 'fresh line two\n';
  const got = await deliver(store, main, text);
  t.equal(got.text, 'fresh line one\n[omni: 30 lines already shown]\nfresh line two\n');
});

t.test('a subagent is not told the parent\'s lines were already shown', async (t) => {
  const store = fresh(t);
  const file = sourceFile(100);
  await deliver(store, main, file);
  const sub = await deliver(store, { ...main, agentId: 'agent-7' }, file);
  t.equal(sub.text, file);
  t.equal(sub.markers.length, 0);
  const again = await deliver(store, { ...main, agentId: 'agent-7' }, file);
  t.equal(again.markers[0]?.note, '100 lines already shown', 'the subagent\'s own repeat folds');
});

t.test('another session of the same project is never told "already shown", and gets "not shown here" only past the higher bar', async (t) => {
  const store = fresh(t);
  const big = sourceFile(100, 'big');
  const small = sourceFile(8, 'small');
  await deliver(store, main, big + 'separator\n' + small);
  const other: ReaderScope = { sessionId: 'S2', cwd: '/proj' };
  const got = await deliver(store, other, 'unrelated first line that is long enough to matter here\n' + small + 'between\n' + big);
  t.notMatch(got.text, /already shown/);
  t.equal(got.markers.length, 1, 'the 8-line run is under the higher bar, the 100-line run is over it');
  t.equal(got.markers[0].note, '100 lines not shown here (seen in another session)');
  t.match(got.text, small, 'the short run is delivered');
  const elsewhere = await deliver(store, { sessionId: 'S3', cwd: '/other' }, big);
  t.equal(elsewhere.markers.length, 0, 'another project sees nothing');
});

t.test('after forgetSession nothing is "already shown" to any agent of that session', async (t) => {
  const store = fresh(t);
  const file = sourceFile(50);
  await deliver(store, main, file);
  await deliver(store, { ...main, agentId: 'a1' }, file);
  forgetSession(store, 'S1');
  t.equal((await deliver(store, main, file)).text, file);
  t.equal((await deliver(store, { ...main, agentId: 'a1' }, file)).text, file);
  t.equal((await deliver(store, main, file)).markers[0]?.note, '50 lines already shown', 'deliveries after the reset count again');
});

t.test('a repeated TypeError line is never folded', async (t) => {
  const store = fresh(t);
  let out = '';
  for (let i = 0; i < 20; i++) out += `    at Object.<anonymous> (/proj/src/mod${i}.js:${i}:7)\n`;
  const text = 'TypeError: x is not a function\n' + out + 'TypeError: x is not a function\n' + out;
  await deliver(store, main, text);
  const got = await deliver(store, main, text);
  t.equal(got.text, 'TypeError: x is not a function\n[omni: 20 lines already shown]\nTypeError: x is not a function\n[omni: 20 lines already shown]\n');
});

t.test('a re-run\'s verdict line is never folded, even inside a repeated run', async (t) => {
  const store = fresh(t);
  const body = sourceFile(20, 'ok');
  const text = body + 'Tests  500 passed (500)\n' + sourceFile(20, 'more');
  const withTiers = () => linesOf(text).map((l) => (l.text.startsWith('Tests ') ? { ...l, tier: 'signal' as const } : l));
  for (let i = 0; i < 2; i++) {
    const shown = loadShown(store, main);
    const stage = createLedgerStage({ door: 'hook' }, shown);
    const got = show(await runStage(stage, withTiers()));
    recordDelivered(store, { ...main, hashes: stage.delivered() });
    if (i === 1) t.equal(got, '[omni: 20 lines already shown]\nTests  500 passed (500)\n[omni: 20 lines already shown]\n');
  }
});

t.test('a tiny output is not folded even when every line was shown', async (t) => {
  const store = fresh(t);
  const text = sourceFile(5);
  t.ok(Buffer.byteLength(text) < LEDGER_MIN_OUTPUT_BYTES);
  await deliver(store, main, text);
  t.equal((await deliver(store, main, text)).text, text);
});

t.test('a fold that would cover a whole small output is refused', async (t) => {
  const store = fresh(t);
  const text = sourceFile(12);
  const n = Buffer.byteLength(text);
  t.ok(n >= LEDGER_MIN_OUTPUT_BYTES && n < LEDGER_WHOLE_FOLD_MIN_BYTES, `${n} bytes`);
  await deliver(store, main, text);
  t.equal((await deliver(store, main, text)).text, text);
  // The same run inside a bigger output is folded.
  const bigger = sourceFile(12) + sourceFile(20, 'new');
  t.match((await deliver(store, main, bigger)).text, /^\[omni: 12 lines already shown\]\n/);
});

t.test('a short run that saves less than its marker costs is not folded', async (t) => {
  const store = fresh(t);
  const shortRun = 'a\nb\nc\nd\ne\n';
  await deliver(store, main, shortRun);
  const text = sourceFile(20, 'p') + shortRun + sourceFile(20, 'q');
  t.equal((await deliver(store, main, text)).text, text);
});

t.test('for a Read, a fold at the head is allowed and a fold in the middle is refused', async (t) => {
  const store = fresh(t);
  const head = sourceFile(40, 'head');
  await deliver(store, main, head, { tool: 'Read' });
  const headCase = await deliver(store, main, head + sourceFile(10, 'tail'), { tool: 'Read' });
  t.equal(headCase.items[0].kind, 'marker');
  t.equal((headCase.items[0] as Marker).hidden.length, 40);
  const mid = sourceFile(10, 'top') + head;
  t.equal((await deliver(store, main, mid, { tool: 'Read' })).text, mid, 'middle fold refused for Read');
  const bash = await deliver(store, { sessionId: 'S9', cwd: '/p' }, head);
  const bashAgain = await deliver(store, { sessionId: 'S9', cwd: '/p' }, sourceFile(10, 'top') + head, { tool: 'Bash' });
  t.equal(bash.markers.length, 0);
  t.equal(bashAgain.markers.length, 1, 'the same middle fold is fine for Bash');
});

t.test('a marker from an earlier stage passes through untouched and breaks a run', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(60));
  const lines = linesOf(sourceFile(60));
  const earlier: Marker = { kind: 'marker', note: '3 similar lines folded', hidden: linesOf('x\ny\nz\n') };
  const items: Item[] = [...lines.slice(0, 30), earlier, ...lines.slice(30)];
  const stage = createLedgerStage({ door: 'hook', sessionId: 'S1', cwd: '/proj' }, loadShown(store, main));
  const got = await runStage(stage, items);
  t.equal(got.length, 3);
  t.equal(got[1], earlier);
  t.same(got.map((i) => (i.kind === 'marker' ? i.note : 'line')), ['30 lines already shown', '3 similar lines folded', '30 lines already shown']);
});

t.test('the output is the same whatever the chunking, for the same store state', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(50, 'a') + sourceFile(5, 'b'));
  const text = sourceFile(7, 'c') + sourceFile(50, 'a') + 'x\n' + sourceFile(5, 'b') + sourceFile(3, 'd');
  const shown = loadShown(store, main);
  const outs = new Set<string>();
  for (const chunk of [1, 2, 7, 64, 10000]) {
    const stage = createLedgerStage({ door: 'hook' }, shown);
    outs.add(show(await runStage(stage, linesOf(text), chunk)));
  }
  t.equal(outs.size, 1);
  t.equal([...outs][0], sourceFile(7, 'c') + '[omni: 50 lines already shown]\nx\n' + sourceFile(5, 'b') + sourceFile(3, 'd'));
});

t.test('folded lines are not recorded as delivered', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(50));
  const shown = loadShown(store, main);
  const stage = createLedgerStage({ door: 'hook' }, shown);
  await runStage(stage, linesOf(sourceFile(50) + sourceFile(3, 'new')));
  t.equal(stage.delivered().length, 3 * 8, 'only the three new lines');
});

t.test('after a reader retrieves a handle, the next payload with that run is delivered verbatim once', async (t) => {
  const store = fresh(t);
  const file = sourceFile(60);
  await deliver(store, main, file);
  const folded = await deliver(store, main, file);
  const handle = handleOf(runBytes(folded.markers[0].hidden));
  recordRetrieval(store, handle);
  t.equal((await deliver(store, main, file)).text, file, 'verbatim right after the retrieve');
  t.equal((await deliver(store, main, file)).markers.length, 1, 'folded again after that once');
});

t.test('without a store the stage passes everything through and records nothing', async (t) => {
  const stage = createLedgerStage({ door: 'hook' }, null);
  const text = sourceFile(40);
  t.equal(show(await runStage(stage, linesOf(text))), text);
  t.equal(stage.delivered().length, 0);
});

t.test('a run in passthrough (structured data) is forwarded untouched and nothing of it is recorded', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(60));
  const view = { passthrough: null as string | null };
  const stage = createLedgerStage({ door: 'hook' }, loadShown(store, main), view);
  const lines = linesOf(sourceFile(60) + sourceFile(5, 'z'));
  view.passthrough = 'json';
  const got = await runStage(stage, lines);
  t.equal(show(got), sourceFile(60) + sourceFile(5, 'z'));
  t.equal(got.filter((i) => i.kind === 'marker').length, 0);
  t.equal(stage.delivered().length, 0);
});

t.test('every batch end reaches render, even when the stage holds the batch\'s lines', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(60));
  const lines = linesOf(sourceFile(60));
  const ends: number[] = [];
  const stage = createLedgerStage({ door: 'hook' }, loadShown(store, main));
  await runStage(stage, lines, 10, ends);
  t.equal(ends.length, 7, 'six input batches plus the flush');
  t.equal(ends[ends.length - 1], Buffer.byteLength(sourceFile(60)));
});

t.test('a passthrough decided only at the end still records nothing and folds nothing', async (t) => {
  const store = fresh(t);
  await deliver(store, main, sourceFile(60));
  const view = { passthrough: null as string | null };
  const stage = createLedgerStage({ door: 'hook' }, loadShown(store, main), view);
  const lines = linesOf(sourceFile(60));
  const got: Item[] = [];
  stage.on('data', (b: { items: Item[] }) => got.push(...b.items));
  const done = new Promise((r) => stage.on('end', r));
  stage.write({ items: lines, end: lines[lines.length - 1].end });
  view.passthrough = 'yaml';
  stage.end();
  await done;
  t.equal(show(got), sourceFile(60));
  t.equal(stage.delivered().length, 0);
});

// ---------------------------------------------------------------------------------------------
// P7, ledger truth, at the stage: what is recorded is what the door says reached the model
// (RunBook's `shownOf`), and a later "already shown" fold hides only such lines.


t.test('P7: "already shown" hides only lines an earlier view of the same reader contained', async (t) => {
  const pool = Array.from({ length: 80 }, (_, i) => `  const value_${i} = compute(${i}) + offset; // the pool line ${i}`);
  const delivery = fc.record({
    start: fc.nat(pool.length - 1),
    len: fc.integer({ min: 1, max: 120 }),
    // what of the output reached the model: all of it, a head of it (a host's preview), or unknown
    view: fc.oneof(fc.constant({ kind: 'whole' as const }), fc.record({ kind: fc.constant('head' as const), lines: fc.nat(120) }), fc.constant({ kind: 'none' as const })),
    reader: fc.constantFrom('main', 'agent-1'),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(delivery, { minLength: 1, maxLength: 8 }), async (ds) => {
      const store = openStore({ home: tmpHome() });
      const saw: Record<string, Set<string>> = { main: new Set(), 'agent-1': new Set() };
      try {
        for (const d of ds) {
          const scope: ReaderScope = { sessionId: 'P7', agentId: d.reader === 'main' ? undefined : d.reader, cwd: '/proj' };
          const text = Array.from({ length: d.len }, (_, i) => pool[(d.start + i) % pool.length]).join('\n') + '\n';
          const stage = createLedgerStage({ door: 'hook', sessionId: 'P7', agentId: scope.agentId, cwd: '/proj' }, loadShown(store, scope));
          const items = await runStage(stage, linesOf(text, FAIL), 7);
          for (const m of items) {
            if (m.kind !== 'marker' || !m.note.endsWith('already shown')) continue;
            for (const l of m.hidden) if (l.text.trim() !== '' && !saw[d.reader].has(l.text.trim())) throw new Error(`folded as already shown, never shown to ${d.reader}: ${l.text}`);
          }
          // What the model got: the output as delivered (markers and lines), cut by the view.
          const out = show(items).replace(/\n$/, '').split('\n');
          const got = d.view.kind === 'whole' ? out : d.view.kind === 'head' ? out.slice(0, d.view.lines) : [];
          const view: ModelView = d.view.kind === 'whole' ? { kind: 'whole' } : d.view.kind === 'head' ? { kind: 'lines', text: got.join('\n') } : { kind: 'none' };
          for (const l of got) saw[d.reader].add(l.trim());
          recordDelivered(store, { ...scope, ...shownOf(stage, view) });
        }
      } finally {
        store.close();
      }
    }),
    { numRuns: Number(process.env.OMNI_PROPERTY_RUNS ?? 60), seed: 10 },
  );
  t.pass('held on every generated session');
});
