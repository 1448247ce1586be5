import t from 'tap';
import { readFileSync } from 'node:fs';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

t.test("cargo build keeps every warning's headline and location; the excerpt under it folds", async (t) => {
  const d = await pipe(corpusCase('cargo-build-warnings'));
  t.equal(d.distiller, 'cargo-build');
  t.same(keptAll(d, /^warning|-->|Compiling|Finished/), []);
  t.equal(count(d.out, /^\s*\d+ +\|/), 0, 'no source line is left');
  t.ok(d.markers.every((m) => /^excerpt/.test(m)), d.markers.join('; '));
});


t.test('a workspace build folds its run of Compiling lines to the first and last', async (t) => {
  const d = await pipe(corpusCase('cargo-build-workspace'));
  t.equal(d.distiller, 'cargo-build');
  const compiling = count(d.input, /^\s+Compiling /);
  t.ok(compiling >= 10, `${compiling} crates compiled`);
  t.equal(count(d.out, /^\s+Compiling /) + folded(d.markers, 'cargo progress lines'), compiling);
  t.same(keptAll(d, /warning|-->|Finished/), []);
});


/** rustc's and clippy's words under every warning: the lint's docs link and its on-by-default note. */
const BOILERPLATE = /^\s*= help: for further information visit https:|^\s*= note: `#\[\w+\([\w:]+\)\]`.* on by default$/;

t.test("clippy: each warning keeps its headline, location and `help:` headlines; its excerpt folds, the marker naming the lint", async (t) => {
  for (const c of [corpusCase('1154-cargo-clippy-lints'), corpusCase('1155-cargo-build-dead-code'), corpusCase('1173-cargo-clippy-style-lints')]) {
    const d = await pipe(c);
    t.equal(d.distiller, 'cargo-build');
    t.same(keptAll(d, /^warning|-->|^help:|generated \d+ warnings|Finished|Checking|Compiling/), [], c.name);
    t.equal(count(d.out, BOILERPLATE), 0, 'no docs link or level note is left');
    // Every marker stands for one excerpt and names the lint when the excerpt did.
    for (const m of d.markers) t.match(m, /^excerpt(, #\[warn\([\w:]+\)\]|, clippy::\w+| folded)$/, m);
    t.ok(d.markers.length <= count(d.input, /^warning: (?!`)|^help: /), `${d.markers.length} markers`);
    t.ok(d.out.length <= d.input.length);
  }
  const d = await pipe(corpusCase('1154-cargo-clippy-lints'));
  t.ok(d.markers.includes('excerpt, #[warn(clippy::len_zero)]'));
  t.ok(d.out.length < d.input.length * 0.6, `${d.input.length} -> ${d.out.length}`);
});

t.test("the session's clippy run: six warnings, each one's excerpt one marker where it stood", async (t) => {
  const input = readFileSync(new URL('../fixtures/sessions-chatter/cargo-clippy.txt', import.meta.url));
  const r = await distill(input, { command: 'cargo clippy', door: 'pipe' });
  const text = r.output.toString('utf8');
  t.match(text, /\nwarning: length comparison to zero\n --> src\/stats\.rs:5:8\n\[omni: excerpt, #\[warn\(clippy::len_zero\)\] — omni retrieve [0-9a-f]{16}\]\n\nwarning: /);
  // A `help:` headline of its own stays, its suggestion's excerpt folds after it.
  t.match(text, /\nhelp: consider using an iterator\n\[omni: excerpt folded — omni retrieve [0-9a-f]{16}\]\n/);
  t.ok(r.outBytes < r.rawBytes * 0.6, `${r.rawBytes} -> ${r.outBytes}`);
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
