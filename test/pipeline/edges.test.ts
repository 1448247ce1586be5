/**
 * The pipeline's edges: the run is described (routed, its rules read, its hold window set) by
 * the door before the pipeline is built and never written after; the archive and the ledger are
 * passed in; the exit code comes through `end()`; render's final gate and receipt budget are
 * units of their own.
 */
import t from 'tap';
import { rmSync, unlinkSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { createPipeline } from '../../lib/pipeline/create.js';
import { describeRun, HELD_TO_END } from '../../lib/pipeline/describe.js';
import { distillBuffer } from '../../lib/pipeline/run.js';
import { judgeHeld } from '../../lib/pipeline/final-gate.js';
import { RECEIPT_RESERVE_BYTES, StreamBudget } from '../../lib/pipeline/receipt-budget.js';
import { Output, Receipts, type RenderReport } from '../../lib/pipeline/render-output.js';
import { Spool } from '../../lib/pipeline/spool.js';
import { RunState } from '../../lib/kit/stage.js';
import type { Item, Line } from '../../lib/kit/types.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { trustFile } from '../../lib/rules/load.js';
import { tempHome } from '../helpers/omni.js';
import { project, TAR_COMMAND, TAR_VERBOSE } from '../rules/project.js';

const noise = (n: number) => Array.from({ length: n }, (_, i) => `Downloading package-${i % 7} ${i}%`).join('\n') + '\n';

async function run(p: ReturnType<typeof createPipeline>, input: Buffer, end: Parameters<typeof p.end>[0]): Promise<Buffer> {
  const out: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => { p.on('data', (b: Buffer) => out.push(b)); p.on('end', resolve); p.on('error', reject); });
  p.write(input);
  p.end(end as never);
  await done;
  return Buffer.concat(out);
}

t.test('a run is described once: frozen, its hold window resolved, its route named', async (t) => {
  const d = describeRun({ door: 'exec', command: 'npm install', cwd: '/nowhere', hold: { ms: 50 } });
  t.ok(Object.isFrozen(d) && Object.isFrozen(d.hold) && Object.isFrozen(d.routing), 'frozen, all of it');
  t.same(d.hold, { bytes: 256 << 10, ms: 50, idleMs: 500 }, 'what the door did not set takes the defaults');
  t.match(d.routing, { kind: 'spec', distiller: 'install' });
  t.equal(d.passthrough, false);
  t.equal(describeRun({ door: 'pipe' }).routing.kind, 'sniff', 'no command: the first batch picks');
  t.equal(describeRun({ door: 'pipe', command: 'OMNI_PASSTHROUGH=1 make' }).passthrough, true, 'the command line asks for passthrough');
});

t.test('the rules are read when the door describes the run, never while the pipeline runs', async (t) => {
  const p = project();
  t.teardown(() => rmSync(p.dir, { recursive: true, force: true }));
  trustFile(p.home, p.rulesFile);
  const desc = describeRun({ door: 'pipe', command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home } });
  t.match(desc.routing, { kind: 'spec', distiller: 'rule:project:tar-members' }, 'the trusted project rule owns the command');
  // The rules file goes away between describing the run and running it: the run is as described.
  unlinkSync(p.rulesFile);
  const store = new LazyStore(tempHome());
  t.teardown(() => store.close());
  const r = await distillBuffer(desc, Buffer.from(TAR_VERBOSE), { archive: store.archive(), exitCode: 0 });
  t.equal(r.distiller, 'rule:project:tar-members', 'the rule that was read distils it');
  t.match(r.output.toString(), /members hidden by rule tar-members/);
  const now = describeRun({ door: 'pipe', command: TAR_COMMAND, cwd: p.dir, rules: { home: p.home } });
  t.not(now.routing.kind === 'spec' ? now.routing.distiller : null, 'rule:project:tar-members', 'a run described now has no rule to follow');
});

t.test('the exit code comes through end(): a failing run goes out as it came', async (t) => {
  const input = Buffer.from(noise(300) + 'Error: it broke\n');
  const store = new LazyStore(tempHome());
  t.teardown(() => store.close());
  const desc = describeRun({ door: 'exec', hold: HELD_TO_END });
  const failing = createPipeline(desc, { archive: store.archive() });
  t.ok((await run(failing, input, { exitCode: 2 })).equals(input), 'exit 2: the raw bytes');
  t.equal(failing.report.verbatim, 'exit 2');
  const passing = createPipeline(desc, { archive: store.archive() });
  const out = await run(passing, input, { exitCode: 0 });
  t.ok(out.length < input.length, `exit 0: distilled (${out.length} < ${input.length})`);
  const plain = createPipeline(desc, { archive: store.archive() });
  t.ok((await run(plain, input, undefined)).equals(out), 'a plain end() is an exit nobody knows: judged like a success');
});

const line = (text: string, end: number, extra: Partial<Line> = {}): Line => ({ kind: 'line', text, eol: '\n', tier: 'text', index: 0, end, ...extra });

/** Items for `texts`, one line each, with their raw ends, and the spool holding their bytes. */
function held(texts: string[], extra: (i: number) => Partial<Line> = () => ({})): { items: Item[]; spool: Spool; raw: Buffer } {
  const raw = Buffer.from(texts.map((x) => x + '\n').join(''));
  const spool = new Spool(1 << 20);
  spool.push(raw);
  let end = 0;
  const items = texts.map((x, i) => line(x, (end += Buffer.byteLength(x) + 1), extra(i)));
  return { items, spool, raw };
}

const report = (): RenderReport => ({ rawBytes: 0, outBytes: 0, changed: false, verbatim: null, streamed: false, rawHandle: null, rawCovered: 0 });

t.test('the final gate is a unit: a held run judged whole against its raw bytes', async (t) => {
  const desc = describeRun({ door: 'pipe' });
  const archived: Buffer[] = [];
  const receipts = new Receipts({ put: (b) => (archived.push(b), 'f'.repeat(16)) });
  const { items, raw } = held(Array.from({ length: 40 }, (_, i) => `\x1b[32mpassed case ${i}\x1b[0m`), (i) => ({ plain: `passed case ${i}` }));
  const failed = judgeHeld(desc, new RunState(), items, raw, 1, receipts);
  t.same(failed, { kind: 'as-came', verbatim: 'exit 1', failedExit: true, rawHandle: null }, 'a failing exit: the raw bytes, nothing archived');
  t.equal(archived.length, 0);
  const ok = judgeHeld(desc, new RunState(), items, raw, 0, receipts);
  t.equal(ok.kind, 'distilled', 'colour stripped, and it saves enough');
  if (ok.kind === 'distilled') {
    t.equal(ok.rawHandle, 'f'.repeat(16), 'the receipt names the whole raw output…');
    t.ok(archived[0].equals(raw), '…archived first');
    t.match(ok.out.toString(), /colour codes on 40 lines removed; whole output — omni retrieve f{16}\]\n$/);
  }
  t.match(judgeHeld(desc, new RunState(), items, raw, 0, new Receipts({ put: () => null })), { kind: 'as-came', verbatim: 'archive-failed' }, 'no receipt, no removal');
});

t.test('the receipt budget is a unit: lines change in place only once the bank holds the reserve', async (t) => {
  const texts = Array.from({ length: 200 }, (_, i) => `\x1b[32mpassed case ${i}\x1b[0m`);
  const { items, spool } = held(texts, (i) => ({ plain: `passed case ${i}` }));
  const out = new Output(report());
  const budget = new StreamBudget(spool, out, new Receipts({ put: () => 'a'.repeat(16) }), new RunState());
  const sink = new PassThrough();
  const first = budget.batch(items.slice(0, 2));
  t.equal(first.toString(), texts.slice(0, 2).map((x) => x + '\n').join(''), 'an empty bank: the first lines go out as they came');
  out.write(sink, first);
  const rest = budget.batch(items.slice(2));
  t.notMatch(rest.toString(), /\x1b\[/, 'the bank now pays for the receipt: colour stripped');
  t.ok(RECEIPT_RESERVE_BYTES > 100, `the reserve: ${RECEIPT_RESERVE_BYTES} bytes`);
  const closing: string[] = [];
  const r = budget.close((s) => closing.push(s.toString()), null);
  t.same(r, { changed: true, rawHandle: 'a'.repeat(16) });
  t.match(closing.join(''), /colour codes on 198 lines removed; whole output — omni retrieve a{16}\]\n$/, 'the closing receipt counts what went out changed');
  const none = new StreamBudget(spool, new Output(report()), new Receipts(undefined), new RunState());
  t.equal(none.batch(items).toString(), texts.map((x) => x + '\n').join(''), 'without an archive nothing changes in place');
});
