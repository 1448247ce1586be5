import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPipeline } from '../../lib/pipeline/create.js';
import { LazyStore } from '../../lib/doors/store-access.js';
import { getBlob } from '../../lib/store/archive.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { describeRun, type RunRequest } from '../../lib/pipeline/describe.js';
import { omni, tempHome } from '../helpers/omni.js';

/**
 * A producer that pauses past the hold window, so the run streams: the first part is held,
 * the pause starts streaming, the rest is rendered as it comes.
 */
async function streamed(parts: Array<string | Buffer>, opts: { archive?: false } = {}, exitCode?: number) {
  const home = tempHome();
  const store = new LazyStore(home);
  const req: RunRequest = { door: 'exec', hold: { ms: 30, idleMs: 30 } };
  const p = createPipeline(describeRun(req), { archive: opts.archive === false ? undefined : store.archive() });
  const out: Buffer[] = [];
  const done = new Promise<void>((resolve) => { p.on('data', (b: Buffer) => out.push(b)); p.on('end', () => resolve()); });
  for (const part of parts) {
    p.write(Buffer.isBuffer(part) ? part : Buffer.from(part));
    await sleep(120);
  }
  p.end({ exitCode: exitCode ?? null });
  await done;
  const output = Buffer.concat(out);
  const input = Buffer.concat(parts.map((x) => (Buffer.isBuffer(x) ? x : Buffer.from(x))));
  const handles = [...output.toString().split('\n')].map((l) => MARKER_RE.exec(l)?.[2]).filter((h): h is string => !!h);
  const retrieve = (h: string) => getBlob(store.get()!, h);
  return { input, output, streamed: p.report.streamed, handles, retrieve, close: () => store.close() };
}

const plain = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} step ${['one', 'two', 'three', 'four'][i % 4]} of the ${tag} job\n`).join('');
const green = (s: string) => `\x1b[32m${s}\x1b[0m`;

t.test('defect 6: a slow failing run with nothing removed is its raw bytes, no marker', async (t) => {
  const r = await streamed([plain(5, 'build'), plain(5, 'test') + 'Error: it broke\n'], {}, 3);
  t.ok(r.streamed, 'the pause crossed the hold window');
  t.equal(r.output.toString(), r.input.toString(), 'exactly the raw bytes');
  t.notMatch(r.output.toString(), /\[omni:/, 'no marker');
  r.close();
});

t.test('defect 6 through the exec door: a failing command past OMNI_HOLD_MS comes back raw', async (t) => {
  const script = 'echo "compiling one"; echo "compiling two"; sleep 0.4; echo "Error: it broke"; exit 5';
  const r = omni(['exec', script], { env: { OMNI_HOLD_MS: '50', OMNI_HOLD_IDLE_MS: '50' } });
  t.equal(r.status, 5);
  t.equal(r.stdout.toString(), 'compiling one\ncompiling two\nError: it broke\n', 'the raw bytes, no closing marker');
});

t.test('defect 5: one coloured line while streaming does not pay for a receipt, so it goes out raw', async (t) => {
  const r = await streamed([plain(3, 'build'), green('ok') + '\n' + plain(3, 'test')]);
  t.ok(r.streamed);
  t.ok(r.output.length <= r.input.length, `never larger: ${r.output.length} <= ${r.input.length}`);
  t.equal(r.output.toString(), r.input.toString(), 'too little to bank: the raw bytes, colour and all');
  r.close();
});

t.test('defect 5, failing: a few coloured lines past the hold window never make the output larger', async (t) => {
  const r = await streamed([plain(2, 'build'), green('ok') + '\n', green('warn') + '\nError: it broke\n'], {}, 1);
  t.ok(r.output.length <= r.input.length, `never larger: ${r.output.length} <= ${r.input.length}`);
  r.close();
});

t.test('P1 while streaming: once the savings pay for it, colour is stripped and the receipt names the whole raw input', async (t) => {
  const coloured = Array.from({ length: 60 }, (_, i) => green(`passed case ${['alpha', 'beta', 'gamma'][i % 3]} ${i}`) + '\n').join('');
  const r = await streamed([plain(3, 'build'), coloured, coloured + 'done\n'], {}, 2);
  t.ok(r.streamed);
  const out = r.output.toString();
  t.ok(r.output.length <= r.input.length, `never larger: ${r.output.length} <= ${r.input.length}`);
  t.ok(out.split('\n').some((l) => l.startsWith('passed case')), 'some lines went out without their colour codes');
  const whole = r.handles.map(r.retrieve).filter((b) => b && b.equals(r.input));
  t.equal(whole.length, 1, 'one marker names a handle that retrieves the whole raw input');
  t.match(out, /exit 2/, 'the receipt of a failing run says so');
  t.match(out.split('\n').at(-2)!, MARKER_RE, 'the receipt closes the output');
  t.ok(out.includes('\ndone\n['), 'after the last line');
  r.close();
});

t.test('squeezed blank lines while streaming: put back when they cannot pay for the receipt', async (t) => {
  const few = await streamed([plain(3, 'build'), 'first\n\n\n\nsecond\n' + plain(2, 'test')]);
  t.ok(few.streamed);
  t.equal(few.output.toString(), few.input.toString(), 'three blank lines do not pay for a receipt: all of them go out');
  few.close();
  const many = await streamed([plain(3, 'build'), 'first\n' + '\n'.repeat(600) + 'second\n' + plain(2, 'test')]);
  const out = many.output.toString();
  t.ok(many.output.length < many.input.length, `smaller: ${many.output.length} < ${many.input.length}`);
  t.match(out, /blank lines removed/, 'the receipt says what went');
  t.ok(many.handles.some((h) => many.retrieve(h)?.equals(many.input)), 'and names the whole raw input');
  many.close();
});

t.test('with no archive a stream changes nothing in place (no receipt could name the raw input)', async (t) => {
  const coloured = Array.from({ length: 60 }, (_, i) => green(`passed case ${i}`) + '\n').join('');
  const r = await streamed([plain(3, 'build'), coloured, coloured], { archive: false });
  t.ok(r.streamed);
  t.equal(r.output.toString(), r.input.toString());
  r.close();
});

t.test('the same stream with no pause is held and judged whole: never larger either', async (t) => {
  const coloured = Array.from({ length: 60 }, (_, i) => green(`passed case ${i}`) + '\n').join('');
  for (const input of [green('ok') + '\n' + plain(3, 'x'), plain(3, 'build') + coloured]) {
    const home = tempHome();
    const store = new LazyStore(home);
    const p = createPipeline(describeRun({ door: 'pipe', hold: { ms: Infinity } }), { archive: store.archive() });
    const out: Buffer[] = [];
    const done = new Promise<void>((resolve) => { p.on('data', (b: Buffer) => out.push(b)); p.on('end', () => resolve()); });
    p.end(Buffer.from(input));
    await done;
    t.ok(Buffer.concat(out).length <= Buffer.byteLength(input), `${Buffer.concat(out).length} <= ${Buffer.byteLength(input)}`);
    store.close();
  }
});
