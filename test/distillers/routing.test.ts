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
