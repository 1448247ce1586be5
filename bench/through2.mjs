// `node bench/through2.mjs`: the stage factory (`batchStage`, lib/kit/stage.ts) built on
// through2 instead of node:stream's Transform, measured on the stream path: `omni pipe` over
// the 100 MB mixed log (bench/mixed-log.ts), CPU seconds (user + sys), peak RSS and the output
// (it must be byte for byte the same). Both bundles are built here from the same sources; the
// through2 one swaps only batchStage's body. BENCH_MB (default 100), BENCH_RUNS (default 3).
// Not a pass/fail test.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MB = Number(process.env.BENCH_MB ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const out = join(process.cwd(), 'bench', 'out');
mkdirSync(out, { recursive: true });

/** batchStage on through2: same contract (object mode, queue of BATCH_QUEUE, passthrough forward). */
const THROUGH2_STAGE = `
export function batchStage(run, onBatch, onEnd) {
  let lastEnd = 0;
  const s = __through2.obj(
    { highWaterMark: BATCH_QUEUE },
    function (batch, _enc, cb) {
      lastEnd = batch.end;
      try {
        if (run.passthrough && !onEnd) this.push(batch);
        else onBatch(batch, (b) => this.push(b));
        cb();
      } catch (err) {
        cb(err);
      }
    },
    function (cb) {
      try {
        if (onEnd) onEnd((b) => this.push(b), lastEnd);
        cb();
      } catch (err) {
        cb(err);
      }
    },
  );
  s.benchStage = 'through2-stage';
  return s;
}
`;

const mainSrc = readFileSync('lib/cli/main.ts', 'utf8');
const subcommands = [...mainSrc.matchAll(/import\('\.\/([a-z-]+)\.js'\)/g)].map((m) => m[1]);
function plugins(swap) {
  return [{
    name: 'bench-through2',
    setup(b) {
      b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
        if (!args.importer.endsWith('lib/cli/main.ts') || !subcommands.includes(args.path.slice(2, -3))) return undefined;
        return { path: join(process.cwd(), 'dist', `omni-${args.path.slice(2, -3)}.cjs`), external: true };
      });
      if (!swap) return;
      // The stage factory lives in lib/kit/stage.ts.
      b.onLoad({ filter: /lib\/(pipeline|kit)\/[a-z-]+\.ts$/ }, (args) => {
        const src = readFileSync(args.path, 'utf8');
        const start = src.indexOf('export function batchStage(');
        if (start < 0) return undefined;
        const end = src.indexOf('\n}\n', start) + 3;
        const body = `import __through2 from 'through2';\n` + src.slice(0, start) + THROUGH2_STAGE + src.slice(end);
        return { contents: body, loader: 'ts', resolveDir: join(args.path, '..') };
      });
    },
  }];
}
const common = {
  entryPoints: ['bin/omni.ts'], bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['better-sqlite3'],
  logLevel: 'error', banner: { js: "const __omniImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'process.env.OMNI_BUNDLED': '"1"', 'import.meta.url': '__omniImportMetaUrl' },
};
const bundles = { transform: join(out, 'through2-transform.cjs'), through2: join(out, 'through2-through2.cjs') };
await build({ ...common, outfile: bundles.transform, plugins: plugins(false) });
await build({ ...common, outfile: bundles.through2, plugins: plugins(true) });
if (!readFileSync(bundles.through2, 'utf8').includes('through2-stage')) throw new Error('the through2 swap did not apply: batchStage not found');

// The log: built by bench/mixed-log.ts (bundled on the fly).
const dir = mkdtempSync(join(tmpdir(), 'omni-through2-'));
const file = join(dir, 'mixed.log');
await build({ entryPoints: ['bench/mixed-log.ts'], outfile: join(out, 'through2-mixed-log.mjs'), bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
const { mixedLog } = await import(join(out, 'through2-mixed-log.mjs'));
const ws = createWriteStream(file);
for (const b of mixedLog(MB << 20)) if (!ws.write(b)) await new Promise((r) => ws.once('drain', r));
await new Promise((r) => ws.end(r));

/** CPU s and peak RSS of one `node <bundle> pipe < file`, via /usr/bin/time. */
function run(args, outFile) {
  const inFd = openSync(file, 'r'), outFd = openSync(outFile, 'w');
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', process.execPath, ...args], {
    stdio: [inFd, outFd, 'pipe'], env: { ...process.env, OMNI_HOME: join(dir, 'home') }, encoding: 'utf8',
  });
  closeSync(inFd); closeSync(outFd);
  const last = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpu: last[0] + last[1], rssMiB: last[2] / 1024 };
}
if (!existsSync('/usr/bin/time')) throw new Error('needs /usr/bin/time (apt-get install time)');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const res = { node: [], transform: [], through2: [] };
for (let i = 0; i < RUNS; i++) {
  res.node.push(run(['-e', 'process.stdin.pipe(process.stdout)'], join(dir, 'node.out')));
  res.transform.push(run([bundles.transform, 'pipe'], join(dir, 'transform.out')));
  res.through2.push(run([bundles.through2, 'pipe'], join(dir, 'through2.out')));
}
const sha = (f) => createHash('sha256').update(readFileSync(f)).digest('hex').slice(0, 16);
const size = statSync(file).size;
console.log(`input ${(size / 1048576).toFixed(1)} MB mixed log, ${RUNS} runs, medians`);
console.log('| stage factory | CPU s | ÷ node passthrough | peak RSS MiB | output |');
console.log('|---|---:|---:|---:|---|');
const nodeCpu = median(res.node.map((x) => x.cpu));
for (const k of ['node', 'transform', 'through2']) {
  const cpu = median(res[k].map((x) => x.cpu)), rss = median(res[k].map((x) => x.rssMiB));
  const name = { node: 'node stdin→stdout (reference)', transform: 'Transform (today)', through2: 'through2 4' }[k];
  console.log(`| ${name} | ${cpu.toFixed(2)} | ${(cpu / nodeCpu).toFixed(1)}× | ${rss.toFixed(0)} | ${k === 'node' ? '' : `${(statSync(join(dir, `${k}.out`)).size / 1048576).toFixed(1)} MB sha ${sha(join(dir, `${k}.out`))}`} |`);
}

// Start-up: the hook path loads the same bundle, so what through2 (and readable-stream 3,
// which it brings instead of node:stream) adds to it is paid per call.
const startup = (bundle) => {
  const ts = [];
  for (let i = 0; i < 11; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, [bundle, 'pipe'], { input: 'hello\n', env: { ...process.env, OMNI_HOME: join(dir, 'home') } });
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(ts);
};
for (const k of ['transform', 'through2']) {
  console.log(`${k}: bundle ${(statSync(bundles[k]).size / 1024).toFixed(0)} KiB, \`echo hello | omni pipe\` ${startup(bundles[k]).toFixed(1)} ms wall (median of 11)`);
}
