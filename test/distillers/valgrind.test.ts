import t from 'tap';
import { corpusCase, keptAll, pipe } from './cases.js';
import { programOf } from '../../lib/distillers/valgrind.js';
import { routeCommand } from '../../lib/distillers/registry.js';

/** valgrind's own report lines: every one stays (errors, frames, summaries, verdicts). */
const REPORT = /==\d+== +(HEAP SUMMARY|in use at exit|total heap usage|LEAK SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable|ERROR SUMMARY|All heap blocks were freed|Invalid|Conditional jump|Mismatched|Address 0x|Uninitialised value|at 0x|by 0x|\d[\d,]* (\(.*\) )?bytes in)/;

t.test('a clean run: the banner folds, the program\'s lines and every summary stay', async (t) => {
  const d = await pipe(corpusCase('valgrind-clean-wordfreq'));
  t.equal(d.distiller, 'valgrind');
  t.same(d.markers, ['4 valgrind banner lines folded']);
  t.notOk(d.out.includes('Command: ./wordfreq input.txt'), 'the command the agent typed is not said back');
  t.same(keptAll(d, /^\w+ +\d+$|repeated words/), []);
  t.same(keptAll(d, REPORT), []);
});

t.test('errors stay whole: headline, every frame, the Address line and its stack', async (t) => {
  for (const name of ['valgrind-invalid-read-uninit-origins', 'valgrind-hashmap-tests-clean']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'valgrind', name);
    t.same(d.markers, ['4 valgrind banner lines folded'], name);
    t.same(keptAll(d, REPORT), [], name);
  }
});

t.test('--trace-children: a child\'s Command line names which process is which, and stays', async (t) => {
  const d = await pipe(corpusCase('valgrind-trace-children-script'));
  t.ok(d.lines.includes(`${d.input.split('\n').find((l) => l.endsWith('Command: ./hashmap_test'))}`));
  t.ok(d.lines.includes(`${d.input.split('\n').find((l) => l.endsWith('Command: ./hashmap_test-leak'))}`));
  t.notOk(d.out.includes('Command: ./run-tests.sh'), 'the parent\'s Command is the typed command');
  t.same(d.markers, ['7 valgrind banner lines folded', '3 valgrind banner lines folded']);
  t.same(keptAll(d, REPORT), []);
  t.same(keptAll(d, /^ +ok +\S|checks failed|hashmap tests/), []);
});

t.test('repeated identical frames still fold as generic output did (1041)', async (t) => {
  const d = await pipe(corpusCase('valgrind-recursive-leak'));
  t.equal(d.markers[0], '4 valgrind banner lines folded');
  t.ok(d.markers.filter((m) => /lines like ".*by 0x1091C4: build \(tree\.c:10\)" folded/.test(m)).length > 40);
  t.same(keptAll(d, /are (in)?directly lost in loss record|are definitely lost|LEAK SUMMARY|ERROR SUMMARY|Conditional jump/), []);
});

t.test('only valgrind\'s own lines are its banner: the program\'s bare lines alike stay', async (t) => {
  const c = corpusCase('valgrind-clean-wordfreq');
  const input = c.output.toString('utf8').replace('a          3\n', 'Memcheck, a memory error detector\nCopyright (C) 2002-2022, and GNU GPL\'d, by Julian Seward et al.\nCommand: ./wordfreq input.txt\n');
  const d = await pipe({ ...c, output: Buffer.from(input) });
  t.ok(d.lines.includes('Memcheck, a memory error detector'));
  t.ok(d.lines.includes('Command: ./wordfreq input.txt'));
  t.ok(d.lines.includes('Copyright (C) 2002-2022, and GNU GPL\'d, by Julian Seward et al.'));
  t.same(d.markers, ['4 valgrind banner lines folded']);
});

t.test('a Command line that is not what was typed stays (a glob, another program)', async (t) => {
  const c = corpusCase('valgrind-clean-wordfreq');
  const d = await pipe(c, 'valgrind ./wordfreq *.txt');
  t.ok(d.out.includes('==25732== Command: ./wordfreq input.txt\n'));
  t.same(d.markers, ['3 valgrind banner lines folded']);
});

t.test('the program valgrind runs is read off its options', async (t) => {
  t.equal(programOf(['valgrind', '--leak-check=full', '-q', './prog', '-v', 'x']), './prog -v x');
  t.equal(programOf(['/usr/bin/valgrind', './a.out']), './a.out');
  t.equal(programOf(['valgrind', '--version']), null);
  t.same(routeCommand('valgrind --leak-check=full python3 -m pytest -v').producers?.map((p) => p.spec.name), ['valgrind', 'pytest']);
  t.same(routeCommand('valgrind ./tree').producers?.map((p) => p.spec.name), ['valgrind'], 'a path is the project\'s own program, not the tree tool');
  t.same(routeCommand('valgrind ./hashmap_test').producers?.map((p) => p.spec.name), ['valgrind']);
  t.equal(programOf([]), null);
});

t.test('in a chain with a producer no spec owns, the banner line that reads as a failure stays: that producer may have printed it', async (t) => {
  const c = corpusCase('valgrind-clean-wordfreq');
  const d = await pipe(c, './prepare.sh && valgrind ./wordfreq input.txt');
  t.ok(d.lines.includes('==25732== Memcheck, a memory error detector'));
  t.notOk(d.out.includes('Using Valgrind-3.19.0'), 'the rest of the banner still folds');
});

t.test('the program valgrind runs is read by its own spec: pytest\'s passing tests fold among valgrind\'s lines', async (t) => {
  const vg = corpusCase('valgrind-clean-wordfreq').output.toString('utf8').split('\n');
  const py = corpusCase('pytest-verbose-pass');
  const banner = [...vg.slice(0, 3), '==25732== Command: python3 -m pytest -v', vg[4]];
  const input = [...banner, py.output.toString('utf8').trimEnd(), ...vg.slice(11)].join('\n');
  const d = await pipe({ ...py, output: Buffer.from(input) }, 'valgrind python3 -m pytest -v');
  t.equal(d.distiller, 'valgrind');
  // Read with pytest's lines too, the tool's description stays: a line pytest may have printed
  // that the shared lists call a failure stays one (classify knows no prefix there).
  t.equal(d.markers[0], '3 valgrind banner lines folded');
  t.ok(d.markers.some((m) => /\d+ passing tests folded/.test(m)), d.markers.join(' | '));
  t.same(keptAll(d, REPORT), []);
  t.same(keptAll(d, /passed in|^=+ .* =+$/), []);
});
