// A buffered run (distillBuffer, behind every hook) builds its stages as synchronous streams
// (lib/kit/streams.ts) instead of node:stream. The stages are the same functions; only the
// plumbing between them differs, and it must change nothing: on the whole corpus, as a Bash
// output, as a Read read twice (the ledger's "already shown") and as an MCP result (no command:
// the sniffing stage), and on generated and hostile inputs, both plumbings give the same bytes,
// the same distiller, the same verdict and the same archive handle, each over its own store fed
// the same calls in the same order.
import t from 'tap';
import fc from 'fast-check';
import { distillBuffer, type DistillResult } from '../../lib/pipeline/run.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { RunBook } from '../../lib/doors/run-record.js';
import { WHOLE } from '../../lib/doors/model-view.js';
import type { PipelineContext } from '../../lib/pipeline/types.js';
import { loadCorpus } from '../helpers/corpus.js';
import { tempHome } from '../helpers/omni.js';

/** One side: its own store; each call as the hook door makes it (archive, ledger, run record). */
function side(nodeStreams: boolean) {
  const home = tempHome();
  const cwd = tempHome();
  return async (input: Buffer, ctx: Partial<PipelineContext>): Promise<DistillResult> => {
    const store = new LazyStore(home);
    try {
      const c: PipelineContext = { door: 'hook', host: 'claude', sessionId: 's-equal', agentId: 'main', cwd, exitCode: 0, ...ctx, archive: store.archive() };
      const book = new RunBook(c, store);
      book.attachLedger({});
      const r = await distillBuffer(c, input, { nodeStreams });
      book.record({ raw: input, delivered: r.output, bytesIn: r.rawBytes, bytesOut: r.outBytes, distiller: r.distiller, family: r.family, rawHandle: r.rawHandle, applied: r.changed, view: WHOLE });
      return r;
    } finally {
      store.close();
    }
  };
}

const summary = (r: DistillResult) => ({ changed: r.changed, distiller: r.distiller, family: r.family, verbatim: r.verbatim, rawHandle: r.rawHandle, outBytes: r.outBytes });

t.test('the corpus through both plumbings: the same bytes, verdicts and handles', async (t) => {
  const corpus = loadCorpus();
  t.ok(corpus.length > 200, `${corpus.length} cases`);
  const sync = side(false);
  const node = side(true);
  let runs = 0;
  let changed = 0;
  let differ = 0;
  for (const c of corpus) {
    const calls: Partial<PipelineContext>[] = [
      { command: c.cmd, tool: 'Bash', exitCode: c.exitCode },
      { command: `Read ${c.name}.txt`, tool: 'Read' },
      { command: `Read ${c.name}.txt`, tool: 'Read' },
      { command: '', tool: 'mcp__server__tool' },
    ];
    for (const ctx of calls) {
      const a = await sync(c.output, ctx);
      const b = await node(c.output, ctx);
      runs++;
      if (a.changed) changed++;
      if (!a.output.equals(b.output) || JSON.stringify(summary(a)) !== JSON.stringify(summary(b))) {
        differ++;
        if (differ <= 3) t.same({ out: a.output.toString(), ...summary(a) }, { out: b.output.toString(), ...summary(b) }, `${c.name} ${ctx.tool}`);
      }
    }
  }
  t.equal(differ, 0, `${differ} of ${runs} runs differ`);
  t.ok(changed > corpus.length, `${changed} of ${runs} runs were distilled: the comparison is not vacuous`);
});

t.test('hostile and structured inputs: binary, invalid UTF-8, JSON, CRLF, one endless line', async (t) => {
  const sync = side(false);
  const node = side(true);
  const noise = (n: number) => Array.from({ length: n }, (_, k) => `Downloading package-${k % 7} ${k}%`).join('\n');
  const inputs: Buffer[] = [
    Buffer.from(noise(500) + '\n\0binary\n' + noise(500)),
    Buffer.concat([Buffer.from(noise(300) + '\n'), Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from(noise(300))]),
    Buffer.from(JSON.stringify({ rows: Array.from({ length: 400 }, (_, k) => ({ k, v: 'Downloading x 50%' })) }, null, 2)),
    Buffer.from(noise(400).replace(/\n/g, '\r\n')),
    Buffer.from('x'.repeat((1 << 20) + 5000) + '\n' + noise(100)),
    Buffer.from(`${noise(200)}\nerror: something failed\n${noise(200)}\n`),
    Buffer.from(Array.from({ length: 300 }, (_, k) => `\x1b[32m✓\x1b[0m step ${k}\r\x1b[2Kstep ${k} done`).join('\n')),
    Buffer.alloc(0),
  ];
  for (const [k, input] of inputs.entries()) {
    for (const ctx of [{ command: './run.sh', tool: 'Bash' }, { command: '', tool: 'mcp__s__t' }]) {
      const a = await sync(input, ctx);
      const b = await node(input, ctx);
      t.ok(a.output.equals(b.output), `input ${k} (${ctx.tool}): same bytes`);
      t.same(summary(a), summary(b), `input ${k} (${ctx.tool}): same verdict`);
    }
  }
});

t.test('generated line soups: the same bytes either way', async (t) => {
  const line = fc.oneof(
    fc.constantFrom('Downloading package-1 50%', 'npm WARN deprecated x@1', 'PASS src/a.test.ts', 'FAIL src/b.test.ts', '', '   ', 'Tests: 3 passed, 3 total', 'error: boom', '  at f (a.js:1:2)', 'added 12 packages in 2s', '{"a":1}', 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123'),
    fc.string({ maxLength: 40 }),
  );
  const sync = side(false);
  const node = side(true);
  await fc.assert(
    fc.asyncProperty(fc.array(line, { maxLength: 300 }), fc.constantFrom('npm install', 'npm test', 'git log', './x.sh', ''), fc.boolean(), async (lines, command, crlf) => {
      const input = Buffer.from(lines.join(crlf ? '\r\n' : '\n'));
      const ctx = { command, tool: command ? 'Bash' : 'mcp__s__t' };
      const a = await sync(input, ctx);
      const b = await node(input, ctx);
      return a.output.equals(b.output) && JSON.stringify(summary(a)) === JSON.stringify(summary(b));
    }),
    { numRuns: 150 },
  );
  t.pass('150 generated runs agree');
});
