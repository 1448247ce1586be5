// `npm run bench -- rules`: what rules of one's own cost.
//
// 1. A cloned repository's untrusted 17 MB `.omni/rules.json`: the command post-hook's wall
//    time and peak RSS against no project file (trust is checked before anything is read).
//    OMNI_BIN=<main's dist/omni.cjs> shows the cost before (the file was parsed on every call).
// 2. Rule patterns on V8's linear-time engine against the backtracking one, over every line
//    of the corpus: CPU and MB/s per pattern (lib/rules/linear.ts).
// 3. The catastrophic `^(a+)+$` on n `a`s and a `b`: the backtracking engine's time doubles
//    with each `a`; the linear engine's stays flat.
// 4. Switching the engine on in a process that has loaded the hook bundle's modules
//    (require('node:v8') after node:stream, setFlagsFromString), paid only by a process that
//    compiles a rule.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCorpus } from './corpus.js';
import { median, OMNI } from './util.js';
import { compileLinear } from '../lib/rules/linear.js';

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

// 1 -------------------------------------------------------------------------------------------
function untrustedFile(): void {
  const root = mkdtempSync(join(tmpdir(), 'omni-bench-rules-'));
  const home = join(root, 'home');
  const plain = join(root, 'plain');
  const cloned = join(root, 'cloned');
  mkdirSync(home);
  mkdirSync(plain);
  mkdirSync(join(cloned, '.omni'), { recursive: true });
  const rule = { name: 'r', match: { program: 'tar' }, hide: ['^[\\w.-]+(/[\\w.-]+)*/?$'], keep: ['\\.conf$'], unit: 'member' };
  const one = JSON.stringify(rule).length + 12;
  const big = JSON.stringify({ rules: Array.from({ length: Math.ceil((17 << 20) / one) }, (_, i) => ({ ...rule, name: `r-${i}` })) });
  writeFileSync(join(cloned, '.omni', 'rules.json'), big);
  const rss = join(root, 'rss.cjs');
  writeFileSync(rss, "process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS));\n");
  const payload = (cwd: string) => JSON.stringify({
    session_id: 's-rules', transcript_path: '/nonexistent/t.jsonl', cwd, hook_event_name: 'PostToolUse',
    tool_name: 'Bash', tool_input: { command: './fetch-all.sh' }, tool_use_id: 'toolu_rules',
    tool_response: { stdout: Array.from({ length: 300 }, (_, k) => `Downloading package-${k % 7} ${k}%`).join('\n') + '\ndone', stderr: '', interrupted: false, isImage: false },
  });
  const call = (cwd: string) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['-r', rss, resolve(OMNI), '--post-hook'], { cwd, input: payload(cwd), env: { ...process.env, OMNI_HOME: home, HOME: home }, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, rss: Number(/maxrss (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024 };
  };
  const none: Array<{ ms: number; rss: number }> = [];
  const untrusted: typeof none = [];
  call(plain);
  call(cloned); // warm the page cache
  for (let i = 0; i < 15; i++) {
    none.push(call(plain));
    untrusted.push(call(cloned));
  }
  const row = (name: string, xs: typeof none) => `| ${name} | ${median(xs.map((x) => x.ms)).toFixed(1)} ms | ${median(xs.map((x) => x.rss)).toFixed(0)} MiB |`;
  console.log(`### An untrusted 17 MB project rules file (${OMNI}, command post-hook, medians of 15, alternated)\n`);
  console.log('| project | wall | peak RSS |\n|---|---:|---:|');
  console.log(row('no rules file', none));
  console.log(row(`an untrusted ${(big.length / 1048576).toFixed(1)} MiB .omni/rules.json`, untrusted));
  console.log();
  rmSync(root, { recursive: true, force: true });
}

// 2 -------------------------------------------------------------------------------------------
function enginesOnCorpus(): void {
  const lines: string[] = [];
  for (const c of loadCorpus()) lines.push(...c.output.toString('utf8').split('\n'));
  const bytes = lines.reduce((a, l) => a + Buffer.byteLength(l) + 1, 0);
  // Five a rule might hold, `.*`, and a contrived 65-character one (32 optional `a`s): the
  // linear engine's time per character grows with the states a pattern keeps alive.
  const patterns = ['^[\\w.-]+(/[\\w.-]+)*/?$', '\\.conf$', '^\\s*(Compiling|Downloading|Fetching) ', 'ok \\d+ - ', 'GET /api/v1/\\S+ 200', '.*', 'a?'.repeat(32) + 'z'];
  const REPS = 10;
  console.log(`### Rule patterns over every corpus line (${lines.length} lines, ${(bytes / 1e6).toFixed(2)} MB, ${REPS} passes, CPU)\n`);
  console.log('| pattern | backtracking | linear | linear MB/s | ratio |\n|---|---:|---:|---:|---:|');
  for (const src of patterns) {
    const lin = compileLinear(src);
    if (typeof lin === 'string') throw new Error(lin);
    const back = new RegExp(src);
    const time = (re: RegExp) => {
      let n = 0;
      for (const l of lines) if (re.test(l)) n++; // warm
      const t0 = cpuMs();
      for (let k = 0; k < REPS; k++) for (const l of lines) if (re.test(l)) n++;
      return cpuMs() - t0;
    };
    const b = time(back);
    const l = time(lin);
    console.log(`| \`${src.length > 40 ? `${src.slice(0, 12)}… (${src.length} chars)` : src}\` | ${b.toFixed(0)} ms | ${l.toFixed(0)} ms | ${((bytes * REPS) / 1e6 / (l / 1000)).toFixed(0)} | ${(l / b).toFixed(0)}x |`);
  }
  console.log();
}

// 3 -------------------------------------------------------------------------------------------
function catastrophic(): void {
  const lin = compileLinear('^(a+)+$') as RegExp;
  const back = new RegExp('^(a+)+$');
  console.log('### `^(a+)+$` on n `a`s and a `b` (one line, CPU)\n');
  console.log('| n | backtracking | linear |\n|---:|---:|---:|');
  for (const n of [16, 18, 20, 22, 24, 40, 100_000]) {
    const s = 'a'.repeat(n) + 'b';
    let t0 = cpuMs();
    let bt = '(not run: 2^n steps)';
    if (n <= 24) { back.test(s); bt = `${(cpuMs() - t0).toFixed(1)} ms`; }
    t0 = cpuMs();
    for (let k = 0; k < 100; k++) lin.test(s);
    console.log(`| ${n} | ${bt} | ${((cpuMs() - t0) / 100).toFixed(3)} ms |`);
  }
  console.log();
}

// 4 -------------------------------------------------------------------------------------------
function flagCost(): void {
  const script = `require('node:stream'); require('node:fs'); require('node:crypto');
const t0 = process.hrtime.bigint(); const v8 = require('node:v8'); const t1 = process.hrtime.bigint();
v8.setFlagsFromString('--enable-experimental-regexp-engine'); const t2 = process.hrtime.bigint();
new RegExp('^(a+)+$', 'l'); const t3 = process.hrtime.bigint();
process.stdout.write([t1 - t0, t2 - t1, t3 - t2].map((x) => Number(x) / 1e6).join(' '));`;
  const runs = Array.from({ length: 21 }, () => spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout.split(' ').map(Number));
  const col = (i: number) => median(runs.map((r) => r[i])).toFixed(3);
  console.log('### Switching the linear engine on (a fresh process with node:stream loaded, medians of 21)\n');
  console.log(`require('node:v8') ${col(0)} ms; setFlagsFromString ${col(1)} ms; the first \`l\` pattern compiled ${col(2)} ms`);
  console.log();
}

untrustedFile();
enginesOnCorpus();
catastrophic();
flagCost();
