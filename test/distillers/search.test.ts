import t from 'tap';
import { distillCase } from '../helpers/cases.js';

for (const name of ['721-grep-rn', '722-rg']) {
  t.test(`keeps every match of ${name.slice(4)} grouped by file`, async (t) => {
    const { r, text, rawText } = await distillCase(name);
    t.equal(r.distiller, 'search');
    const out = text.split('\n');
    const files = new Set<string>();
    for (const l of rawText.trimEnd().split('\n')) {
      const m = /^(.+?):(\d+):(.*)$/.exec(l)!;
      files.add(m[1]);
      t.ok(out.includes(`  ${m[2]}:${m[3]}`) || out.includes(l), `match ${m[1]}:${m[2]}`);
    }
    for (const f of files) t.ok(out.includes(f) || out.some((o) => o.startsWith(`${f}:`)), `file ${f} named`);
    t.ok(r.outBytes < r.rawBytes, 'the grouping shrinks the output');
  });
}

t.test('grep -c output (one line per file) comes back unchanged', async (t) => {
  const { r, c } = await distillCase('728-grep-count');
  t.ok(r.output.equals(c.output));
});

t.test('a grep that prints no file names is never regrouped', async (t) => {
  // Same bytes, but a single-file grep -n: `a:12:b` is text, not `path:line:match`.
  const { r, c } = await distillCase('721-grep-rn', 'grep -n "require(" lib/router/index.js');
  t.equal(r.distiller, 'search');
  t.ok(r.output.equals(c.output));
});

t.test('a match line that is not UTF-8 stays whole and the rows after it name their file', async (t) => {
  const { distill } = await import('../helpers/omni.js');
  const row = (f: string, n: number) => `packages/billing/src/pricing/${f}.c:${n}:    total += price_${n}(cart, &rate);\n`;
  const bad = Buffer.from('packages/billing/src/pricing/latin.c:3:    /* prix en \xe9cus */ total += price_3(cart, &rate);\n', 'latin1');
  const input = Buffer.concat([
    ...[1, 2].map((n) => Buffer.from(row('cart', n))),
    bad,
    ...[4, 5, 6, 7, 8, 9].map((n) => Buffer.from(row('latin', n))),
    ...[10, 11, 12, 13].map((n) => Buffer.from(row('cart', n))),
  ]);
  const r = await distill(input, { command: 'grep -rn price_ src' });
  t.equal(r.verbatim, null, 'grouped');
  t.ok(r.output.includes(bad), 'the Latin-1 line whole, byte for byte');
  const out = r.output.toString('latin1').split('\n');
  const at = out.indexOf(bad.toString('latin1').trimEnd());
  t.equal(out[at + 1], 'packages/billing/src/pricing/latin.c', 'the next rows of its file are grouped under their path again');
  t.equal(out[at + 2], '  4:    total += price_4(cart, &rate);');
});
