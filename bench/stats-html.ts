// `npm run bench -- stats-html`: the HTML report of a hostile store (22 distillations whose
// traces are colour codes on every line, a megabyte-long line and secrets; the store the
// report test builds) through the built bundle, then drawn by a real headless Chromium. The
// page's size and the browser's own navigation timings: the load event and the first paint.
// Target: drawn in under a second. Not a test: a timing is a number to read, never a pass/fail.
import { mkdtempSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OMNI, median } from './util.js';
import { hostileStore } from '../test/helpers/hostile-trace.js';
import { CHROMIUM, visit } from '../test/cli/stats-browser.js';

const N = Number(process.env.BENCH_RUNS ?? 5);
const home = mkdtempSync(join(tmpdir(), 'omni-bench-html-'));
hostileStore(home, 22);
const file = join(home, 'report.html');
const t0 = process.hrtime.bigint();
const w = spawnSync(process.execPath, [OMNI, 'stats', '--html', file], { env: { ...process.env, OMNI_HOME: home }, encoding: 'utf8' });
const writeMs = Number(process.hrtime.bigint() - t0) / 1e6;
if (w.status !== 0) throw new Error(`omni stats --html exited ${w.status}: ${w.stderr}`);
const bytes = statSync(file).size;
console.log(`page: ${(bytes / 1024 / 1024).toFixed(2)} MiB (22 runs, 66 MiB of raw traces in the store); omni stats --html took ${writeMs.toFixed(0)} ms`);

interface Timing { load: number; paint: number | null; layout: number }
const loads: number[] = [];
const paints: number[] = [];
const walls: number[] = [];
for (let i = 0; i < N; i++) {
  const w0 = process.hrtime.bigint();
  const v = await visit<Timing>(pathToFileURL(file).href, `(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const l0 = performance.now();
    void document.body.getBoundingClientRect().height;
    return { load: nav.loadEventEnd, paint: fcp ? fcp.startTime : null, layout: performance.now() - l0 };
  })()`);
  walls.push(Number(process.hrtime.bigint() - w0) / 1e6);
  loads.push(v.value.load);
  if (v.value.paint !== null) paints.push(v.value.paint);
}
const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(`${CHROMIUM}, headless, medians of ${N}: load event ${ms(median(loads))}, first contentful paint ${paints.length ? ms(median(paints)) : 'not reported'}, whole visit (browser start to screenshot) ${ms(median(walls))}`);
console.log(`(target: drawn in under a second; the page before the bounds was 69.6 MiB for 22 runs and not drawn after 120 s)`);
