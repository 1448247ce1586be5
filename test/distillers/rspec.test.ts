import t from 'tap';
import { corpusCase, count, keptAll, pipe } from './cases.js';
import { routeCommand, specByName } from '../../lib/distillers/registry.js';
import { classifyLine, ownLines } from '../../lib/pipeline/classify.js';
import { distill } from '../helpers/omni.js';
import { failureLines } from '../helpers/markers.js';
import { ruleSetOf } from '../../lib/rules/load.js';
import { validateRules } from '../../lib/rules/schema.js';

// RSpec: passing examples of the documentation format fold; every failure line stays, and
// RSpec's own (`Failure/Error:`, `(FAILED - N)`, the `rspec ./spec/x_spec.rb:N # …` rerun list)
// are failures to classify in a run rspec owns, reached directly or through `bundle exec`.

const FAILED = /\(FAILED - \d+\)$/;

t.test('rspec owns rspec, directly and through bundle exec; bundle\'s own commands are not its', async (t) => {
  for (const cmd of ['rspec', 'rspec --format documentation', 'bin/rspec spec/money_spec.rb', 'bundle exec rspec', 'bundle exec rspec --format documentation', 'env CI=1 bundle exec rspec spec/x_spec.rb:12', 'bundle exec rspec | tail -40']) {
    t.equal(routeCommand(cmd).distiller, 'rspec', cmd);
  }
  t.equal(routeCommand('bundle exec rspec').rewrite, true, 'a noisy test run the pre-hook may rewrite');
  for (const cmd of ['bundle install', 'bundle exec rake', 'bundle exec rubocop', 'uv run rspec', 'pnpm rspec']) t.not(routeCommand(cmd).distiller, 'rspec', cmd);
});

t.test('a passing documentation run folds every example under its top-level group; the verdict stays', async (t) => {
  const d = await pipe(corpusCase('rspec-doc-pass'));
  t.equal(d.distiller, 'rspec');
  const examples = d.markers.reduce((n, m) => n + Number(/^(\d+) passing examples?/.exec(m)?.[1] ?? 0), 0);
  t.equal(examples, 115, 'the markers count every example, not the group headings');
  t.same(keptAll(d, /^Tally::\w+$|^Finished in |^\d+ examples?, \d+ failures?$/), []);
  t.ok(d.out.length < d.input.length * 0.2, `${d.input.length} -> ${d.out.length} B`);
});

for (const name of ['rspec-doc-fail', 'bundle-exec-rspec-doc-fail']) {
  t.test(`${name}: every failing example, failure block and rerun line stays; the passing ones fold`, async (t) => {
    const c = corpusCase(name);
    const d = await pipe(c);
    t.equal(d.distiller, 'rspec');
    t.same(keptAll(d, FAILED), []);
    t.same(keptAll(d, /Failure\/Error:|^\s*(expected|got):|^\s+# \.\/(spec|lib)\/|^rspec \.\/spec\/|^\d+ examples?, \d+ failures?$|^(Failures|Failed examples):/), []);
    for (const k of c.mustKeep) t.ok(d.out.includes(k), `keeps ${k.slice(0, 60)}`);
    t.ok(d.out.length < d.input.length * 0.7, `${d.input.length} -> ${d.out.length} B`);
  });
}

t.test('the progress format has nothing to fold: it comes back as it was', async (t) => {
  const c = corpusCase('rspec-progress-fail');
  const d = await pipe(c);
  t.equal(d.distiller, 'rspec');
  t.equal(d.out, d.input);
});

t.test("RSpec's own failure lines are failures in a run rspec owns, and only there", async (t) => {
  const own = ownLines(specByName('rspec'));
  const lines = [
    '     Failure/Error: expect(invoice.total.cents).to eq(12000)',
    '    totals 10 lines with VAT (FAILED - 2)',
    'rspec ./spec/invoice_spec.rb:126 # Tally::Invoice with several lines totals 10 lines with VAT',
  ];
  for (const l of lines) {
    t.equal(classifyLine(l, null, own), 'failure', `rspec's: ${l.trim()}`);
    t.equal(classifyLine(l, null), 'text', `anyone else's: ${l.trim()}`);
  }
  t.equal(classifyLine('    totals 9 lines with VAT', null, own), 'text', 'a passing example is not');
  const c = corpusCase('rspec-doc-fail');
  t.equal(failureLines(c.output, c.cmd).filter((l) => FAILED.test(l)).length, count(c.output.toString('utf8'), FAILED), 'every (FAILED - N) line of the case');
});

t.test('a rule of one\'s own that hides everything under rspec still keeps its failure lines', async (t) => {
  const c = corpusCase('rspec-doc-fail');
  const { rules, errors } = validateRules({ rules: [{ name: 'hide-all', match: { program: 'rspec' }, hide: ['.*', '^$'] }] }, '/project/.omni/rules.json');
  t.same(errors, []);
  const set = ruleSetOf([{ file: '/project/.omni/rules.json', source: 'project', sha256: 'x', rules, errors: [], trusted: true }]);
  const r = await distill(c.output, { command: c.cmd, door: 'pipe', cwd: '/project', rules: { set } });
  t.equal(r.distiller, 'rule:project:hide-all', 'the rule owns the run');
  const out = r.output.toString('utf8');
  const rerun = c.output.toString('utf8').split('\n').filter((l) => /^rspec \.\/spec\//.test(l));
  t.equal(rerun.length, 7);
  // No word of a failure is in them (`rspec ./spec/importer_spec.rb:53 # Tally::Importer.rows
  // reports the line of a row without a price`): they are rspec's own failure lines.
  for (const l of rerun) t.ok(out.split('\n').includes(l), `kept: ${l.slice(0, 60)}`);
  t.ok(r.outBytes < r.rawBytes, 'the rule hid the rest');
});
