/** `omni rules` in process (lib/cli/rules.ts run()): the same paths the bundle tests take, and the diff. */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { run, lineDiff } from '../../lib/cli/rules.js';
import { project, TAR_COMMAND, TAR_RULE, TAR_VERBOSE } from './project.js';

async function rules(args: string[], home: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (b) => (out += b));
  stderr.on('data', (b) => (err += b));
  const before = process.env.OMNI_HOME;
  process.env.OMNI_HOME = home;
  try {
    const status = await run(args, { stdout, stderr });
    return { status, out, err };
  } finally {
    if (before === undefined) delete process.env.OMNI_HOME;
    else process.env.OMNI_HOME = before;
  }
}

t.test('lineDiff: - expected, + actual, in order', async (t) => {
  t.same(lineDiff('a\nb\nc\n', 'a\nx\nc\n'), [' a', '+x', '-b', ' c']);
  t.same(lineDiff('a\n', 'a\n'), [' a']);
});

t.test('trust, test, explain; usage errors exit 2', async (t) => {
  const expected = ['[omni: 10 members hidden by rule tar-members — omni retrieve 0123456789abcdef]', 'src/app.conf', '[omni: 16 members hidden by rule tar-members — omni retrieve …]'];
  const p = project({ rules: [{ ...TAR_RULE, examples: [{ command: TAR_COMMAND, input: TAR_VERBOSE, output: expected }, { input: 'src/\n', output: 'src/\n' }] }] });
  const cwd = ['--cwd', p.dir];
  t.equal((await rules(['trust', ...cwd], p.home)).status, 0);
  const ok = await rules(['test', ...cwd], p.home);
  t.equal(ok.status, 0, ok.out + ok.err);
  t.match(ok.out, /ok {3}project rule tar-members example 2 \(tar\)/, 'the default command: the rule\'s program');
  t.match(ok.out, /ok: 2 examples run/);
  const ex = await rules(['explain', ...cwd, 'tar', '-xf', 'a.tar'], p.home);
  t.match(ex.out, /^owner: {4}rule:project:tar-members$/m);
  t.equal((await rules(['explain', ...cwd], p.home)).status, 2);
  t.equal((await rules(['bogus'], p.home)).status, 2);
  t.equal((await rules(['test', '--bogus'], p.home)).status, 2);
  t.equal((await rules(['test', '--cwd'], p.home)).status, 2);
  const none = await rules(['trust', '--cwd', p.home], p.home);
  t.equal(none.status, 1);
  t.match(none.err, /no \.omni\/rules\.json in/);
  t.equal((await rules(['test', '/nonexistent/rules.json'], p.home)).status, 1);
});

t.test('a failing example says why next to its diff: a fold that does not pay, a line kept, structured output, a failing exit', async (t) => {
  const lines = TAR_VERBOSE.trim().split('\n');
  const short = ['src/', 'src/a.js', 'src/app.conf', 'tar: src/x: file changed as we read it (warning)', 'x/y/z'];
  const marker = (n: number) => `[omni: ${n} members hidden by rule tar-members — omni retrieve <handle>]`;
  const p = project({ rules: [{ ...TAR_RULE, hide: [...TAR_RULE.hide, '^tar: '], examples: [
    // 1: every run too small to pay for its marker, a keep pattern, a signal line
    { command: TAR_COMMAND, input: short, output: [marker(2), 'src/app.conf', short[3], 'x/y/z'] },
    // 2: a failure line and a failure word inside what the author thought one run
    { command: TAR_COMMAND, input: [...lines.slice(0, 10), 'tar: Killed', 'src/lib/timeout.js', ...lines.slice(11)], output: [marker(28)] },
    // 3: two-column CSV: the guard passes it through
    { command: TAR_COMMAND, input: lines.map((l, i) => `${l},${i}`), output: [marker(lines.length)] },
    // 4: a failing command comes back verbatim
    { command: TAR_COMMAND, input: TAR_VERBOSE, output: [marker(10), 'src/app.conf', marker(16)], exitCode: 2 },
  ] }] });
  const r = await rules(['test', p.rulesFile], p.home);
  t.equal(r.status, 1);
  const block = (k: number) => r.out.split(/^(?=FAIL|ok)/m).find((b) => b.startsWith(`FAIL project rule tar-members example ${k} `)) ?? '';
  t.match(block(1), /^ {2}why: lines 1-2 match hide, but those 2 are 14 bytes, not more than the \d+ bytes of the marker that would stand for them \(a fold is made only when it pays\), so they stay$/m);
  t.match(block(1), /^ {2}why: line 3 "src\/app\.conf" matches hide but stays: a keep pattern matches it$/m);
  t.match(block(1), /^ {2}why: line 4 "tar: src\/x: file changed as we read it \(warning\)" matches hide but stays: classify calls it a signal/m);
  t.match(block(1), /^ {2}why: the distilled output would save under 100 bytes \(or 10% of the input\)/m);
  t.match(block(2), /^ {2}why: line 11 "tar: Killed" matches hide but stays: classify calls it a failure line, which no rule may hide$/m);
  t.match(block(2), /^ {2}why: line 12 "src\/lib\/timeout\.js" matches hide but stays: it says "timeout", a word that may state a failure/m);
  t.match(block(3), /^ {2}why: the guard saw CSV output: structured data reaches no distiller and no rule, byte for byte$/m);
  t.match(block(4), /^ {2}why: the command failed \(exit 2\): a failing command's output comes back verbatim$/m);
  for (const k of [1, 2, 3, 4]) t.match(block(k), /output differs \(- expected, \+ actual\):\n[\s\S]*\n {2}why: /, `example ${k}: the reasons follow the diff`);
});
