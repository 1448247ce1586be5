import t from 'tap';
import { readFileSync } from 'node:fs';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

t.test('cargo build keeps every warning with its location and code excerpt', async (t) => {
  const d = await pipe(corpusCase('cargo-build-warnings'));
  t.equal(d.distiller, 'cargo-build');
  t.same(keptAll(d, /\S/), [], 'three scattered Compiling lines are not worth a fold');
});


t.test('a workspace build folds its run of Compiling lines to the first and last', async (t) => {
  const d = await pipe(corpusCase('cargo-build-workspace'));
  t.equal(d.distiller, 'cargo-build');
  const compiling = count(d.input, /^\s+Compiling /);
  t.ok(compiling >= 10, `${compiling} crates compiled`);
  t.equal(count(d.out, /^\s+Compiling /) + folded(d.markers, 'cargo progress lines'), compiling);
  t.same(keptAll(d, /warning|-->|\^|Finished/), []);
});


/** rustc's and clippy's words under every warning: the lint's docs link and its on-by-default note. */
const BOILERPLATE = /^\s*= help: for further information visit https:|^\s*= note: `#\[\w+\([\w:]+\)\]`.* on by default$/;

t.test('clippy: each warning keeps its location, source, carets and suggestions; its docs link and level note fold, naming the lint', async (t) => {
  for (const [c, command] of [[corpusCase('1154-cargo-clippy-lints'), undefined], [corpusCase('1155-cargo-build-dead-code'), undefined]] as const) {
    const d = await pipe(c, command);
    t.equal(d.distiller, 'cargo-build');
    t.same(keptAll(d, /^warning|-->|^\s*\d+ +[|+-]|\^|^help:|= help: (?!for further information)|= note: (?!`#\[)|generated \d+ warnings|Finished/), [], c.name);
    const left = count(d.out, BOILERPLATE);
    const hidden = count(d.input, BOILERPLATE) - left;
    // Every marker stands for one warning's boilerplate and says what it was.
    for (const m of d.markers) t.match(m, /^(#\[warn\([\w:]+\)\] on by default(, docs link)?|clippy::\w+: docs link)$/, m);
    t.ok(d.markers.length <= hidden, `${d.markers.length} markers for ${hidden} lines`);
    t.ok(d.out.length <= d.input.length);
    if (c.name.startsWith('1154')) {
      t.equal(count(d.out, /for further information visit/), 0, 'no docs link is left');
      t.ok(d.markers.includes('#[warn(clippy::len_zero)] on by default, docs link'));
      t.ok(d.out.length < d.input.length * 0.9, `${d.input.length} -> ${d.out.length}`);
    }
  }
});

t.test("the session's clippy run: six warnings, each one's boilerplate one marker where it stood", async (t) => {
  const input = readFileSync(new URL('../fixtures/sessions-chatter/cargo-clippy.txt', import.meta.url));
  const r = await distill(input, { command: 'cargo clippy', door: 'pipe' });
  const text = r.output.toString('utf8');
  t.match(text, /\n {2}\|\s+\^+ help: using `is_empty` is clearer and more explicit: `xs.is_empty\(\)`\n\[omni: #\[warn\(clippy::len_zero\)\] on by default, docs link — omni retrieve [0-9a-f]{16}\]\n\nwarning: /);
  // A help of its own (`consider using checked_div`) stays, with the gutter line above it.
  t.match(text, /\n {3}\|\n {3}= help: consider using `checked_div`\n\[omni: /);
  t.ok(r.outBytes < r.rawBytes * 0.9, `${r.rawBytes} -> ${r.outBytes}`);
});

t.test('under an error the same lines stay: nothing of a failure is taken', async (t) => {
  const input = [
    '    Checking lints v0.1.0 (/tmp/lints)',
    'error: this comparison involving the minimum or maximum element for this type contains a case that is always true or always false',
    ' --> src/lib.rs:2:5',
    '  |',
    '2 |     x >= u32::MIN',
    '  |     ^^^^^^^^^^^^^',
    '  |',
    '  = help: because `u32::MIN` is the minimum value for this type, this comparison is always true',
    '  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#absurd_extreme_comparisons',
    '  = note: `#[deny(clippy::absurd_extreme_comparisons)]` on by default',
    '',
    'error: could not compile `lints` (lib) due to 1 previous error',
    '',
  ].join('\n');
  const r = await distill(Buffer.from(input), { command: 'cargo clippy', door: 'pipe' });
  t.equal(r.output.toString('utf8'), input);
});
