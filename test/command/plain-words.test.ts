/**
 * The plain-word parser (the only lines the pre-hook may rewrite) and the generous forms the
 * deny/ask matcher reads (lib/command/respell.ts), by example. The properties over generated
 * lines are test/hosts/rewrite-safety.test.ts.
 */
import t from 'tap';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { plainWords, SHELL_WRAPPERS } from '../../lib/command/plain-words.js';
import { commandForms } from '../../lib/command/respell.js';
import { findBash } from '../../lib/doors/shell.js';
import { holds, runs } from '../helpers/property.js';

t.test('plain words: names, flags, paths and values separated by one space', async (t) => {
  for (const l of ['npm test', 'npm test -s -- a b', 'git log --format=%H -n 5', 'make deploy', 'npm install left-pad@1.3.0', 'pytest tests/unit -k a,b', 'g++ -O2 x.cc', 'go test ./...', 'cargo test --features=a:b']) {
    t.same(plainWords(l), l.split(' '), l);
  }
});

t.test('not plain: anything a shell or a matcher could read another way', async (t) => {
  const lines = [
    '', ' ', 'npm  test', 'npm\ttest', ' npm test', 'npm test ', 'npm test\n', 'npm\ntest',
    '"npm" test', "npm 'test'", '\\npm test', 'npm te\\st',
    'npm test -- $HOME', 'npm test -- ${HOME:0:3}', 'npm test -- $RANDOM', 'npm test -- `id`', 'npm test -- $(id)',
    'npm test -- {a,b}', 'npm test -- ~', 'npm test -- ~+', 'npm test -- a*', 'npm test -- a?', 'npm test -- [ab]',
    'npm test | tee x', 'npm test > x', 'npm test < x', 'npm test; x', 'npm test && x', 'npm test &', '(npm test)',
    'npm test #c', 'npm test -- !x', 'npm test -- a^b', 'npm tést',
    'FOO=1 npm test', '/usr/bin/npm test', './node_modules/.bin/jest', '%1', '-x test', '=x',
    ...[...SHELL_WRAPPERS].map((w) => `${w} npm test`),
  ];
  for (const l of lines) t.equal(plainWords(l), null, JSON.stringify(l));
});

t.test('a plain line means the same words to bash and to sh: what the rewrite hands on is what the host ran', async (t) => {
  const bash = findBash(process.env);
  if (!t.ok(bash, 'bash is here')) return;
  // Words from the plain alphabet, with the characters a shell treats specially where they may stand.
  const word = fc.stringMatching(/^[A-Za-z0-9_@%+=:,./-]{1,8}$/);
  const program = fc.constantFrom('npm', 'make', 'git', 'jest', 'pytest');
  await holds(t, 'plain words are read as themselves', fc.tuple(program, fc.array(word, { maxLength: 5 })), ([p, args]) => {
    const line = [p, ...args].join(' ');
    if (plainWords(line) === null) return null;
    // Replace the program by a printer of its argv, as both shells read the rest of the line.
    const probe = `printf '%s\\n' ${args.join(' ')}`;
    const outs = [bash!, '/bin/sh'].map((sh) => spawnSync(sh, ['-c', probe], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } }).stdout);
    const want = args.length ? args.map((a) => a + '\n').join('') : '\n';
    if (outs[0] !== want) return `bash read ${JSON.stringify(line)} as ${JSON.stringify(outs[0])}`;
    if (outs[1] !== want) return `sh read ${JSON.stringify(line)} as ${JSON.stringify(outs[1])}`;
    return null;
  }, { numRuns: runs(60) });
});

t.test('the generous forms see through spacing, quotes, wrappers with options, paths, groups and case', async (t) => {
  const has = (line: string, form: string) => t.ok(commandForms(line).includes(form), `${JSON.stringify(line)} → ${JSON.stringify(form)}`);
  has('npm  test', 'npm test');
  has('npm\ttest', 'npm test');
  has('"npm" test', 'npm test');
  has("n'p'm te\\st", 'npm test');
  has("$'npm' test", 'npm test');
  has('env -u FOO -C /x FOO=1 npm test', 'npm test');
  has('nice -n 5 make deploy', 'make deploy');
  has('timeout --signal=KILL 60 npm test', 'npm test');
  has('sudo -u root -- npm test', 'npm test');
  has('/usr/local/bin/npm test', 'npm test');
  has('cd app && npm test', 'npm test');
  has('echo "$(npm test)"', 'npm test');
  has('bash -lc "npm test"', 'npm test');
  has('{ npm test; }', 'npm test');
  has('NPM Test', 'npm test');
  has('BAR="a b" npm test', 'npm test');
  has('npm test 2>&1 > log', 'npm test');
  has('make deploy >log', 'make deploy');
  has('{make,deploy}', 'make deploy');
  has('npm${IFS}test', 'npm test');
  t.notOk(commandForms('git commit -m x').includes('commit -m x'), 'no suffix of an ordinary command: only after a wrapper');
});
