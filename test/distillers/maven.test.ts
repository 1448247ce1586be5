import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import maven from '../../lib/distillers/maven.js';
import { distill } from '../helpers/omni.js';

/** Coloured output draws its progress first, on the same line (`Progress (1): 531 B\rDownloaded from …`). */
const DOWNLOADED = /(^|\r|\[INFO\] )Downloaded from \S+: /;

t.test("the 'maven' spec names itself by Maven's first line, coloured or not, and owns mvn and its wrappers", async (t) => {
  t.equal(maven.name, 'maven');
  t.ok(maven.detect!('[INFO] Scanning for projects...'));
  t.ok(maven.detect!('\x1b[1;34mINFO\x1b[m] Scanning for projects...'.replace(/^/, '[')));
  for (const l of ['Scanning for projects...', '[INFO] Building ledger 0.1.0', 'INFO Scanning for projects...']) t.notOk(maven.detect!(l), l);
  t.same(maven.producers, ['mvn', 'mvnw', 'mvnd']);
  const input = Buffer.from(corpusCase('mvn-verify-warm-pass').output);
  for (const command of ['mvn verify', './mvnw -B verify', 'mvnd verify', 'cd ledger && mvn -q verify', 'timeout 600 mvn verify']) {
    const r = await distill(input, { command, door: 'pipe' });
    t.equal(r.distiller, 'maven', command);
  }
  // With no command, the output's first line names it.
  t.equal((await distill(input, { door: 'pipe' })).distiller, 'maven');
});

t.test('a first build: every download folds where it stood, the warnings, tests and verdict stay', async (t) => {
  const d = await pipe(corpusCase('mvn-package-first-run-pass'));
  t.equal(d.distiller, 'maven');
  t.equal(folded(d.markers, 'downloads', 'download'), count(d.input, DOWNLOADED), 'each transfer counted once, by its Downloaded line');
  t.ok(count(d.input, DOWNLOADED) > 100, 'the capture is a first build');
  t.same(keptAll(d, /^\[WARNING\] |^\[INFO\] Building (ledger|jar)|^\[INFO\] Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$|^\[INFO\] BUILD SUCCESS$|^\[INFO\] Total time:/), []);
  t.notOk(d.lines.some((l) => /Download(ing|ed) from /.test(l)), 'no transfer line reaches the reader');
  t.ok(d.out.length < d.input.length * 0.05, `${d.input.length} -> ${d.out.length} B`);
});

t.test('a reactor build: each module, each test class with its tally and the whole summary stay', async (t) => {
  const d = await pipe(corpusCase('mvn-test-multimodule-pass'));
  t.equal(d.distiller, 'maven');
  t.same(keptAll(d, /^\[INFO\] Building shop-|^\[INFO\] Reactor (Build Order|Summary)|^\[INFO\] shop-\S+ +(\[|\.+ SUCCESS)|^\[INFO\] Tests run: |^\[INFO\] Running shop\.|^\[WARNING\] /), []);
  // What folds is each module's plugin steps, one marker each, inside that module.
  const building = d.lines.map((l, i) => (l.startsWith('[INFO] Building shop-') ? i : -1)).filter((i) => i >= 0);
  const marks = d.lines.map((l, i) => (l.startsWith('[omni:') && l.includes('plugin step line') ? i : -1)).filter((i) => i >= 0);
  t.equal(marks.length, 3, 'one marker per module with code');
  for (const [k, m] of marks.entries()) t.ok(m > building[k + 1] && (k + 2 >= building.length || m < building[k + 2]), `marker ${k} inside module ${k + 1}`);
  t.equal(folded(d.markers, 'plugin step lines', 'plugin step line'), count(d.input, /^\[INFO\] --- \S+ \(\S+\) @ shop-(core|api|cli) ---$/) + count(d.input, /^\[INFO\] (skip non existing|Changes detected|Compiling \d+ source)/));
  t.ok(d.out.length < d.input.length * 0.6, `${d.input.length} -> ${d.out.length} B`);
});

t.test("javac's warnings stay under the compiler plugin's heading; the other steps fold", async (t) => {
  const d = await pipe(corpusCase('mvn-compile-xlint-warnings-pass'));
  t.equal(d.distiller, 'maven');
  t.same(keptAll(d, /^\[WARNING\] |^  (required|found): /), []);
  const first = d.lines.findIndex((l) => /\.java:\[\d+,\d+\] /.test(l));
  t.match(d.lines[first - 3], /^\[INFO\] --- maven-compiler-plugin:\S+:compile /, "the step that warned keeps its heading");
  t.match(d.lines[first - 1], /^\[INFO\] Compiling \d+ source files? to /);
  t.notOk(d.lines.some((l) => l.includes('maven-resources-plugin:') && l.startsWith('[INFO] ---')), 'a step with nothing to say folds');
});

t.test('failing tests: the failing class, its failures, the results and the errors stay verbatim', async (t) => {
  const c = corpusCase('mvn-test-fail');
  const d = await pipe(c);
  t.equal(d.distiller, 'maven');
  t.same(keptAll(d, /^\[ERROR\]|^\[INFO\] Running shop\.|expected:<|^\tat shop\.|^\[INFO\] BUILD FAILURE$/), []);
  // Through a door that knows the exit status, the failing run comes back as it came.
  const r = await distill(c.output, { command: c.cmd, door: 'hook', exitCode: 1 });
  t.same(r.output, c.output);
});

t.test('a step line that states a warning is an answer; the steps around it fold', async (t) => {
  const step = (k: number) => [`[INFO] --- maven-resources-plugin:3.3.0:resources (default-resources) @ m${k} ---`, `[INFO] skip non existing resourceDirectory /app/m${k}/src/main/resources`, '[INFO] '];
  const input = [
    '[INFO] Scanning for projects...',
    ...step(1), ...step(2), ...step(3),
    '[INFO] --- maven-compiler-plugin:3.10.1:compile (default-compile) @ app ---',
    '[INFO] Compiling 3 source files to /app/target/classes: warning: [options] bootstrap class path not set',
    ...step(4), ...step(5), ...step(6),
    '[INFO] BUILD SUCCESS',
    '',
  ].join('\n');
  const r = await distill(Buffer.from(input), { command: 'mvn compile', door: 'pipe', exitCode: 0 });
  const out = r.output.toString('utf8');
  t.match(out, /^\[INFO\] --- maven-compiler-plugin:3\.10\.1:compile \(default-compile\) @ app ---\n\[INFO\] Compiling 3 source files to \/app\/target\/classes: warning: /m, 'kept, with the heading of its step');
  t.equal((out.match(/\[omni: \d+ plugin step lines folded/g) ?? []).length, 2, 'the steps on either side fold, each where it stood');
  t.match(out, /^\[INFO\] BUILD SUCCESS$/m);
});
