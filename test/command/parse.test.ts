import t from 'tap';
import { analyzeCommand, peelWrappers, producerCount, tokenize, basename } from '../../lib/command/parse.js';
import { routeCommand } from '../../lib/distillers/registry.js';

const argvOf = (cmd: string) => analyzeCommand(cmd).argv;

t.test('wrappers are peeled to the producer, with their options and option values', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['npx jest --ci', ['jest', '--ci']],
    ['npx --yes jest', ['jest']],
    ['npx -p typescript tsc --noEmit', ['tsc', '--noEmit']],
    ['env FOO=1 go test ./...', ['go', 'test', './...']],
    ['env -i PATH=/usr/bin make', ['make']],
    ['env -u HOME go test', ['go', 'test']],
    ['env --unset=HOME go test', ['go', 'test']],
    ['env -C web npm test', ['npm', 'test']],
    ['time go test', ['go', 'test']],
    ['time -p go test', ['go', 'test']],
    ['nice -n 10 cargo test', ['cargo', 'test']],
    ['nice cargo build', ['cargo', 'build']],
    ['timeout 60 pytest -q', ['pytest', '-q']],
    ['timeout -s KILL 60 pytest -q', ['pytest', '-q']],
    ['timeout -k 5 60 make', ['make']],
    ['stdbuf -oL make', ['make']],
    ['stdbuf -o L make', ['make']],
    ['nohup make', ['make']],
    ['exec jest', ['jest']],
    ['bunx vitest run', ['vitest', 'run']],
    ['pnpx vitest', ['vitest']],
    ['time nice -n 5 npx jest', ['jest']],
    ['/usr/bin/env go test', ['go', 'test']],
  ];
  for (const [cmd, want] of cases) t.same(argvOf(cmd), want, cmd);
  t.equal(analyzeCommand('npx jest').program, 'jest');
  t.equal(analyzeCommand('./node_modules/.bin/jest').program, 'jest', 'program is the basename');
});

t.test('a wrapper with nothing to run is the producer itself', async (t) => {
  t.same(argvOf('env'), ['env'], 'bare env prints the environment');
  t.same(argvOf('env -0'), ['env', '-0']);
  t.same(argvOf('time'), ['time']);
  t.same(peelWrappers([]), []);
  t.same(argvOf('command -v jest'), ['command', '-v', 'jest'], 'command -v looks jest up, it does not run it');
  t.same(argvOf('command -V make'), ['command', '-V', 'make']);
  t.same(argvOf('command make'), ['make'], 'plain command runs it');
});

t.test('package-manager runners stay in argv: the registry decides what they run', async (t) => {
  t.same(argvOf('pnpm exec jest'), ['pnpm', 'exec', 'jest']);
  t.same(argvOf('yarn jest --ci'), ['yarn', 'jest', '--ci']);
  t.equal(routeCommand('pnpm exec jest').distiller, 'jest');
  t.equal(routeCommand('yarn jest --ci').distiller, 'jest');
  t.equal(routeCommand('bunx vitest run').distiller, 'vitest');
  t.equal(routeCommand('env -u X npx jest').distiller, 'jest');
});

t.test('leading assignments are set-up, not the producer', async (t) => {
  t.same(argvOf('CI=1 FOO=bar npx jest'), ['jest']);
  t.same(argvOf('FOO="a b" make'), ['make']);
  t.same(analyzeCommand('FOO="a b" make').segments, [[['FOO=a b', 'make']]], 'the quoted value is one word');
  t.same(argvOf('X=1'), [], 'an assignment alone runs nothing');
  t.equal(analyzeCommand('X=1').program, '');
  t.equal(producerCount(analyzeCommand('X=1')), 0);
  t.equal(analyzeCommand('OMNI_PASSTHROUGH=1 npm test').passthroughPrefix, true);
  t.equal(analyzeCommand('npm test').passthroughPrefix, false);
});

t.test('cd chains and set-up segments leave one producer', async (t) => {
  const a = analyzeCommand('cd web && npm test');
  t.same(a.argv, ['npm', 'test']);
  t.same(a.segments, [[['cd', 'web']], [['npm', 'test']]]);
  t.equal(a.hasSequence, false, '&& is not a ; sequence');
  t.equal(producerCount(a), 1);
  t.same(argvOf('cd "my dir" && make'), ['make']);
  t.same(argvOf('export CI=1 && cd web && CI=1 npm test'), ['npm', 'test']);
  t.same(argvOf('mkdir -p out && make'), ['make'], 'mkdir prints nothing: make is the producer');
  t.equal(producerCount(analyzeCommand('mkdir -p out && make')), 1);
  t.same(argvOf('rm -rf build'), ['rm', '-rf', 'build'], 'where nothing prints, the first segment is analysed');
  t.equal(producerCount(analyzeCommand('rm -rf build')), 0);
  t.equal(routeCommand('cd web && CI=1 npm test').distiller, 'npm-test');
});

t.test('sequences ; && || and & split segments and count producers', async (t) => {
  const semi = analyzeCommand('make; make test');
  t.equal(semi.hasSequence, true);
  t.same(semi.segments, [[['make']], [['make', 'test']]]);
  t.equal(producerCount(semi), 2);
  t.same(semi.argv, ['make'], 'the first producer is the one analysed');
  const or = analyzeCommand('npm test || echo failed');
  t.equal(or.hasSequence, false);
  t.equal(producerCount(or), 2);
  t.same(analyzeCommand('a && b | c').segments, [[['a']], [['b'], ['c']]]);
  const bg = analyzeCommand('npm run dev &');
  t.equal(bg.hasBackground, true);
  t.same(bg.argv, ['npm', 'run', 'dev']);
  t.same(routeCommand('make; make test').producers!.map((p) => p.argv), [['make'], ['make', 'test']], 'several producers, each routed');
});

t.test('a segment whose standard output goes to a file prints nothing to the stream', async (t) => {
  const a = analyzeCommand('make clean >/dev/null && make');
  t.same(a.producers.map((p) => p.argv), [['make']]);
  t.same(a.argv, ['make']);
  t.same(analyzeCommand('cargo clean >/dev/null 2>&1 && cargo build --release').producers.map((p) => p.argv), [['cargo', 'build', '--release']]);
  t.same(analyzeCommand('make clean &>/dev/null; make').producers.map((p) => p.argv), [['make']]);
  t.same(analyzeCommand('./gen.sh > out.txt && cat out.txt').producers.map((p) => p.argv), [['cat', 'out.txt']]);
  t.same(analyzeCommand('make 2>/dev/null && make test').producers.map((p) => p.argv), [['make'], ['make', 'test']], 'only stderr redirected: it still prints');
  t.same(analyzeCommand('make >&2 && make test').producers.map((p) => p.argv), [['make'], ['make', 'test']], 'stdout onto stderr: it still prints');
  t.same(analyzeCommand('printf x > bad.tf; terraform plan; rc=$?; rm -f bad.tf; exit $rc').producers.map((p) => p.argv), [['terraform', 'plan']], 'set-up, quiet and silenced segments are no producers');
});

t.test('a command run in a container or a pod is the inner command', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['docker compose exec app pytest -q', ['pytest', '-q']],
    ['docker compose exec -T -e CI=1 app npm test', ['npm', 'test']],
    ['docker compose -f dev.yml exec app go test ./...', ['go', 'test', './...']],
    ['docker-compose exec web rake test', ['rake', 'test']],
    ['docker compose run --rm app pytest', ['pytest']],
    ['docker exec -it -u root ctr make test', ['make', 'test']],
    ['docker container exec ctr ls', ['ls']],
    ['podman exec ctr cargo test', ['cargo', 'test']],
    ['kubectl exec -it pod-1 -- go test ./...', ['go', 'test', './...']],
    ['kubectl -n web exec pod-1 -c app -- env X=1 pytest', ['pytest']],
  ];
  for (const [cmd, want] of cases) t.same(argvOf(cmd), want, cmd);
  t.ok(analyzeCommand('docker compose exec app pytest').producers[0].container);
  t.notOk(analyzeCommand('env X=1 pytest').producers[0].container);
  for (const cmd of ['docker ps', 'docker compose up', 'docker exec ctr', 'kubectl exec pod-1', 'kubectl get pods', 'docker compose logs app']) {
    t.same(argvOf(cmd), cmd.split(' '), `${cmd}: no inner command`);
  }
});

t.test('pipes: the tail is the last stage; keeping tails leave the producer in charge', async (t) => {
  const a = analyzeCommand('npm test 2>&1 | tail -5');
  t.equal(a.hasUnquotedPipe, true);
  t.same(a.argv, ['npm', 'test']);
  t.same(a.tail, ['tail', '-5']);
  t.equal(a.hasRedirect, false, '2>&1 alone only merges the streams');
  t.same(analyzeCommand('make 2>&1|tail').tail, ['tail'], 'no spaces around the pipe');
  t.same(analyzeCommand('npm test |& head').tail, ['head']);
  t.same(analyzeCommand('a | b | c').tail, ['c']);
  t.equal(analyzeCommand('npm test').tail, null);
  t.equal(routeCommand('npm test | tail -20').distiller, 'npm-test');
  t.equal(routeCommand('cargo test 2>&1 | head -50').distiller, 'cargo-test');
  // tee prints every byte it reads (and writes a copy): the producer's output is what arrives.
  t.equal(routeCommand('go test -v ./... 2>&1 | tee out.txt').distiller, 'go-test', 'tee keeps the producer');
  t.equal(routeCommand('npm test | tee -a test.log').distiller, 'npm-test', 'tee -a keeps the producer');
  t.equal(routeCommand('npm test | jq .').distiller, null, 'jq reshapes');
  t.equal(routeCommand('npm test | wc -l').distiller, null, 'wc reshapes');
  t.not(routeCommand('npm test | grep FAIL').distiller, 'npm-test', 'grep owns what it prints');
});

t.test('redirections: the target is not an argument, 2>&1 is not a redirect of its own', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['go test ./... 2>/dev/null', ['go', 'test', './...']],
    ['go test ./... 2> err.txt', ['go', 'test', './...']],
    ['jest >out.txt', ['jest']],
    ['jest > out.txt --ci', ['jest', '--ci']],
    ['make >> build.log', ['make']],
    ['sort <in.txt', ['sort']],
    ['cmd &>log', ['cmd']],
    ['go test ./... > /tmp/x 2>&1', ['go', 'test', './...']],
    ['ls 2>>err', ['ls']],
  ];
  for (const [cmd, want] of cases) {
    const a = analyzeCommand(cmd);
    t.same(a.argv, want, cmd);
    t.equal(a.hasRedirect, true, `${cmd}: redirect`);
    t.equal(a.hasBackground, false, `${cmd}: no background`);
    t.equal(a.hasUnquotedPipe, false, `${cmd}: no pipe`);
  }
  t.same(argvOf('echo a2>b'), ['echo', 'a2'], 'a 2 inside a word is not a file descriptor');
});

t.test('file-descriptor numbers and duplications are redirections', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['cmd 1>out', ['cmd']],
    ['cmd 3>out --flag', ['cmd', '--flag']],
    ['cmd 0<in', ['cmd']],
    ['cmd 1>>out', ['cmd']],
    ['cmd >&2', ['cmd']],
    ['cmd 1>&2 --ci', ['cmd', '--ci']],
    ['cmd 2>&-', ['cmd']],
    ['cmd >| out', ['cmd']],
  ];
  for (const [cmd, want] of cases) {
    const a = analyzeCommand(cmd);
    t.same(a.argv, want, cmd);
    t.equal(a.hasRedirect, true, `${cmd}: redirect`);
    t.equal(a.hasBackground, false, `${cmd}: >& is not a background &`);
    t.equal(a.hasUnquotedPipe, false, `${cmd}: >| is not a pipe`);
    t.same(a.segments.length, 1, `${cmd}: one segment`);
  }
  t.same(argvOf('echo 12 34'), ['echo', '12', '34'], 'a number not before > is a word');
});

t.test('quoting: operators inside quotes are text, escapes are honoured', async (t) => {
  t.same(argvOf("echo 'a|b'"), ['echo', 'a|b']);
  t.equal(analyzeCommand("echo 'a|b'").hasUnquotedPipe, false);
  t.same(argvOf('echo "a && b; c > d"'), ['echo', 'a && b; c > d']);
  t.equal(analyzeCommand('echo "a && b; c > d"').hasRedirect, false);
  t.same(argvOf('echo "x \\"y\\" z"'), ['echo', 'x "y" z']);
  t.same(argvOf('echo a\\ b'), ['echo', 'a b']);
  t.same(argvOf('echo \\|'), ['echo', '|'], 'an escaped pipe is a word');
  t.same(argvOf("echo \"a'b\""), ['echo', "a'b"]);
  t.same(argvOf("echo 'a\"b'"), ['echo', 'a"b']);
  t.same(argvOf("echo 'a\\b'"), ['echo', 'a\\b'], 'no escapes inside single quotes');
  t.same(argvOf('echo ab"cd"\'ef\''), ['echo', 'abcdef'], 'adjacent quoted parts make one word');
  t.same(argvOf('go test -run "Test A" ./...'), ['go', 'test', '-run', 'Test A', './...']);
  t.same(argvOf("echo ''"), ['echo', ''], 'an empty quoted word is a word');
  t.same(argvOf('  npm\ttest  '), ['npm', 'test'], 'tabs and surrounding blanks');
});

t.test('a comment ends the line; a # inside a word does not', async (t) => {
  const a = analyzeCommand('npm test # run the suite | grep x');
  t.same(a.argv, ['npm', 'test']);
  t.equal(a.hasUnquotedPipe, false, 'a pipe in a comment is not a pipe');
  t.equal(a.tail, null);
  t.same(argvOf('echo a#b'), ['echo', 'a#b']);
  t.same(argvOf("echo '#x'"), ['echo', '#x']);
  t.equal(routeCommand('npm test # | grep FAIL').distiller, 'npm-test');
});

t.test('$(…) and backticks are flagged and stay inside their word', async (t) => {
  for (const cmd of ['echo $(date)', 'echo `date`', 'echo "$(date)"', 'echo "`date`"', 'cat <<EOF']) {
    t.equal(analyzeCommand(cmd).hasSubshell, true, cmd);
  }
  t.equal(analyzeCommand("echo '$(date)'").hasSubshell, false, 'single quotes make it text');
  t.equal(analyzeCommand('echo $HOME').hasSubshell, false);
  const a = analyzeCommand('npm test -- $(git ls-files | grep spec)');
  t.equal(a.hasUnquotedPipe, false, 'the pipe inside $(…) is not the line\'s pipe');
  t.equal(a.tail, null);
  t.same(a.argv, ['npm', 'test', '--', '$(git ls-files | grep spec)']);
  const b = analyzeCommand('jest `git diff --name-only; echo x`');
  t.equal(b.hasSequence, false, 'the ; inside backticks is not the line\'s');
  t.same(b.argv, ['jest', '`git diff --name-only; echo x`']);
  t.same(argvOf('echo $(a $(b) c) d'), ['echo', '$(a $(b) c)', 'd'], 'nested');
  t.same(argvOf('echo $(echo ")") d'), ['echo', '$(echo ")")', 'd'], 'a quoted ) does not close');
  t.equal(routeCommand('npm test -- $(git ls-files | grep spec)').distiller, 'npm-test');
});

t.test('subshells ( … ): flagged; the words inside are not glued to the parentheses', async (t) => {
  const a = analyzeCommand('(cd web && make)');
  t.equal(a.hasSubshell, true);
  t.same(a.argv, ['make']);
  t.equal(a.program, 'make');
  t.equal(producerCount(a), 1);
  t.same(argvOf('( make test )'), ['make', 'test']);
});

t.test('malformed lines are reported, never guessed at', async (t) => {
  for (const cmd of ["echo 'abc", 'echo "abc', 'npm test "unclosed | tail', 'echo $(date', 'echo `date']) {
    t.equal(analyzeCommand(cmd).malformed, true, cmd);
    t.equal(routeCommand(cmd).distiller, null, `${cmd}: passed through`);
  }
  t.equal(analyzeCommand('echo "a\\"').malformed, true, 'an escaped closing quote does not close');
  t.equal(analyzeCommand('echo ok').malformed, false);
  t.equal(analyzeCommand('echo trailing\\').malformed, false, 'a trailing backslash is kept as text');
});

t.test('interactive programs are recognised', async (t) => {
  for (const cmd of ['vim', 'less README.md', 'ssh host', 'python3', 'git rebase -i HEAD~3', 'npx jest --watch']) {
    t.equal(analyzeCommand(cmd).interactive, true, cmd);
  }
  for (const cmd of ['python3 script.py', 'node build.js', 'npm test', 'git log']) {
    t.equal(analyzeCommand(cmd).interactive, false, cmd);
  }
});

t.test('tokenize and basename', async (t) => {
  t.same(tokenize('a|b').tokens, [{ word: 'a' }, { op: '|' }, { word: 'b' }]);
  t.same(tokenize('a 2>&1').tokens, [{ word: 'a' }, { op: '2>&1' }]);
  t.same(tokenize('').tokens, []);
  t.equal(basename('/usr/bin/env'), 'env');
  t.equal(basename('jest'), 'jest');
  t.equal(basename(''), '');
});

t.test('empty and blank lines', async (t) => {
  for (const cmd of ['', '   ', ';', '&&']) {
    const a = analyzeCommand(cmd);
    t.same(a.argv, [], JSON.stringify(cmd));
    t.equal(a.program, '');
    t.equal(producerCount(a), 0);
  }
});
