import t from 'tap';
import { routeCommand } from '../../lib/distillers/registry.js';

t.test('test runners are routed by the program they run, behind wrappers and package runners', async (t) => {
  const cases: Array<[string, string]> = [
    ['npx jest --verbose', 'jest'],
    ['yarn jest --ci', 'jest'],
    ['./node_modules/.bin/jest', 'jest'],
    ['pnpm vitest run', 'vitest'],
    ['pnpm exec vitest', 'vitest'],
    ['npx mocha', 'mocha'],
    ['npx tap', 'tap'],
    ['node --test --test-reporter=spec', 'node-test'],
    ['python3 -m pytest -q', 'pytest'],
    ['uv run pytest', 'pytest'],
    ['go test -v ./...', 'go-test'],
    ['cargo test', 'cargo-test'],
    ['cargo nextest run', 'cargo-test'],
    ['bun test', 'bun-test'],
    ['ctest --output-on-failure', 'ctest'],
  ];
  for (const [cmd, want] of cases) t.equal(routeCommand(cmd).distiller, want, cmd);
});

t.test('npm test and friends do not say which runner runs: the content decides', async (t) => {
  for (const cmd of ['npm test', 'npm run test', 'npm t', 'yarn test', 'pnpm test', 'bun run test', 'cd web && CI=1 npm test', 'npm run test:unit']) {
    t.equal(routeCommand(cmd).distiller, 'npm-test', cmd);
  }
  t.equal(routeCommand('npm test | tail -20').distiller, 'npm-test', '| tail keeps the producer');
  t.not(routeCommand('npm test | grep FAIL').distiller, 'npm-test', '| grep owns its output');
});

t.test('builds, type-checkers and linters', async (t) => {
  const cases: Array<[string, string]> = [
    ['cargo build --release', 'cargo-build'],
    ['cargo clippy', 'cargo-build'],
    ['make -j8', 'cc'],
    ['cmake --build build', 'cc'],
    ['npx tsc --noEmit', 'tsc'],
    ['npx eslint src', 'eslint'],
    ['npx webpack --mode production', 'bundler'],
    ['npx esbuild src/app.ts --bundle', 'bundler'],
  ];
  for (const [cmd, want] of cases) t.equal(routeCommand(cmd).distiller, want, cmd);
  t.equal(routeCommand('cargo run').distiller, 'generic', 'cargo run prints the program\'s output');
});

t.test('test runners and builds may be rewritten by the pre-hook; piped ones may not', async (t) => {
  t.equal(routeCommand('npx jest').rewrite, true);
  t.equal(routeCommand('cargo build').rewrite, true);
  t.equal(routeCommand('npx jest | tail -5').rewrite, false);
  t.equal(routeCommand('npx eslint src').rewrite, false, 'a lint report is all answer: nothing to gain');
  t.equal(routeCommand('npx tsc --noEmit').rewrite, false, 'tsc diagnostics are all answer');
});

t.test('npm run build and friends are builds whose tool the content names', async (t) => {
  for (const cmd of ['npm run build', 'yarn build', 'pnpm build', 'pnpm run build:prod']) t.equal(routeCommand(cmd).distiller, 'npm-build', cmd);
  t.not(routeCommand('bun build ./src/index.ts').distiller, 'npm-build', "bun build is bun's bundler, not a script");
  t.not(routeCommand('npm install').distiller, 'npm-build');
});

t.test("a wrapper option's value is not the producer (env -u NAME, nice -n 5, timeout -s KILL)", async (t) => {
  const cases: Array<[string, string]> = [
    ['env -u HOME go test ./...', 'go-test'],
    ['env -C web npx jest', 'jest'],
    ['nice -n 10 cargo test', 'cargo-test'],
    ['timeout -s KILL 60 pytest -q', 'pytest'],
    ['env -i PATH=/usr/bin -u X go test', 'go-test'],
  ];
  for (const [cmd, want] of cases) t.equal(routeCommand(cmd).distiller, want, cmd);
});

t.test('a chain is routed by what each producer prints, not by its first word', async (t) => {
  const cases: Array<[string, string, string[][]]> = [
    // set-up (cd, export, VAR=…), quiet file operations (rm, mkdir) and silenced segments print nothing
    ['cd app && rm -rf node_modules && npm install', 'install', [['npm', 'install']]],
    ['make clean >/dev/null && make', 'cc', [['make']]],
    ['cargo clean >/dev/null 2>&1 && cargo build --release', 'cargo-build', [['cargo', 'build', '--release']]],
    ['mkdir -p out && cd out && cmake ..', 'cc', [['cmake', '..']]],
    ['printf x > bad.tf; terraform plan -no-color; rc=$?; rm -f bad.tf; exit $rc', 'infra', [['terraform', 'plan', '-no-color']]],
    ['cmake -S . -B build && cmake --build build', 'cc', [['cmake', '-S', '.', '-B', 'build'], ['cmake', '--build', 'build']]],
    ['npm ci && npm test', 'install', [['npm', 'ci'], ['npm', 'test']]],
  ];
  for (const [cmd, want, producers] of cases) {
    const r = routeCommand(cmd);
    t.equal(r.distiller, want, cmd);
    t.same(r.producers?.map((p) => p.argv), producers, `${cmd}: its producers`);
    t.equal(r.rewrite, false, `${cmd}: a chain is never rewritten`);
  }
  t.same(routeCommand('npm ci && npm test').producers!.map((p) => p.spec.name), ['install', 'npm-test'], 'each producer by its own spec');
  t.equal(routeCommand('cd web && npm test').rewrite, false, 'not even a chain of one producer');
});

t.test('a producer that names no tool is read by the specs its output names', async (t) => {
  for (const cmd of ['npm run release', 'yarn release', 'pnpm run ci:all', 'just test', 'rake test', 'timeout 60 rake', 'bundle exec rake test', 'make test', 'make', 'gmake check', 'nox', 'nox -s tests', 'tox', 'tox -e py311']) {
    const r = routeCommand(cmd);
    t.ok(r.mixed && r.known, `${cmd}: read by what its output names`);
    t.ok(r.producers!.every((p) => p.open), `${cmd}: open`);
  }
  t.equal(routeCommand('make test').distiller, 'cc', "make's own lines are cc's");
  t.equal(routeCommand('npm run release').rewrite, false, 'never rewritten where it was not');
  t.equal(routeCommand('make test').rewrite, true, "make test was cc's, and rewritten, before");
  t.equal(routeCommand('bundle exec rspec').distiller, 'rspec', 'a spec that declares the runner knows what runs');
  t.notOk(routeCommand('bundle exec rspec').mixed);
  // A program run by its path (a project's test binary, a script) names no tool either: alone,
  // its first lines choose its spec, as with no command; in a chain it is generic's, its lines
  // read by the specs they name (as `make test`'s are).
  for (const cmd of ['./release.sh', './build/money_test', 'build/tests --gtest_brief=1', '/opt/app/bin/selftest']) {
    const r = routeCommand(cmd);
    t.ok(r.sniff && !r.mixed, `${cmd}: read by the spec its first lines name`);
    t.equal(r.rewrite, false, `${cmd}: never rewritten`);
  }
  t.notOk(routeCommand('./build.sh && ./deploy.sh').sniff, 'a chain of them is not sniffed');
  t.notOk(routeCommand('./release.sh').mixed, 'a script no runner names is not a mixed run');
  t.notOk(routeCommand('release').sniff, 'a program on PATH that no spec owns stays generic');
  t.equal(routeCommand('./node_modules/.bin/jest').distiller, 'jest', 'a path to a tool a spec owns is that spec\'s');
  t.notOk(routeCommand('./node_modules/.bin/jest').mixed);
});

t.test('wrapped commands: timeout, env with options, npx with a version, a container', async (t) => {
  const cases: Array<[string, string]> = [
    ['timeout 60 npm test', 'npm-test'],
    ['env -u X npm test', 'npm-test'],
    ['npx -y yarn@1.22.22 test', 'npm-test'],
    ['npx -y pnpm@9.15.0 test', 'npm-test'],
    ['npx -y yarn@1.22.22 build', 'npm-build'],
    ['apt-get -o Dir::State::Lists=/tmp/lists update', 'install'],
    ['docker compose exec app pytest -q', 'pytest'],
    ['docker compose exec -T app npm test', 'npm-test'],
    ['docker exec -it api go test ./...', 'go-test'],
    ['kubectl exec -it api-0 -- go test ./...', 'go-test'],
    ['kubectl -n web exec api-0 -c app -- cargo test', 'cargo-test'],
  ];
  for (const [cmd, want] of cases) t.equal(routeCommand(cmd).distiller, want, cmd);
  t.equal(routeCommand('docker compose exec app pytest -q').rewrite, false, "a container's command is not rewritten");
  t.equal(routeCommand('docker compose exec app ls').distiller, 'enumeration', 'an answer inside a container is an answer');
  t.equal(routeCommand('docker logs api').distiller, 'logs', "docker's own subcommands are docker's");
});

t.test('an answer anywhere in a chain keeps every line', async (t) => {
  for (const cmd of ['npm test && git status', 'ls -la && make', 'cat ci.yml; npm run build', 'make 2>&1 | tee build.log && rg warning build.log']) {
    const r = routeCommand(cmd);
    t.ok(r.mixed && r.producers!.some((p) => p.answer), `${cmd}: an answer may be any line`);
  }
});
