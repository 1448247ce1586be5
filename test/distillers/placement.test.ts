import t from 'tap';
import { distill, omni, tempHome } from '../helpers/omni.js';
import { corpusCase } from '../helpers/cases.js';
import { loadCorpus } from '../helpers/corpus.js';
import { expandInPlace, misplacedFolds } from './inplace.js';

/*
 * Issue 10, defects 4 and 5, on real output captured for them (corpus 803-809) and on the
 * earlier install and log cases: every marker stands where the contiguous run it hides
 * stood (expanding each in place with its archived bytes gives back the input exactly),
 * and no fold is made that does not pay for its marker.
 */
const PLACED = [
  '803-npm-install-loglevel-http-cache',
  '805-pip-install-local-dir',
  '807-apt-get-install-dry-run',
  '808-pip-install-retries-disk-index',
  '809-apt-get-update-fresh-lists',
  '712-npm-ci-loglevel-http',
  '714-pip-install',
  '715-pip-install-again',
  '717-apt-get-install',
  '720-pnpm-install',
  '045-npm-install-fresh',
  '054-apt-get-install',
  '741-nginx-access-log',
  '742-nginx-error-log',
  '743-postgres-log',
  '744-dpkg-log',
  '091-nginx-access-log',
  '095-dpkg-log',
  '800-node-test-tap-toplevel-pass',
  '802-node-test-tap-mixed',
];

for (const name of PLACED) {
  t.test(`${name}: each marker expands in place to the input, and pays for itself`, async (t) => {
    const c = corpusCase(name);
    const home = tempHome();
    const r = await distill(c.output, { command: c.cmd, door: 'pipe' }, home);
    const e = expandInPlace(r.output, c.output, home);
    t.same(e.unknown, [], 'every handle retrieves');
    t.ok(e.bytes.equals(c.output), `expanded in place = input (${e.folds} folds, ${r.rawBytes} -> ${r.outBytes} B)`);
    t.same(e.unpaid, [], 'no marker is as large as what it hides');
  });
}

t.test('apt-get install --dry-run streamed from the first byte is never larger than its input', async (t) => {
  const c = corpusCase('807-apt-get-install-dry-run');
  const home = tempHome();
  const r = omni(['pipe', '--command', c.cmd], { input: c.output, env: { OMNI_HOME: home, OMNI_HOLD_BYTES: '1' } });
  t.equal(r.status, 0);
  t.ok(r.stdout.length <= c.output.length, `${c.output.length} -> ${r.stdout.length} B`);
  const e = expandInPlace(r.stdout, c.output, home);
  t.same(e.unpaid, [], 'no fold that does not pay for its marker');
  t.ok(e.bytes.equals(c.output), 'expanded in place = input');
});

// git's rewritten forms (the 'rewrite' unit of lib/distillers/engine.ts) sum the lines removed
// from diff and show into one marker at the end of a flush, and git log's one line per commit
// names the whole raw output; git status hides its hints in place. Every other family hides in place.

t.test('every other corpus case: each fold marker stands where its run stood and pays for itself', async (t) => {
  let checked = 0;
  for (const c of loadCorpus()) {
    if (c.kind === 'git') continue;
    const home = tempHome();
    const r = await distill(c.output, { command: c.cmd, door: 'pipe' }, home);
    const bad = misplacedFolds(r.output, c.output, home);
    if (bad.length) t.fail(`${c.name}: markers away from their lines: ${bad.join('; ')}`);
    const e = expandInPlace(r.output, c.output, home);
    if (e.unpaid.length) t.fail(`${c.name}: folds that do not pay: ${e.unpaid.join('; ')}`);
    checked++;
  }
  t.ok(checked > 100, `${checked} cases checked`);
});

t.test('streaming in small writes: a run still gets one marker in its place, across batches', async (t) => {
  const { createPipeline } = await import('../../lib/pipeline/create.js');
  const { describeRun } = await import('../../lib/pipeline/describe.js');
  const { LazyStore } = await import('../../lib/doors/store-access.js');
  for (const name of ['803-npm-install-loglevel-http-cache', '808-pip-install-retries-disk-index', '714-pip-install']) {
    const c = corpusCase(name);
    const home = tempHome();
    const store = new LazyStore(home);
    const p = createPipeline(describeRun({ door: 'pipe', command: c.cmd, hold: { bytes: 1, ms: Infinity } }), { archive: store.archive() });
    const chunks: Buffer[] = [];
    const done = new Promise<void>((resolve, reject) => { p.on('data', (b: Buffer) => chunks.push(b)); p.on('end', resolve); p.on('error', reject); });
    // Writes of 300 bytes, each let through before the next: many small batches, streamed.
    for (let i = 0; i < c.output.length; i += 300) {
      p.write(c.output.subarray(i, i + 300));
      await new Promise((r) => setImmediate(r));
    }
    p.end();
    await done;
    store.close();
    const out = Buffer.concat(chunks);
    t.ok(p.report.streamed, `${name}: streamed`);
    t.ok(out.length <= c.output.length, `${name}: ${c.output.length} -> ${out.length} B`);
    t.same(misplacedFolds(out, c.output, home), [], `${name}: every marker where its run stood`);
    t.same(expandInPlace(out, c.output, home).unpaid, [], `${name}: every marker pays`);
  }
});
