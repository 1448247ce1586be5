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
