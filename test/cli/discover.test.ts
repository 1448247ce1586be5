/**
 * `omni discover` over session logs the pinned real CLIs wrote (test/fixtures/transcripts/,
 * captured by test/real-host/transcripts-capture.ts): Claude Code 2.1.332 (two sessions, one
 * output persisted past the host's cap), Codex 0.171.0 (one rollout) and Gemini CLI 0.61.0 (one
 * chat log). Through the built bundle, with HOME (or CLAUDE_CONFIG_DIR / CODEX_HOME /
 * GEMINI_CLI_HOME) pointing at copies of them.
 *
 * The expected numbers are computed here from the fixture files themselves, with plain JSON
 * reading, so the replay is checked against the logs, not against itself.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { omni, OMNI, ROOT, tempHome } from '../helpers/omni.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'transcripts');
const PROJECT = '/tmp/omni-transcripts-capture/proj';

/** A HOME holding copies of the captured logs where the hosts keep them. */
function homeWithLogs(): string {
  const home = tempHome();
  cpSync(join(FIXTURES, 'claude'), join(home, '.claude'), { recursive: true });
  cpSync(join(FIXTURES, 'codex'), join(home, '.codex'), { recursive: true });
  cpSync(join(FIXTURES, 'gemini'), join(home, '.gemini'), { recursive: true });
  return home;
}

function discover(args: string[], env: Record<string, string>) {
  const r = omni(['discover', ...args], { env: { CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '', OMNI_REPLACE_AS_ERROR: '', ...env } });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

function json(args: string[], env: Record<string, string>): any {
  const r = discover([...args, '--json'], env);
  if (r.status !== 0) throw new Error(`omni discover exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

/** Path -> sha256 and mtime of every file under dir. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(files(dir).map((p) => [relative(dir, p), `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${statSync(p).mtimeMs}`]));
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

interface Expected {
  calls: number;
  failed: number;
  failedBytes: number;
  bytesIn: number;
  byCommand: Map<string, { calls: number; failed: number; bytesIn: number }>;
}

/** What the logs hold, read the plain way: every Bash/Read result, every Codex and Gemini command. */
function expected(): Expected {
  const e: Expected = { calls: 0, failed: 0, failedBytes: 0, bytesIn: 0, byCommand: new Map() };
  const count = (command: string, n: number, failed: boolean) => {
    e.calls++;
    e.bytesIn += n;
    if (failed) {
      e.failed++;
      e.failedBytes += n;
    }
    const c = e.byCommand.get(command) ?? { calls: 0, failed: 0, bytesIn: 0 };
    c.calls++;
    c.bytesIn += n;
    if (failed) c.failed++;
    e.byCommand.set(command, c);
  };
  for (const f of files(join(FIXTURES, 'claude')).filter((p) => p.endsWith('.jsonl'))) {
    const uses = new Map<string, any>();
    for (const line of readFileSync(f, 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(line);
      for (const b of Array.isArray(r.message?.content) ? r.message.content : []) {
        if (b.type === 'tool_use') uses.set(b.id, b);
        if (b.type !== 'tool_result') continue;
        const u = uses.get(b.tool_use_id);
        if (u.name === 'Read') count(`Read ${u.input.file_path}`, bytes(r.toolUseResult.file.content), false);
        else if (b.is_error) count(u.input.command, bytes(b.content), true);
        else if (r.toolUseResult.persistedOutputPath) {
          const name = r.toolUseResult.persistedOutputPath.split('/').pop();
          const full = readFileSync(join(f.slice(0, -'.jsonl'.length), 'tool-results', name), 'utf8');
          count(u.input.command, bytes(full.replace(/\n$/, '')), false);
        } else count(u.input.command, bytes(r.toolUseResult.stdout), false);
      }
    }
  }
  for (const f of files(join(FIXTURES, 'codex'))) {
    const exit = new Map<string, { command: string; exit: number }>();
    for (const line of readFileSync(f, 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(line);
      if (r.payload?.type === 'item_completed' && r.payload.item.type === 'CommandExecution') exit.set(r.payload.item.id, { command: r.payload.item.command[2], exit: r.payload.item.exit_code });
      if (r.payload?.type === 'function_call_output' && exit.has(r.payload.call_id)) {
        const x = exit.get(r.payload.call_id)!;
        const body = r.payload.output.slice(r.payload.output.indexOf('\nOutput:\n') + '\nOutput:\n'.length);
        count(x.command, bytes(body), x.exit !== 0);
      }
    }
  }
  // Gemini: each call once (its message record is written again as it grows); the output
  // without the CLI's frame is what it shows as resultDisplay; the exit code is in the frame.
  for (const f of files(join(FIXTURES, 'gemini'))) {
    const done = new Set<string>();
    for (const line of readFileSync(f, 'utf8').split('\n').filter(Boolean)) {
      for (const tc of JSON.parse(line).toolCalls ?? []) {
        if (done.has(tc.id)) continue;
        done.add(tc.id);
        const framed = tc.result[0].functionResponse.response.output;
        count(tc.args.command, bytes(tc.resultDisplay), /\nExit Code: [1-9]/.test(framed));
      }
    }
  }
  return e;
}

t.test('the captured logs: every result replayed once, families, bytes as the logs hold them', async (t) => {
  const home = homeWithLogs();
  const exp = expected();
  const rep = json(['--since', 'all'], { HOME: home });
  t.equal(rep.hosts.claude.files, 2, 'two Claude Code sessions');
  t.equal(rep.hosts.codex.files, 1, 'one Codex rollout');
  t.equal(rep.hosts.gemini.files, 1, 'one Gemini chat log');
  t.equal(rep.malformed, 0, 'no malformed line in what the CLIs wrote');
  t.equal(rep.unpaired, 0, 'every result has its call');
  t.equal(rep.total.calls, exp.calls, `${exp.calls} results`);
  t.ok(exp.calls >= 20, 'the fixtures hold a real number of calls');
  t.equal(rep.total.bytesIn, exp.bytesIn, 'bytes in: what the logs hold (the persisted file for an output over the cap)');
  t.equal(rep.total.failed, exp.failed, `${exp.failed} failures`);
  t.equal(rep.total.failedBytes, exp.failedBytes, 'failure bytes');
  t.equal(rep.total.bytesSaved, rep.total.bytesIn - rep.total.bytesDelivered, 'saved = in - delivered');
  t.ok(rep.total.bytesDelivered < rep.total.bytesIn, `omni would have delivered less: ${rep.total.bytesIn} -> ${rep.total.bytesDelivered} B`);

  const fam = Object.fromEntries(rep.byFamily.map((r: any) => [r.family, r]));
  t.same(Object.keys(fam).sort(), ['build', 'enumeration', 'generic', 'git', 'log', 'read (Read tool)', 'test'], 'one row per family');
  const sum = (k: string) => rep.byFamily.reduce((n: number, r: any) => n + r[k], 0);
  for (const k of ['calls', 'failed', 'failedBytes', 'applied', 'bytesIn', 'bytesDelivered']) t.equal(sum(k), rep.total[k], `the families add up to the total (${k})`);
  const npmTest = exp.byCommand.get('npm test')!;
  const npmFail = exp.byCommand.get('npm test -- --fail')!;
  t.equal(fam.test.calls, npmTest.calls + npmFail.calls, 'test: npm test and npm test -- --fail, every host');
  t.equal(fam.test.calls, 6);
  t.equal(fam.test.bytesIn, npmTest.bytesIn + npmFail.bytesIn, 'test: their bytes');
  t.equal(fam.test.failed, 3, 'test: the three failing runs');
  t.equal(fam.log.calls, 3, 'log: cat server.log on every host');
  t.equal(fam['read (Read tool)'].calls, 3, 'three Reads');
  t.equal(fam.git.calls, 2, 'git status, git log --stat');
  for (const r of rep.byFamily) t.ok(r.bytesDelivered <= r.bytesIn, `${r.family}: never more than it got`);
  for (const r of rep.byFamily) t.ok(r.bytesDelivered >= r.failedBytes, `${r.family}: every failure byte is delivered`);

  t.test('a failure is delivered verbatim: a family of failures only saves nothing', async (t) => {
    // ls -la succeeded (an enumeration: every row stays); ls /nonexistent failed on every host.
    t.equal(fam.enumeration.failed, 3);
    t.equal(fam.enumeration.bytesDelivered, fam.enumeration.bytesIn, 'enumeration: nothing removed');
    const failOnly = exp.byCommand.get('ls /nonexistent')!;
    t.equal(failOnly.failed, 3);
    t.equal(fam.enumeration.failedBytes, failOnly.bytesIn, "the failures' bytes, as the logs hold them");
  });

  t.test('the numbers are the pipeline\'s: npm run build replayed equals omni pipe on the same output', async (t) => {
    let stdout = '';
    for (const f of files(join(FIXTURES, 'claude')).filter((p) => p.endsWith('.jsonl'))) {
      const uses = new Map<string, any>();
      for (const line of readFileSync(f, 'utf8').split('\n').filter(Boolean)) {
        const r = JSON.parse(line);
        for (const b of Array.isArray(r.message?.content) ? r.message.content : []) {
          if (b.type === 'tool_use') uses.set(b.id, b);
          if (b.type === 'tool_result' && uses.get(b.tool_use_id)?.input?.command === 'npm run build') stdout = r.toolUseResult.stdout;
        }
      }
    }
    t.ok(stdout.length > 10_000, 'the build output is in the log');
    const piped = omni(['pipe', '--command', 'npm run build'], { input: stdout });
    t.equal(fam.build.bytesIn, bytes(stdout));
    t.equal(fam.build.bytesDelivered, piped.stdout.length, `delivered ${piped.stdout.length} B, as omni pipe`);
    t.ok(fam.build.bytesDelivered < fam.build.bytesIn / 10, 'and far smaller');
  });

  t.test('commands no distiller owns, most bytes first, without their arguments', async (t) => {
    const cmds = rep.unowned.map((r: any) => r.command);
    t.same(cmds.slice(0, 2), ['node big.js', 'seq 1'], 'the biggest unowned commands first');
    t.equal(rep.unowned[0].bytesIn, exp.byCommand.get('node big.js')!.bytesIn, 'node big.js: the whole persisted output');
    t.equal(rep.unowned[1].calls, 4, 'seq 1 2000: four calls (two Claude Code, one Codex, one Gemini)');
    for (let i = 1; i < rep.unowned.length; i++) t.ok(rep.unowned[i - 1].bytesIn >= rep.unowned[i].bytesIn, 'ranked by bytes');
    t.notOk(cmds.some((c: string) => /^(npm|git status|cat|ls)/.test(c)), 'owned commands are not listed');
    t.notOk(cmds.some((c: string) => c.startsWith('Read')), 'Reads are not commands to write a rule for');
  });

  t.test('the table says the same', async (t) => {
    const r = discover(['--since', 'all'], { HOME: home });
    t.equal(r.status, 0);
    t.equal(r.stderr, '', 'no progress line when stderr is not a terminal');
    t.match(r.stdout, new RegExp(`${rep.total.calls} shell and Read results, ${rep.total.failed} failures \\(verbatim\\)`));
    t.match(r.stdout, /^family +calls +failed +bytes +delivered +saved +saved %$/m, 'a family table');
    t.match(r.stdout, /^build +1 +0 +21\.5 KiB +238 B +21\.3 KiB +98\.9%$/m, 'the build row');
    t.match(r.stdout, /Commands no distiller owns, most bytes first/);
    t.match(r.stdout, /^node big\.js +1 +0 +63\.\d KiB/m, 'the biggest unowned command');
  });
});

t.test('Gemini CLI: replaced only with OMNI_REPLACE_AS_ERROR=1, as the hook does', async (t) => {
  const home = homeWithLogs();
  const only = { HOME: tempHome(), GEMINI_CLI_HOME: home };
  const plain = json(['--since', 'all'], only);
  t.equal(plain.total.calls, 5, 'five shell calls');
  t.equal(plain.total.failed, 2, 'npm test -- --fail and ls /nonexistent: exit 2 in the frame');
  t.equal(plain.total.applied, 0, 'without the opt-in the hook replies nothing');
  t.equal(plain.total.bytesDelivered, plain.total.bytesIn, 'so everything is delivered as it was');
  const opted = json(['--since', 'all'], { ...only, OMNI_REPLACE_AS_ERROR: '1' });
  t.ok(opted.total.applied > 0, 'with it, successes are distilled');
  t.ok(opted.total.bytesDelivered < plain.total.bytesDelivered, `${plain.total.bytesDelivered} -> ${opted.total.bytesDelivered} B`);
  t.equal(opted.total.failedBytes, plain.total.failedBytes, 'failures still verbatim');
  const fam = Object.fromEntries(opted.byFamily.map((r: any) => [r.family, r]));
  t.equal(fam.test.failed, 1);
  t.ok(fam.test.bytesDelivered >= fam.test.failedBytes, 'the failing npm test is whole');
});

t.test('the user store and the host files are left alone', async (t) => {
  const home = homeWithLogs();
  const omniHome = tempHome();
  // A user store in use: a run through omni pipe wrote it.
  const seed = omni(['pipe', '--command', 'npm install'], { input: 'added 1 package\n'.repeat(50), env: { OMNI_HOME: omniHome } });
  t.equal(seed.status, 0);
  const before = { home: snapshot(home), store: snapshot(omniHome) };
  t.ok(Object.keys(before.store).length > 0, 'the user store has files');
  const rep = json(['--since', 'all'], { HOME: home, OMNI_HOME: omniHome });
  t.ok(rep.total.applied > 0, 'the replay distilled and archived something');
  t.same(snapshot(omniHome), before.store, 'the user store: the same files, bytes and mtimes');
  t.same(snapshot(home), before.home, 'the host files: the same files, bytes and mtimes, nothing added');
  const fresh = join(tempHome(), 'never');
  json(['--since', 'all'], { HOME: home, OMNI_HOME: fresh });
  t.notOk(existsSync(fresh), 'an OMNI_HOME that did not exist still does not');
});

t.test('malformed lines are counted and skipped, never fatal', async (t) => {
  const home = homeWithLogs();
  const clean = json(['--since', 'all'], { HOME: home });
  const session = files(join(home, '.claude')).find((p) => p.endsWith('.jsonl'))!;
  const lines = readFileSync(session, 'utf8').split('\n').filter(Boolean);
  // A record cut off mid-write (the host was killed), garbage, a JSON value that is no record.
  const cut = lines[lines.length - 3].slice(0, 120);
  appendFileSync(session, `${cut}\nnot json at all\n[1,2,3]\n\n`);
  const rep = json(['--since', 'all'], { HOME: home });
  t.equal(rep.malformed, 3, 'three malformed lines');
  t.equal(rep.lines, clean.lines + 3, 'counted as lines read (the blank one is not)');
  t.same(rep.total, clean.total, 'every result still replayed, the same numbers');
  const r = discover(['--since', 'all'], { HOME: home });
  t.equal(r.status, 0);
  t.match(r.stdout, /3 malformed \(skipped\)/);
});

t.test('where the logs are: CLAUDE_CONFIG_DIR and CODEX_HOME, --project, --since', async (t) => {
  const home = homeWithLogs();
  const all = json(['--since', 'all'], { HOME: home });
  const moved = json(['--since', 'all'], { HOME: tempHome(), CLAUDE_CONFIG_DIR: join(home, '.claude'), CODEX_HOME: join(home, '.codex'), GEMINI_CLI_HOME: home });
  t.same(moved.total, all.total, 'CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME are where the hosts said');
  t.equal(moved.hosts.claude.dir, join(home, '.claude'));
  const onlyClaude = json(['--since', 'all'], { HOME: tempHome(), CLAUDE_CONFIG_DIR: join(home, '.claude') });
  t.equal(onlyClaude.hosts.codex.files, 0, 'no Codex log there');
  t.equal(onlyClaude.total.calls, 16, 'the Claude Code results alone');

  const project = json(['--since', 'all', '--project', PROJECT], { HOME: home });
  t.same(project.total, all.total, '--project: the captured project holds every call');
  t.equal(project.hosts.gemini.files, 1);
  const other = json(['--since', 'all', '--project', '/somewhere/else'], { HOME: home });
  t.equal(other.total.calls, 0, '--project elsewhere: nothing');

  // Logs last written a month ago are outside a week.
  const old = Date.now() / 1000 - 30 * 86400;
  for (const p of files(home)) utimesSync(p, old, old);
  const week = json(['--since', '7d'], { HOME: home });
  t.equal(week.hosts.claude.files + week.hosts.codex.files, 0, '--since 7d: logs a month old are not read');
  t.equal(week.total.calls, 0);
});

t.test('an empty machine and bad arguments', async (t) => {
  const empty = discover([], { HOME: tempHome() });
  t.equal(empty.status, 0, 'no logs: exit 0');
  t.match(empty.stdout, /0 shell and Read results/);
  const bad = discover(['--since', 'soon'], { HOME: tempHome() });
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--since takes a duration/);
  const unknown = discover(['--frobnicate'], { HOME: tempHome() });
  t.equal(unknown.status, 2);
  t.match(unknown.stderr, /unknown argument '--frobnicate'/);
  // A log written by a host whose records omni does not know: counted, not fatal.
  const home = tempHome();
  mkdirSync(join(home, '.claude', 'projects', 'p'), { recursive: true });
  writeFileSync(join(home, '.claude', 'projects', 'p', 's.jsonl'), '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":"orphan"}]}}\n');
  const orphan = json(['--since', 'all'], { HOME: home });
  t.equal(orphan.unpaired, 1, 'a result without its call is counted');
  t.equal(orphan.total.calls, 0, 'and not replayed');
});

t.test('on a terminal, a progress line on stderr, cleared at the end; stdout unchanged', async (t) => {
  const { run } = await import('../../lib/cli/discover.js');
  const { Writable } = await import('node:stream');
  const sink = (tty: boolean) => {
    const chunks: string[] = [];
    const w = new Writable({ write: (c, _e, cb) => (chunks.push(c.toString()), cb()) });
    (w as unknown as { isTTY: boolean }).isTTY = tty;
    return { w, text: () => chunks.join('') };
  };
  const home = homeWithLogs();
  const saved = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR, CODEX_HOME: process.env.CODEX_HOME };
  process.env.HOME = home;
  delete process.env.CLAUDE_CONFIG_DIR;
  delete process.env.CODEX_HOME;
  try {
    const term = { out: sink(false), err: sink(true) };
    t.equal(await run(['--since', 'all', '--json'], { stdout: term.out.w, stderr: term.err.w }), 0);
    t.match(term.err.text(), /^\romni discover: .* read, \d+ results replayed/, 'a progress line');
    t.ok(term.err.text().endsWith('\r\x1b[K'), 'cleared at the end');
    const pipe = { out: sink(false), err: sink(false) };
    t.equal(await run(['--since', 'all', '--json'], { stdout: pipe.out.w, stderr: pipe.err.w }), 0);
    t.equal(pipe.err.text(), '', 'not a terminal: nothing on stderr');
    const strip = (s: string) => s.replace(/"seconds": [\d.]+/, '');
    t.equal(strip(term.out.text()), strip(pipe.out.text()), 'the same report either way');
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

t.test('a persisted output that is a FIFO, a device or a directory is refused, never read: the replay ends', async (t) => {
  const home = homeWithLogs();
  const persisted = files(join(home, '.claude')).find((p) => p.endsWith('bj0kqb51g.txt'))!;
  rmSync(persisted);
  // The file gone: the hook's preview stands for that call. Every refusal must give exactly this.
  const missing = json(['--since', 'all'], { HOME: home });
  const session = files(join(home, '.claude')).find((p) => p.endsWith('3c28cf7b-e8d4-4c27-8fa9-ad6b0c46bf1e.jsonl'))!;
  const log = readFileSync(session, 'utf8');
  const at = (p: string) => log.replaceAll('/tmp/omni-transcripts-capture/home/.claude/projects/-tmp-omni-transcripts-capture-proj/3c28cf7b-e8d4-4c27-8fa9-ad6b0c46bf1e/tool-results/bj0kqb51g.txt', p);

  // A FIFO beside the log, where Claude Code keeps persisted outputs: opening it would block.
  execFileSync('mkfifo', [persisted]);
  const fifo = discover(['--since', 'all', '--json'], { HOME: home });
  t.equal(fifo.status, 0, `a FIFO in tool-results/: exit 0 (${fifo.stderr})`);
  t.same(JSON.parse(fifo.stdout).total, missing.total, 'counted as the preview, as with the file missing');
  rmSync(persisted);

  // The record names another path: /dev/zero (never ends), a directory, /dev/null.
  for (const p of ['/dev/zero', tempHome(), '/dev/null']) {
    writeFileSync(session, at(p));
    const r = discover(['--since', 'all', '--json'], { HOME: home });
    t.equal(r.status, 0, `${p}: exit 0 (${r.stderr.slice(0, 300)})`);
    t.same(JSON.parse(r.stdout).total, missing.total, `${p}: refused, the preview stands`);
  }
});

t.test('a FIFO or a device where a host log should be is skipped', async (t) => {
  const home = homeWithLogs();
  const clean = json(['--since', 'all'], { HOME: home });
  const dir = join(home, '.claude', 'projects', '-tmp-omni-transcripts-capture-proj');
  execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
  symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
  mkdirSync(join(home, '.codex', 'sessions', '2026'), { recursive: true });
  execFileSync('mkfifo', [join(home, '.codex', 'sessions', '2026', 'rollout-x.jsonl')]);
  const r = discover(['--since', 'all', '--json'], { HOME: home });
  t.equal(r.status, 0, r.stderr);
  t.same(JSON.parse(r.stdout).total, clean.total, 'the same replay: nothing read from them');
});

/**
 * A history that takes a while to replay: `n` calls of one Bash command whose whole output
 * (Claude Code's persisted file, `mb` MiB of noisy lines) is distilled each time.
 */
function slowHistory(n: number, mb: number): string {
  const home = tempHome();
  const fixture = files(join(FIXTURES, 'claude')).find((p) => p.endsWith('3c28cf7b-e8d4-4c27-8fa9-ad6b0c46bf1e.jsonl'))!;
  const records = readFileSync(fixture, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const use = records.find((r) => r.type === 'assistant' && Array.isArray(r.message?.content) && r.message.content.some((b: any) => b.id === 'toolu_cap1_05_0006'));
  const result = records.find((r) => r.type === 'user' && Array.isArray(r.message?.content) && r.message.content.some((b: any) => b.tool_use_id === 'toolu_cap1_05_0006'));
  const dir = join(home, '.claude', 'projects', 'slow');
  mkdirSync(join(dir, 'big', 'tool-results'), { recursive: true });
  writeFileSync(join(dir, 'big', 'tool-results', 'out.txt'), Buffer.from('Downloading package-1 50%\nDownloading package-2 50%\n'.repeat((mb << 20) / 52)));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `toolu_slow_${i}`;
    out.push(JSON.stringify({ ...use, message: { ...use.message, content: [{ ...use.message.content[0], id }] } }));
    out.push(JSON.stringify({ ...result, message: { ...result.message, content: [{ ...result.message.content[0], tool_use_id: id }] }, toolUseResult: { ...result.toolUseResult, persistedOutputPath: '/nonexistent/out.txt' } }));
  }
  writeFileSync(join(dir, 'big.jsonl'), out.join('\n') + '\n');
  return home;
}

/** The replay is under way once its throwaway store in `tmp` has archived something: its name, or '' after 30 s. */
async function replayUnderWay(tmp: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const d = readdirSync(tmp).find((n) => n.startsWith('omni-discover-'));
    if (d && existsSync(join(tmp, d, 'omni.db'))) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  return '';
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  t.test(`${sig} during a replay leaves nothing in TMPDIR`, async (t) => {
    const home = slowHistory(200, 4);
    const tmp = tempHome();
    const child = spawn(process.execPath, [OMNI, 'discover', '--since', 'all'], {
      env: { ...process.env, HOME: home, OMNI_HOME: join(home, '.omni'), TMPDIR: tmp, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    const store = await replayUnderWay(tmp);
    t.ok(store, 'the throwaway store was made in TMPDIR');
    child.kill(sig);
    const code = await exit;
    t.equal(code, sig === 'SIGINT' ? 130 : 143, '128+N');
    t.match(stderr, /interrupted/);
    t.same(readdirSync(tmp), [], 'TMPDIR is empty again');
  });
}

t.test('a replay killed outright (SIGKILL) leaves its store, and the next replay removes it', async (t) => {
  const home = slowHistory(200, 4);
  const tmp = tempHome();
  const env = { ...process.env, HOME: home, OMNI_HOME: join(home, '.omni'), TMPDIR: tmp, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const child = spawn(process.execPath, [OMNI, 'discover', '--since', 'all'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise<void>((r) => child.on('exit', () => r()));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  const store = await replayUnderWay(tmp);
  t.ok(store, 'the throwaway store was made in TMPDIR');
  child.kill('SIGKILL');
  await exit;
  t.same(readdirSync(tmp), [store], 'killed outright, it is left behind');
  // Another process's store, alive: never touched; a name that is not omni's: never touched.
  const live = `omni-discover-${process.pid}-keep`;
  mkdirSync(join(tmp, live));
  mkdirSync(join(tmp, 'omni-discover-notapid'));
  const r = spawnSync(process.execPath, [OMNI, 'discover', '--since', 'all'], { env: { ...env, HOME: tempHome() }, encoding: 'utf8' });
  t.equal(r.status, 0, 'the next replay runs');
  t.same(readdirSync(tmp).sort(), [live, 'omni-discover-notapid'].sort(), "the dead replay's store is gone, the others stay");
});
