/**
 * `omni stats --html` in a real browser. A real store is built by real distillations (the
 * pipe door over captured corpus cases, through the built bundle); then the page is loaded
 * in headless Chromium over the DevTools protocol: the charts' SVG bars must be laid out with
 * non-zero size (no script on the page: the browser draws them from the markup alone), the
 * negative bars must sit left of the zero axis, every text link must land on its trace, the
 * page must request nothing but itself, and hostile shell text must stay text. The screenshot
 * is kept under test-artifacts/ (gitignored).
 */
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { omni, tempHome, ROOT } from '../helpers/omni.js';
import { needs } from '../helpers/needs.js';
import { openStore } from '../../lib/store/open.js';
import { recordDistillation } from '../../lib/store/record.js';
import { prune, DAY_MS } from '../../lib/store/prune.js';
import { CHROMIUM, visit } from './stats-browser.js';
import { TOP_RUNS } from '../../lib/cli/stats.js';
import { TRACE_HTML_BYTES } from '../../lib/cli/stats-html.js';
import { hostileStore, SECRETS } from '../helpers/hostile-trace.js';

const CASES = ['501-jest-verbose-pass', '502-vitest-verbose-pass', '503-cmake-build-many-objects', '087-wget-progress-bar', '018-pytest-verbose-pass', '003-jest-fail-color', '712-npm-ci-loglevel-http'];
const HOSTILE = '</pre><script>document.title="pwned"</script><img src="http://127.0.0.1:9/x.png" onerror="alert(1)"> & "quotes" \'too\'';
const ENV = { TZ: 'UTC', LANG: 'C.UTF-8' };

interface Rect { x: number; y: number; width: number; height: number; cls: string }
interface Probe {
  title: string;
  scripts: number;
  images: number;
  charts: Record<string, { svg: Rect; bars: Rect[]; rows: number; axis: number | null }>;
  links: Array<{ href: string; target: boolean }>;
  hostileShown: boolean;
  pruned: number;
  notKept: number;
}

const PROBE = `(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height, cls: e.getAttribute('class') || '' }; };
  const charts = {};
  for (const id of ['chart-day', 'chart-family']) {
    const svg = document.querySelector('#' + id + ' svg');
    const axis = svg && svg.querySelector('line.axis');
    charts[id] = { svg: svg ? box(svg) : null, bars: svg ? [...svg.querySelectorAll('rect.bar')].map(box) : [], rows: svg ? svg.querySelectorAll('g.row').length : 0, axis: axis ? axis.getBoundingClientRect().x : null };
  }
  const links = [...document.querySelectorAll('a[href^="#run-"]')].map((a) => ({ href: a.getAttribute('href'), target: !!document.getElementById(a.getAttribute('href').slice(1)) }));
  const pres = [...document.querySelectorAll('pre')].map((p) => p.textContent);
  return {
    title: document.title, scripts: document.scripts.length, images: document.images.length, charts, links,
    hostileShown: pres.some((p) => p.includes(${JSON.stringify(HOSTILE)})),
    pruned: [...document.querySelectorAll('.gone')].filter((e) => /: pruned$/.test(e.textContent)).length,
    notKept: [...document.querySelectorAll('.gone')].filter((e) => /: not kept$/.test(e.textContent)).length,
  };
})()`;

t.test('the HTML report draws its charts in a real Chromium and fetches nothing', async (t) => {
  if (!needs(t, existsSync(CHROMIUM), `${CHROMIUM} (.ci/run installs Debian's chromium)`)) return;
  const home = tempHome();
  for (const c of CASES) {
    const dir = join(ROOT, 'corpus', 'cases', c);
    const r = omni(['pipe', '--command', readFileSync(join(dir, 'cmd.txt'), 'utf8').trim()], { input: readFileSync(join(dir, 'output.txt')), env: { OMNI_HOME: home, ...ENV } });
    t.equal(r.status, 0, `omni pipe over ${c}`);
  }
  const now = Date.now();
  const store = openStore({ home });
  const runs = store.db.prepare('SELECT id, family, bytes_in, bytes_out, applied, raw_handle FROM runs ORDER BY id').all() as Array<{ id: number; family: string; bytes_in: number; bytes_out: number; applied: number; raw_handle: string }>;
  t.ok(runs.filter((r) => r.applied).length >= 5, `the pipe door recorded applied runs (${JSON.stringify(runs)})`);
  // A trend needs more than one day: move the first runs back, as if they had run earlier.
  store.db.prepare('UPDATE runs SET at = at - ? WHERE id = ?').run(3 * DAY_MS, runs[0].id);
  store.db.prepare('UPDATE runs SET at = at - ? WHERE id = ?').run(1 * DAY_MS, runs[1].id);
  // The first run's raw trace goes past retention and the real pruner removes it.
  store.db.prepare('UPDATE blobs SET used = used - ? WHERE handle = ?').run(8 * DAY_MS, runs[0].raw_handle);
  prune(store, { now, budgetMs: 1000 });
  // A delivery that grew (a negative saving) two days ago, carrying hostile shell text.
  const raw = Buffer.from(`${HOSTILE}\n`);
  const delivered = Buffer.from(`${HOSTILE}\n[omni: a note longer than the input]\n`.repeat(3));
  recordDistillation(store, {
    run: { at: now - 2 * DAY_MS, door: 'hook', host: 'claude', family: 'grew', command: 'cat x.html', bytesIn: raw.length, bytesOut: delivered.length, applied: true },
    raw,
    delivered,
  });
  store.close();

  const file = join(home, 'report.html');
  const w = omni(['stats', '--html', file], { env: { OMNI_HOME: home, ...ENV } });
  t.equal(w.status, 0, w.stderr.toString());
  t.match(w.stdout.toString(), `omni stats: wrote ${file}`);
  const html = readFileSync(file, 'utf8');
  t.notMatch(html, /<script|<link|<img|<iframe|<object|@import|(?:src|href)="(?!#)/i, 'no script, stylesheet, image or link off the page in the markup');
  t.notOk(html.includes(HOSTILE), 'the hostile text is escaped');

  const v = await visit<Probe>(pathToFileURL(file).href, PROBE);
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  writeFileSync(join(ROOT, 'test-artifacts', 'stats-html.png'), v.png);
  writeFileSync(join(ROOT, 'test-artifacts', 'stats-html.html'), html);
  t.same(v.requests, [pathToFileURL(file).href], 'the page requests nothing but itself');
  t.equal(v.value.scripts, 0, 'no script element');
  t.equal(v.value.images, 0, 'no image element');
  t.match(v.value.title, /^omni stats/, 'the injected script did not run');
  t.ok(v.value.hostileShown, 'the hostile text is shown as text in its trace');

  const day = v.value.charts['chart-day'];
  const fam = v.value.charts['chart-family'];
  for (const [name, c] of Object.entries(v.value.charts)) {
    t.ok(c.svg && c.svg.width > 0 && c.svg.height > 0, `${name}: the SVG is laid out (${JSON.stringify(c.svg)})`);
    t.ok(c.bars.length > 0, `${name}: it has bars`);
    for (const b of c.bars) t.ok(b.width > 0 && b.height > 0, `${name}: a ${b.cls} bar has a size (${b.width} x ${b.height})`);
    t.ok(c.axis !== null, `${name}: a zero axis (there is a negative saving)`);
    for (const b of c.bars) {
      if (b.cls.includes('neg')) t.ok(b.x + b.width <= c.axis! + 0.5, `${name}: a negative bar ends at the axis`);
      else t.ok(b.x >= c.axis! - 0.5, `${name}: a positive bar starts at the axis`);
    }
  }
  t.equal(day.rows, 8, 'the 7-day window spans 8 calendar days, today included');
  t.equal(day.bars.length, 4, 'one bar per day with runs: 3 days ago, 2 days ago (negative), yesterday, today');
  t.equal(day.bars.filter((b) => b.cls.includes('neg')).length, 1, 'the day that grew is negative');
  t.equal(fam.bars.filter((b) => b.cls.includes('neg')).length, 1, 'the family that grew is negative');
  t.ok(v.value.links.length >= 5, 'the top distillations link their texts');
  t.ok(v.value.links.every((l) => l.target), 'every link lands on its trace on the page');
  t.equal(v.value.pruned, 1, 'the pruned raw trace is named as pruned');
  t.ok(v.png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && v.png.length > 10_000, 'a real screenshot');
});

t.test('a hostile store: the page stays small, holds no secret, is private, and loads in Chromium', async (t) => {
  if (!needs(t, existsSync(CHROMIUM), `${CHROMIUM} (.ci/run installs Debian's chromium)`)) return;
  const home = tempHome();
  hostileStore(home, 22);

  const file = join(home, 'report.html');
  writeFileSync(file, 'an older report, world-readable\n', { mode: 0o644 });
  const w = omni(['stats', '--html', file], { env: { OMNI_HOME: home, ...ENV } });
  t.equal(w.status, 0, w.stderr.toString());
  const html = readFileSync(file, 'utf8');
  const bound = 2 * TOP_RUNS * (TRACE_HTML_BYTES + 4096) + 256 * 1024;
  t.ok(Buffer.byteLength(html) <= bound, `the page is ${Buffer.byteLength(html)} bytes, within ${bound}`);
  t.equal(statSync(file).mode & 0o777, 0o600, 'written 0600, over an existing 0644 file too');
  for (const s of SECRETS) t.notOk(html.includes(s), `no secret on the page (${s.slice(0, 6)}…)`);
  t.match(html, /GITHUB_TOKEN=\*\*\*/, 'a masked secret reads ***');
  t.match(html, /… \(the line has 1\.0 MiB\)/, 'the megabyte line is cut, and says how long it is');
  t.match(html, /The first \d+ lines? are shown/, 'each trace says it is partial');

  const v = await visit<{ pres: number; laidOut: number; handles: number; summary: number }>(pathToFileURL(file).href, `(() => {
    const pres = [...document.querySelectorAll('pre')];
    return {
      pres: pres.length,
      laidOut: pres.filter((p) => { const r = p.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).length,
      handles: [...document.querySelectorAll('section.trace')].filter((s) => /omni retrieve [0-9a-f]{16}/.test(s.textContent)).length,
      summary: document.getElementById('summary').getBoundingClientRect().height,
    };
  })()`);
  t.equal(v.value.pres, 2 * TOP_RUNS, 'raw and delivered of the top distillations');
  t.equal(v.value.laidOut, v.value.pres, 'every trace is laid out');
  t.equal(v.value.handles, 2 * TOP_RUNS, 'every trace names its omni retrieve handle');
  t.ok(v.value.summary > 0, 'the summary is laid out');
  writeFileSync(join(ROOT, 'test-artifacts', 'stats-html-hostile.png'), v.png);
});
