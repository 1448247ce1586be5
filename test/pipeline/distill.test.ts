import t from 'tap';
import { distill } from '../helpers/omni.js';
import { classifyLine } from '../../lib/pipeline/classify.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { openStore } from '../../lib/store/open.js';
import { getBlob } from '../../lib/store/archive.js';

const noise = (n: number) => Array.from({ length: n }, (_, i) => `Downloading package-${i % 7} ${i}%`).join('\n') + '\n';

t.test('never folds a line that states a failure', async (t) => {
  const err = 'Error: connect ECONNREFUSED 127.0.0.1:5432';
  const text = noise(100) + `${err}\n${err}\n${err}\n${err}\n` + noise(100) + 'done\n';
  const r = await distill(text);
  const out = r.output.toString();
  t.equal(out.split('\n').filter((l) => l === err).length, 4, 'all four failure lines survive');
  t.ok(r.outBytes < r.rawBytes / 2, 'the noise around them folded');
});

t.test('a marker names a handle that retrieves the exact folded bytes', async (t) => {
  const text = '\x1b[33mstart\x1b[0m\n' + noise(200) + 'end\n';
  const r = await distill(text);
  const markers = r.output.toString().split('\n').map((l) => MARKER_RE.exec(l)).filter(Boolean) as RegExpExecArray[];
  t.ok(markers.length >= 1, 'at least one marker');
  const store = openStore({ home: r.home });
  try {
    const folded = getBlob(store, markers[0][2])!.toString();
    t.equal(folded.split('\n').length - 1, 198, 'the fold marker stands for the 198 middle lines');
    t.ok(text.includes(folded), 'and they are exact input bytes');
    const whole = markers.find((m) => m[1].includes('whole output'));
    t.ok(whole, 'colour stripping is receipted by a whole-output marker');
    t.equal(getBlob(store, whole![2])!.toString(), text, 'which retrieves the exact input');
  } finally {
    store.close();
  }
});

t.test('output the generic distiller recognises nothing in comes back untouched', async (t) => {
  const text = Array.from({ length: 300 }, (_, i) => `${i}`).join('\n') + '\n';
  const r = await distill(text);
  t.equal(r.changed, false);
  t.equal(r.output.toString(), text);
});

t.test('a distillation that saves too little is replaced by the raw bytes', async (t) => {
  const text = 'a\n\n\nb\n';
  const r = await distill(text);
  t.equal(r.output.toString(), text);
  t.equal(r.verbatim, 'too-little-saved');
});

t.test('without an archive nothing is removed', async (t) => {
  const { distillBuffer } = await import('../../lib/pipeline/run.js');
  const { describeRun } = await import('../../lib/pipeline/describe.js');
  const text = noise(300) + 'end\n';
  const r = await distillBuffer(describeRun({ door: 'hook' }), Buffer.from(text));
  t.equal(r.output.toString(), text);
});

t.test('the output is never larger than the input', async (t) => {
  for (const text of ['', 'x', 'x\n', '\n\n\n\n', noise(3), noise(10), noise(1000)]) {
    const r = await distill(text);
    t.ok(r.outBytes <= r.rawBytes, `${JSON.stringify(text.slice(0, 20))}: ${r.outBytes} <= ${r.rawBytes}`);
  }
});

t.test('the same input and store state give the same bytes', async (t) => {
  const text = noise(500) + 'Error: boom\n' + noise(50);
  const a = await distill(text);
  const b = await distill(text, {}, a.home);
  t.ok(a.output.equals(b.output));
});

t.test('a count of zero is a verdict, not a failure', async (t) => {
  t.equal(classifyLine('Tests: 0 failed, 12 passed', null), 'signal');
  t.equal(classifyLine('found 0 vulnerabilities', null), 'text');
  t.equal(classifyLine('Tests: 2 failed, 10 passed', null), 'failure');
  t.equal(classifyLine('src/a.ts(3,5): error TS2322: bad', null), 'failure');
  t.equal(classifyLine('src/ok_handler.ts', null), 'text');
  t.equal(classifyLine('', null), 'noise');
  t.equal(classifyLine('same', 'same'), 'noise');
});

t.test('the registry routes the producer, not its wrappers and tails', async (t) => {
  t.equal(routeCommand('cat package.json | jq .name').distiller, null, '| jq owns its output');
  t.equal(routeCommand('OMNI_PASSTHROUGH=1 npm test').distiller, null);
  t.equal(routeCommand('omni retrieve 0123456789abcdef').distiller, null);
  t.same(routeCommand('npm test && git status').producers!.map((p) => [p.spec.name, p.answer]), [['npm-test', false], ['git-status', true]], 'two producers, each routed; one is an answer, so every line stays');
  t.equal(routeCommand('./deploy.sh --dry-run').distiller, 'generic', 'an unknown program gets the generic distiller');
  const jest = routeCommand('jest').distiller;
  t.not(jest, 'generic', 'jest has a distiller of its own');
  t.equal(routeCommand('cd app && CI=1 npx jest --ci').distiller, jest, 'cd, assignments and npx are peeled off');
  t.equal(routeCommand('npx jest 2>&1 | tail -50').distiller, jest, '| tail keeps the producer');
  t.equal(routeCommand('npx jest | grep FAIL').distiller, routeCommand('grep FAIL x').distiller, '| grep is owned by grep');
});
