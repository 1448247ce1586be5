import t from 'tap';
import { readFileSync } from 'node:fs';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { distill } from '../helpers/omni.js';

/** setuptools' per-file and per-step lines, as the cases print them (a `running` line of a step the user did not ask for). */
const CHATTER = /^(running (?!sdist$|bdist_wheel$)\w+|creating [^\s']\S*|(copying|hard linking) \S+ -> \S+|copying files to |writing |Writing \S+\/setup\.cfg|reading manifest |adding license file |adding '|installing to |Copying \S+\.egg-info )/;
/** What the run says it made, and what went wrong: never folded. */
const ANSWERS = /warn|Warning|error|^\* |^running (sdist|bdist_wheel)$|^Creating tar archive|^removing |^creating '\S+\.whl'|^Successfully built /;

t.test('python -m build, setup.py sdist and bdist_wheel: the per-file chatter folds, warnings and the artefacts stay', async (t) => {
  for (const name of ['1150-python-build-sdist-wheel', '1151-setup-py-sdist', '1152-setup-py-bdist-wheel']) {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'setuptools', name);
    t.same(keptAll(d, ANSWERS), [], `${name}: every warning, step heading and artefact line stays`);
    t.equal(count(d.out, CHATTER), 0, `${name}: no chatter line is left`);
    t.equal(folded(d.markers, 'setuptools lines'), count(d.input, CHATTER), `${name}: every hidden line is counted`);
    t.ok(d.out.length < d.input.length * 0.4, `${name}: ${d.input.length} -> ${d.out.length}`);
  }
});

t.test('a Makefile recipe running setup() sdist: make reads the setuptools lines its output names', async (t) => {
  const out = readFileSync(new URL('../fixtures/sessions-chatter/make-sdist.txt', import.meta.url));
  const r = await distill(out, { command: 'make clean >/dev/null && make', door: 'pipe' });
  const text = r.output.toString('utf8');
  const input = out.toString('utf8');
  for (const l of input.split('\n')) if (ANSWERS.test(l) || /^python3 -c /.test(l)) t.ok(text.split('\n').includes(l), `kept: ${l}`);
  t.match(text, /^running sdist\n\[omni: 30 setuptools lines folded — omni retrieve [0-9a-f]{16}\]\nCreating tar archive\n/m);
  t.ok(r.outBytes < r.rawBytes * 0.3, `${r.rawBytes} -> ${r.outBytes}`);
});

t.test("without a setuptools step line, an unknown recipe's list of copies is not taken", async (t) => {
  // Rows of paths a recipe printed are its answer: nothing recognised the tool that printed them.
  const input = ['cp-assets', 'creating out', 'copying assets/logo.svg -> out/logo.svg', 'copying assets/app.css -> out/app.css', 'copying assets/font.woff2 -> out/font.woff2', 'writing out/index.html', 'writing out/manifest.json', ''].join('\n');
  const r = await distill(Buffer.from(input), { command: 'make assets', door: 'pipe' });
  t.equal(r.output.toString('utf8'), input);
});

t.test('the commands it owns, and the ones it does not', async (t) => {
  const { routeCommand } = await import('../../lib/distillers/registry.js');
  for (const c of ['python3 setup.py sdist', 'python setup.py bdist_wheel', 'python3 -m build', 'python3.11 -m build --no-isolation', 'pyproject-build', "python3 -c 'from setuptools import setup; setup()' sdist"]) {
    t.equal(routeCommand(c).distiller, 'setuptools', c);
  }
  for (const c of ['python3 setup.py --version', 'python3 build.py', 'python3 -m pytest', 'pip wheel .', './build']) {
    t.not(routeCommand(c).distiller, 'setuptools', c);
  }
});
