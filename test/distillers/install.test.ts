import t from 'tap';
import { distillCase } from '../helpers/cases.js';
import { distill } from '../helpers/omni.js';

t.test('hides npm http fetch lines behind one marker and keeps the added line', async (t) => {
  const { r, text, markers, rawText } = await distillCase('712-npm-ci-loglevel-http');
  t.equal(r.distiller, 'install');
  t.notOk(/^npm http fetch GET 200/m.test(text), 'no fetch lines');
  const fetches = rawText.split('\n').filter((l) => /^npm http fetch GET 200 /.test(l)).length;
  t.ok(markers.some((m) => m.includes(`${fetches} download, progress and notice lines hidden`)), `the marker counts the ${fetches} fetch lines`);
  { let seen = 0; for (const l of rawText.split('\n')) if (/^added \d+ packages|vulnerabilit/.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
});

t.test('keeps the packages apt-get installs, each Setting up line and its summary, hides unpack lines', async (t) => {
  const { text, rawText } = await distillCase('717-apt-get-install');
  for (const l of rawText.split('\n')) {
    if (/^  \S|newly installed|^Setting up |^E:|^W:/.test(l)) t.ok(text.includes(l), l);
    if (/^(Unpacking|Preparing to unpack|Selecting previously) /.test(l)) t.notOk(text.includes(l), `hidden: ${l}`);
  }
});

t.test('keeps pip warnings and Successfully installed, hides Collecting and Downloading', async (t) => {
  const { text, rawText } = await distillCase('714-pip-install');
  for (const l of rawText.split('\n')) {
    if (/^(WARNING|ERROR|Successfully installed)/.test(l)) t.ok(text.includes(l), l);
    if (/^(Collecting|  Downloading) /.test(l)) t.notOk(text.includes(l), `hidden: ${l}`);
  }
});

t.test('a repeated pip install keeps only what is not already satisfied', async (t) => {
  const { text, r } = await distillCase('715-pip-install-again');
  t.notOk(/Requirement already satisfied/.test(text));
  t.ok(r.outBytes < r.rawBytes * 0.2);
});

t.test('a short npm install comes back unchanged', async (t) => {
  const { r, c } = await distillCase('711-npm-install');
  t.ok(r.output.equals(c.output));
});

t.test('a failing install comes back unchanged', async (t) => {
  for (const [name, code] of [['713-npm-install-missing', 1], ['716-pip-install-missing', 1], ['718-apt-get-install-missing', 100]] as const) {
    const { r, c } = await distillCase(name, undefined, code);
    t.ok(r.output.equals(c.output), name);
  }
});

t.test('an install output it does not recognise comes back unchanged', async (t) => {
  // git log output under an npm install command: not one line is a known install line.
  const { r, c } = await distillCase('703-git-log-oneline', 'npm install');
  t.equal(r.distiller, 'install');
  t.ok(r.output.equals(c.output));
});

t.test('keeps the pnpm package list and its final Progress line, hides the progress before it', async (t) => {
  const { text, rawText } = await distillCase('720-pnpm-install');
  for (const l of rawText.split('\n')) {
    if (/^(Packages: |\+ |Done in|dependencies:|devDependencies:)|, done$/.test(l)) t.ok(text.includes(l), l);
    if (/^Progress: .*added \d+$/.test(l)) t.notOk(text.includes(l), `hidden: ${l}`);
  }
});

t.test('a slow install streamed line by line still folds its fetch lines into a few markers', async (t) => {
  const { RunState } = await import('../../lib/kit/stage.js');
  const { distillStage, specByName } = await import('../../lib/distillers/registry.js');
  const { corpusCase } = await import('../helpers/cases.js');
  type L = import('../../lib/kit/types.js').Line;
  type I = import('../../lib/kit/types.js').Item;
  const texts = corpusCase('712-npm-ci-loglevel-http').output.toString('utf8').trimEnd().split('\n');
  const run = new RunState();
  run.startStreaming(); // render already writes: every batch is one line from a slow producer
  const stage = distillStage(specByName('install'), run, { argv: ['npm', 'ci', '--loglevel=http'] });
  const items: I[] = [];
  stage.on('data', (b: { items: I[] }) => items.push(...b.items));
  let end = 0;
  texts.forEach((text, index) => {
    end += text.length + 1;
    const line: L = { kind: 'line', text, plain: text, eol: '\n', tier: /^added /.test(text) ? 'signal' : 'text', index, end };
    stage.write({ items: [line], end });
  });
  stage.end();
  await new Promise((r) => stage.on('end', r));
  const markers = items.filter((i) => i.kind === 'marker');
  const hidden = markers.reduce((n, m) => n + (m.kind === 'marker' ? m.hidden.length : 0), 0);
  const shown = items.filter((i) => i.kind === 'line').length;
  t.equal(hidden + shown, texts.length, 'every line is shown or inside a marker');
  t.ok(markers.length >= 1 && markers.length <= 10, `${markers.length} markers for ${hidden} hidden lines`);
  t.ok(items.some((i) => i.kind === 'line' && /^added \d+ packages/.test(i.text)), 'the added line stays');
});

t.test('npm http cache … (cache hit) lines are recognised as download noise', async (t) => {
  const { text, rawText, markers } = await distillCase('803-npm-install-loglevel-http-cache');
  const hits = rawText.split('\n').filter((l) => /^npm http cache .*\(cache hit\)$/.test(l)).length;
  t.ok(hits > 10, `${hits} cache-hit lines in the input`);
  t.notOk(/^npm http cache /m.test(text), 'none left in the output');
  t.ok(markers.length > 0);
  t.ok(/^added \d+ packages/m.test(text), 'the added line stays');
});

t.test('repeated pip retry warnings collapse; the first of each run and the outcome stay', async (t) => {
  const { text, rawText } = await distillCase('808-pip-install-retries-disk-index');
  const retry = /^WARNING: Retrying \(Retry\(total=\d+,/;
  const inRetries = rawText.split('\n').filter((l) => retry.test(l)).length;
  const outRetries = text.split('\n').filter((l) => retry.test(l)).length;
  t.ok(inRetries >= 50, `${inRetries} retry warnings in the input`);
  t.ok(outRetries <= inRetries / 5, `${outRetries} retry warnings left`);
  t.ok(outRetries > 0, 'the first retry of a run says why');
  t.ok(/^Successfully installed blinker/m.test(text));
  // The failing run: its retries fold too, its ERROR lines stay verbatim.
  const fail = await distillCase('804-pip-install-pypi-unreachable');
  { let seen = 0; for (const l of fail.rawText.split('\n')) if (/^ERROR: /.test(l)) { seen++; t.ok(fail.text.split('\n').includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  t.ok(fail.text.split('\n').filter((l) => retry.test(l)).length < 5, 'the failing run\'s retries collapse too');
});

t.test('apt-get update keeps its closing Fetched summary visible', async (t) => {
  for (const name of ['806-apt-get-update', '809-apt-get-update-fresh-lists']) {
    const { text, rawText } = await distillCase(name);
    const fetched = rawText.split('\n').find((l) => /^Fetched /.test(l))!;
    t.ok(fetched, `${name}: has a Fetched line`);
    t.ok(text.split('\n').includes(fetched), `${name}: ${fetched}`);
  }
});

t.test('the install cases this was found on are distilled, not passed through', async (t) => {
  for (const name of ['803-npm-install-loglevel-http-cache', '808-pip-install-retries-disk-index']) {
    const { r } = await distillCase(name);
    t.ok(r.changed && r.outBytes < r.rawBytes * 0.8, `${name}: ${r.rawBytes} -> ${r.outBytes} B`);
  }
});

t.test("bundle install: the gems it already had and its resolution fold; Bundler's warning, what it installed and its verdict stay", async (t) => {
  const { r, text, markers, rawText } = await distillCase('1260-bundle-install-local-pass');
  t.equal(r.distiller, 'install');
  const using = rawText.split('\n').filter((l) => /^(Using |Resolving dependencies)/.test(l)).length;
  t.ok(markers.some((m) => m.includes(`${using} download, progress and notice lines hidden`)), `the marker counts the ${using} lines`);
  for (const l of ["Don't run Bundler as root. Bundler can ask for sudo if it is needed, and installing your bundle as root will break this", 'Bundle complete! 3 Gemfile dependencies, 14 gems now installed.']) t.ok(text.includes(l), l);
  // A gem Bundler installs now is what changed: it stays, its download folds.
  const fresh = await distill(Buffer.from(['Fetching gem metadata from https://rubygems.org/.........', 'Resolving dependencies...', 'Using rake 13.0.6', 'Using json 2.6.1', 'Using ffi 1.16.3 (x86_64-linux)', 'Using ast 2.4.2', 'Using bundler 2.4.10', 'Using parallel 1.23.0', 'Using racc 1.7.1', 'Using rainbow 3.1.1', 'Using regexp_parser 2.8.1', 'Using rexml 3.2.6', 'Using ruby-progressbar 1.13.0', 'Fetching minitest 5.20.0', 'Installing minitest 5.20.0', 'Using parser 3.1.3.0', 'Fetching nokogiri 1.15.4 (x86_64-linux)', 'Installing nokogiri 1.15.4 (x86_64-linux)', 'Using rubocop 1.39.0', 'Bundle complete! 3 Gemfile dependencies, 12 gems now installed.', ''].join('\n')), { command: 'bundle install', door: 'pipe' });
  const out = fresh.output.toString('utf8');
  t.match(out, /^Installing minitest 5\.20\.0$/m);
  t.match(out, /^Installing nokogiri 1\.15\.4 \(x86_64-linux\)$/m);
  t.notMatch(out, /^Using ffi 1\.16\.3 \(x86_64-linux\)$/m, 'a platform gem already there folds too');
  t.notMatch(out, /^Using rake/m);
});

t.test('the commands of Bundler and RubyGems that install are install runs; the others are not', async (t) => {
  for (const c of ['bundle install', 'bundle', 'bundle --local', 'bundle update rubocop', 'bundle add nokogiri', 'gem install rake', 'gem update']) t.equal((await distill(Buffer.from('Resolving dependencies...\n'), { command: c, door: 'pipe' })).distiller, 'install', c);
  for (const c of ['bundle exec rake test', 'bundle info rake', 'gem list', 'gem build x.gemspec']) t.not((await distill(Buffer.from('Resolving dependencies...\n'), { command: c, door: 'pipe' })).distiller, 'install', c);
});

t.test("composer install: its downloads and progress bars fold; what it locked, what it installed and the counts stay", async (t) => {
  for (const name of ['1271-composer-install-no-lock-pass', '1272-composer-install-from-lock-pass']) {
    const { r, text, rawText } = await distillCase(name);
    t.equal(r.distiller, 'install', name);
    const kept = rawText.split('\n').filter((l) => /^ {2}- (Locking|Installing) |^(Lock file|Package) operations: |^Generating autoload files$|^Writing lock file$|not have the PHP curl extension/.test(l));
    t.ok(kept.length >= 25, `${name}: ${kept.length} lines that must stay`);
    for (const l of kept) t.ok(text.split('\n').includes(l), `${name}: ${l}`);
    t.notMatch(text, /^ {2}- Downloading /m, `${name}: no download line`);
    t.notMatch(text, /\[[=>-]{10,}\]/, `${name}: no progress bar`);
  }
  // A failure to resolve states its problems: every line stays (exit 2 through the hook, and in the pipe).
  const { r, text, rawText } = await distillCase('1273-composer-install-unresolvable-fail');
  t.equal(r.distiller, 'install');
  t.equal(text, rawText);
});

t.test("Composer's commands that install are install runs; the others are not", async (t) => {
  for (const c of ['composer install', 'composer update acme/log', 'composer require acme/log:^1.0', 'composer remove acme/log', './composer.phar install']) t.equal((await distill(Buffer.from('Loading composer repositories with package information\n'), { command: c, door: 'pipe' })).distiller, 'install', c);
  for (const c of ['composer dump-autoload', 'composer validate', 'composer show', 'composer run test']) t.not((await distill(Buffer.from('Loading composer repositories with package information\n'), { command: c, door: 'pipe' })).distiller, 'install', c);
});
