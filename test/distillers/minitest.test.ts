import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { routeCommand } from '../../lib/distillers/registry.js';

t.test('rake test TESTOPTS=-v: every passing `Class#test = 0.00 s = .` line folds; skips, reports and the summary stay', async (t) => {
  const d = await pipe(corpusCase('1092-rake-minitest-verbose-pass'));
  t.equal(d.distiller, 'minitest');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, / = \.$/));
  t.same(keptAll(d, /^Run options|# Running:| = S$|Skipped:|unicode words later|^Finished in |^\d+ runs, /), []);
  t.ok(d.out.length < d.input.length * 0.5, `${d.input.length} -> ${d.out.length}`);
});

t.test('a failing and an erroring test keep their verbose lines and their whole reports', async (t) => {
  const d = await pipe(corpusCase('1093-rake-minitest-verbose-fail'));
  t.equal(d.distiller, 'minitest');
  t.same(keptAll(d, / = [FES]$|Failure:|Error:|TypeError|Expected|Actual|test_\w+\.rb:\d+|^\d+ runs, |rake aborted|Command failed/), []);
  t.equal(folded(d.markers, 'passing tests') + count(d.out, / = \.$/), count(d.input, / = \.$/));
});

t.test('ruby running a test file, through bundle exec too, is minitest; ruby running anything else is not', async (t) => {
  for (const c of ['rake test', 'rake test:units', 'ruby -Ilib -Itest test/test_tax.rb', 'ruby -Ilib test/ledger_test.rb -v', 'bundle exec ruby -Itest test/money_test.rb']) {
    t.equal(routeCommand(c).distiller, 'minitest', c);
  }
  for (const c of ['ruby script.rb', 'rake build', 'rake']) t.not(routeCommand(c).distiller, 'minitest', c);
  const d = await pipe(corpusCase('1100-minitest-verbose-pass'));
  t.equal(d.distiller, 'minitest');
  t.equal(folded(d.markers, 'passing tests'), count(d.input, / = \.$/));
});

t.test('bundle exec rake test and a bare rake are read as minitest by their output\'s lines', async (t) => {
  const c = corpusCase('1092-rake-minitest-verbose-pass');
  for (const command of ['bundle exec rake test', 'timeout 60 rake']) {
    const d = await pipe(c, command);
    t.equal(folded(d.markers, 'passing tests'), count(d.input, / = \.$/), command);
  }
});
