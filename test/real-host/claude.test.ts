/**
 * Proof with the real host: the pinned Claude Code CLI (2.1.332) runs headless against the
 * loopback stand-in, with omni installed by the real `omni init` in a temporary HOME. Every
 * assertion is on the tool_result the CLI sent to the model in its next request, compared
 * with a baseline run of the same script without omni.
 *
 * Run: npx tap --disable-coverage test/real-host/claude.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachments, claudeBin, normalise, omniBin, runClaude, type RunResult } from './harness.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { claudePreview } from '../../lib/hosts/claude/view.js';
import { needs } from '../helpers/needs.js';

const NOISE = (n: number, last: string) =>
  `for i in $(seq 1 ${n}); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "${last}"`;

const READ_LINES = [
  ...Array.from({ length: 40 }, (_, i) => `config line ${i + 1}: key_${i + 1} = value ${(i * 7919) % 1000}`),
  'the last line of the file',
];

// The error goes to stderr only after stdout has drained: Node writes stdout to a full pipe
// asynchronously, and a stderr line written meanwhile overtakes it (measured: `node x.js 2>&1 | slow
// reader`). Under a host's own file capture that never happens, so it would look like omni's doing.
const NOISY_JS = `for (let i = 1; i <= 400; i++) console.log('Downloading https://registry.example.org/dep-' + (i % 3) + '.tgz 50%');
console.log('OMNI_SESSION_ID=' + (process.env.OMNI_SESSION_ID || 'unset'));
if (process.argv.includes('--fail')) process.stdout.write('', () => { console.error('Error: 1 test failed: expected 2, got 3'); process.exitCode = 2; });
`;

const FILES = {
  'fixture.cfg': READ_LINES.join('\n') + '\n',
  'noisy.js': NOISY_JS,
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node noisy.js', build: 'node noisy.js' } }, null, 2),
};

/** One CLI run plays every bypassPermissions scenario. */
const SCRIPT = [
  { tool: 'Bash', input: { command: NOISE(400, 'added 400 packages in 3s'), description: 'noisy success' } }, // 0
  { tool: 'Bash', input: { command: NOISE(400, 'npm error code E404') + '; exit 3', description: 'noisy failure' } }, // 1
  { tool: 'Read', input: { file_path: '{{PROJ}}/fixture.cfg' } }, // 2
  { tool: 'Read', input: { file_path: '{{PROJ}}/fixture.cfg', offset: 30, limit: 8 } }, // 3
  { tool: 'Read', input: { file_path: '{{PROJ}}/fixture.cfg' } }, // 4: a repeat read
  { tool: 'Bash', input: { command: NOISE(3000, 'added 3000 packages in 9s'), description: 'over the cap' } }, // 5
  { tool: 'Bash', input: { command: 'npm test', description: 'run the tests' } }, // 6
  { tool: 'Bash', input: { command: 'npm test -- --fail', description: 'a failing test run' } }, // 7
  { text: 'All steps done.' },
];

const canRun = existsSync(claudeBin()) && existsSync(omniBin());

function bytes(s: string | undefined | null): number {
  return Buffer.byteLength(s ?? '', 'utf8');
}

/** `N\t<text>` lines of a Read result: every non-marker line must be the file's line N. */
function checkNumbering(t: Tap, text: string, file: string[]): { numbered: number; markers: number } {
  let numbered = 0;
  let markers = 0;
  for (const l of text.split('\n')) {
    const m = /^\s*(\d+)\t(.*)$/.exec(l);
    if (!m) continue;
    const n = Number(m[1]);
    if (m[2].startsWith('[omni:')) {
      markers++;
      continue;
    }
    numbered++;
    if (file[n - 1] !== m[2]) t.fail(`line ${n} as the model saw it is not the file's line ${n}: ${JSON.stringify(m[2])} vs ${JSON.stringify(file[n - 1])}`);
  }
  return { numbered, markers };
}
type Tap = { fail(msg: string): unknown };



// eslint-disable-next-line @typescript-eslint/no-explicit-any
function noHookErrors(t: any, run: RunResult, label: string) {
  const bad = [...attachments(run.transcript, 'hook_error_during_execution'), ...attachments(run.transcript, 'hook_non_blocking_error'), ...attachments(run.transcript, 'hook_blocking_error'), ...attachments(run.transcript, 'hook_cancelled')];
  t.equal(run.transcript.length > 0, true, `${label}: the transcript was read`);
  t.same(bad.map((a) => `${a.type}: ${String(a.content ?? a.stderr ?? '').slice(0, 200)}`), [], `${label}: no hook_error_during_execution, non-blocking, blocking or cancelled record`);
}

t.test('the real Claude Code CLI with omni installed by `omni init`', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  const [base, omni] = await Promise.all([
    runClaude({ script: SCRIPT, withOmni: false, files: FILES, tag: 'base' }),
    runClaude({ script: SCRIPT, withOmni: true, files: FILES, tag: 'omni' }),
  ]);
  // The rewrite is opt-in (`omni init --rewrite`): its steps, in a session of their own.
  const rewrite = await runClaude({ script: SCRIPT, withOmni: true, initArgs: ['--rewrite'], files: FILES, tag: 'rwomni' });
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
    rewrite.cleanup();
  });
  t.equal(omni.version, '2.1.332', 'the pinned CLI ran');
  t.equal(omni.exitCode, 0, `the omni run ended normally (${omni.stderr.slice(0, 300)})`);
  t.equal(base.exitCode, 0, 'the baseline run ended normally');
  t.match(omni.initOutput, /hooks registered in .*settings\.json/, '`omni init` registered the hooks');
  const settings = JSON.parse(readFileSync(join(omni.home, '.claude', 'settings.json'), 'utf8'));
  t.ok(settings.hooks.PostToolUse[0].hooks[0].command.includes(omniBin()), 'hooks call omni by absolute path');

  const summary: Record<string, { before: number; after: number }> = {};
  const seen = (run: RunResult, i: number) => run.results[i];

  t.test('a noisy successful Bash command is applied, smaller, and keeps its last line', async (t) => {
    const b = seen(base, 0)!;
    const o = seen(omni, 0)!;
    summary['1 noisy success'] = { before: bytes(b.text), after: bytes(o.text) };
    t.ok(o.text.length < b.text.length / 4, `${bytes(b.text)} B -> ${bytes(o.text)} B`);
    t.ok(o.text.endsWith('added 400 packages in 3s'), 'the last line is there');
    t.match(o.text, /\[omni: .* — omni retrieve [0-9a-f]{16}\]/, 'the fold names its archive handle');
    t.equal(o.isError, false);
  });

  t.test('a failing noisy Bash command reaches the model verbatim', async (t) => {
    const b = seen(base, 1)!;
    const o = seen(omni, 1)!;
    summary['2 noisy failure'] = { before: bytes(b.text), after: bytes(o.text) };
    t.equal(o.isError, true, 'an error result');
    t.equal(normalise(o.text, omni), normalise(b.text, base), 'byte for byte what the host sends without omni');
    t.match(o.text, /^Exit code 3\n/);
  });

  t.test('a Read comes back in Read\'s shape with correct line numbers', async (t) => {
    for (const [i, label] of [[2, 'whole file'], [3, 'offset 30, limit 8'], [4, 'repeat read']] as const) {
      const b = seen(base, i)!;
      const o = seen(omni, i)!;
      summary[`3 read (${label})`] = { before: bytes(b.text), after: bytes(o.text) };
      t.equal(o.isError, false, `${label}: not an error`);
      const c = checkNumbering(t, o.text, FILES['fixture.cfg'].split('\n'));
      t.ok(c.numbered + c.markers > 0, `${label}: line-numbered as Read's result (${c.numbered} file lines, ${c.markers} omni lines)`);
      if (c.markers === 0) t.equal(normalise(o.text, omni), normalise(b.text, base), `${label}: untouched, identical to the baseline`);
      else {
        t.ok(o.text.length < b.text.length, `${label}: folded at the head, smaller`);
        // Issue 10, defect 8: one marker that names its handle, and no number past the file's last line.
        const rows = o.text.split('\n').map((l) => /^\s*(\d+)\t(.*)$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
        const last = READ_LINES.length;
        t.same(rows.filter((m) => Number(m[1]) > last).map((m) => m[0]), [], `${label}: every line number is one the file has (1-${last})`);
        for (const m of rows.filter((r) => r[2].includes('[omni:'))) {
          t.match(m[2], /^\[omni: lines (\d+)-(\d+): [^\]]* — omni retrieve [0-9a-f]{16}\]$/, `${label}: one marker, with its lines and its handle: ${m[2]}`);
          const range = /lines (\d+)-(\d+)/.exec(m[2]);
          if (range) t.equal(Number(m[1]), Number(range[2]), `${label}: the marker stands at the number of its last line`);
        }
      }
      t.comment(`${label}: the model saw ${JSON.stringify(o.text.slice(0, 160))} … ${JSON.stringify(o.text.slice(-80))}`);
      t.comment(`${label}: baseline ends ${JSON.stringify(b.text.slice(-80))}`);
    }
    // Lines 30-37 of a file the model read whole a step before: one marker for them, at 37.
    t.match(seen(omni, 3)!.text, /^\s*37\t\[omni: lines 30-37: unchanged since you read them at [^\]]* — omni retrieve [0-9a-f]{16}\]$/, 'the offset read of lines the model holds is one marker for lines 30-37');
  });

  t.test('a Bash result over the host\'s cap is distilled from the persisted file', async (t) => {
    const b = seen(base, 5)!;
    const o = seen(omni, 5)!;
    summary['4 over the cap'] = { before: bytes(b.text), after: bytes(o.text) };
    t.match(b.text, /^<persisted-output>/, 'without omni the model gets the host\'s 2 KB preview');
    t.notOk(b.text.includes('added 3000 packages in 9s'), 'and never sees the last line');
    t.notMatch(o.text, /<persisted-output>/, 'with omni: no wrapper');
    t.ok(o.text.endsWith('added 3000 packages in 9s'), 'the real last line, only in the persisted file, reached the model');
    t.ok(bytes(o.text) < bytes(b.text), `${bytes(b.text)} B -> ${bytes(o.text)} B`);
  });

  t.test('by default nothing is rewritten: npm test runs as the model asked, and the post-hook distils it', async (t) => {
    const b = seen(base, 6)!;
    const o = seen(omni, 6)!;
    summary['5 npm test (bypassPermissions, post-only)'] = { before: bytes(b.text), after: bytes(o.text) };
    t.match(b.text, /OMNI_SESSION_ID=unset/, 'baseline: the command ran directly');
    t.match(o.text, /OMNI_SESSION_ID=unset/, 'with omni too: no omni exec around it');
    t.same(attachments(omni.transcript, 'hook_success').filter((a) => a.hookEvent === 'PreToolUse'), [], 'no PreToolUse hook ran');
    t.ok(o.text.length < b.text.length, `${bytes(b.text)} B -> ${bytes(o.text)} B`);
    t.ok(o.text.endsWith('OMNI_SESSION_ID=unset'), 'the last line is there');
  });

  t.test('with `omni init --rewrite`, a plain allow-listed command runs through omni exec under bash', async (t) => {
    const b = seen(base, 6)!;
    const o = seen(rewrite, 6)!;
    summary['5b npm test (bypassPermissions, --rewrite)'] = { before: bytes(b.text), after: bytes(o.text) };
    t.ok(routeCommand('npm test').rewrite, '`npm test` is on the registry\'s rewrite allow-list');
    t.match(o.text, new RegExp(`OMNI_SESSION_ID=${rewrite.sessionId}`), 'the command ran under omni exec, with the session id');
    const pre = attachments(rewrite.transcript, 'hook_success').filter((a) => a.hookEvent === 'PreToolUse' && a.stdout);
    t.ok(pre.some((a) => String(a.stdout).includes(' exec --bash ') && String(a.stdout).includes("'npm test'")), 'the PreToolUse reply rewrote into omni exec --bash');
    t.ok(o.text.length < b.text.length, `${bytes(b.text)} B -> ${bytes(o.text)} B`);
  });

  // This test found a real bug: `omni exec` read the child's pipe on the thread that also
  // distils, so a busy moment let the pipe fill, and a child that then exits drops what it
  // had queued. The reader now runs on its own thread (lib/doors/child-reader.ts). The
  // fixture sets process.exitCode instead of calling process.exit(), because a Node program
  // that calls exit() with writes still queued can lose them under ANY reader on a loaded
  // machine (a bare spawn-and-count reader lost 1 run in 12 here), with or without omni.
  t.test('a failing command the pre-hook rewrote reaches the model verbatim', async (t) => {
    const b = seen(base, 7)!;
    const o = seen(rewrite, 7)!;
    summary['2b npm test failing (rewritten)'] = { before: bytes(b.text), after: bytes(o.text) };
    const norm = (s: string, r: RunResult) => normalise(s, r).replace(/OMNI_SESSION_ID=\S+/, 'OMNI_SESSION_ID=<sid or unset>').replace(/_logs\/\S+-debug-\d+\.log/g, '_logs/<LOG>');
    t.equal(o.isError, true);
    // The host keeps ~5,000 characters from each end of a long failure. The wrapper's session
    // id (36 characters instead of "unset") moves that cut, so compare the two ends.
    const CUT = /\n\n\.\.\. \[\d+ characters truncated\] \.\.\.\n\n/;
    const [oHead, oTail = ''] = norm(o.text, rewrite).split(CUT);
    const [bHead, bTail = ''] = norm(b.text, base).split(CUT);
    t.equal(oHead, bHead, 'the same head as without omni');
    t.equal(oTail.slice(-4000), bTail.slice(-4000), 'the same tail as without omni, except the session id the wrapper carried');
    t.match(o.text, /Error: 1 test failed: expected 2, got 3/);
    t.match(o.text, new RegExp(`OMNI_SESSION_ID=${rewrite.sessionId}`), 'it did run under omni exec');
    t.equal(normalise(seen(omni, 7)!.text, omni), normalise(b.text, base), 'post-only: byte for byte what the host sends without omni');
  });

  t.test('the session transcript has no hook error record', async (t) => {
    noHookErrors(t, omni, 'omni run');
    noHookErrors(t, rewrite, 'omni run with --rewrite');
  });

  t.teardown(() => {
    t.comment('bytes the model saw (baseline -> omni):');
    for (const [k, v] of Object.entries(summary)) t.comment(`  ${k}: ${v.before} -> ${v.after}`);
    if (process.env.OMNI_REAL_HOST_SUMMARY) writeFileSync(process.env.OMNI_REAL_HOST_SUMMARY, JSON.stringify(summary, null, 2));
  });
});

t.test('permission rules written for the original command still hold with the rewrite installed (omni init --rewrite)', async (t) => {
  if (!needs(t, Boolean(canRun), 'needs the CLI and dist/omni.cjs')) return;
  const script = [
    { tool: 'Bash', input: { command: 'npm test', description: 'denied by a rule' } },
    { tool: 'Bash', input: { command: 'npm run test', description: 'allowed by a user rule' } },
    { tool: 'Bash', input: { command: 'npm install --no-audit', description: 'no rule' } },
    { tool: 'Bash', input: { command: 'make', description: 'allowed only by an untrusted project' } },
    { text: 'done' },
  ];
  // The user's committed project settings: what the hook reads (rules passed only with
  // --settings on the command line are invisible to hooks; see docs/claude-code-findings.md).
  const projectSettings = { permissions: { deny: ['Bash(npm test)'], allow: ['Bash(make)'] } };
  const userSettings = { permissions: { allow: ['Bash(npm run test)'] } };
  const [base, omni] = await Promise.all([
    runClaude({ script, withOmni: false, files: FILES, projectSettings, userSettings, permissionMode: 'default', tag: 'pbase' }),
    runClaude({ script, withOmni: true, initArgs: ['--rewrite'], files: FILES, projectSettings, userSettings, permissionMode: 'default', tag: 'pomni' }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });

  t.test('a command with a deny rule is not rewritten and stays denied', async (t) => {
    const o = omni.results[0]!;
    t.equal(o.isError, true);
    t.equal(o.text, base.results[0]!.text, 'the same denial as without omni');
    t.match(o.text, /Permission to use Bash with command npm test has been denied/);
    t.same(omni.permissionDenials.map((d: any) => d.tool_input?.command).filter((c: string) => c.includes('npm test')), ['npm test'], 'the host checked the original command');
  });

  t.test('a command an allow rule matches still runs without a prompt', async (t) => {
    const o = omni.results[1]!;
    t.equal(o.isError, false, `ran: ${o.text.slice(0, 200)}`);
    if (routeCommand('npm run test').rewrite) t.match(o.text, new RegExp(`OMNI_SESSION_ID=${omni.sessionId}`), 'rewritten into omni exec, approved by omni because the user\'s allow rule matched the original');
    else t.match(o.text, /OMNI_SESSION_ID=/);
    t.equal(base.results[1]!.isError, false, 'the baseline ran it too');
    t.ok(o.text.length <= base.results[1]!.text.length, `${bytes(base.results[1]!.text)} B -> ${bytes(o.text)} B`);
  });

  t.test('a command with no rule is not turned into a different prompt', async (t) => {
    const o = omni.results[2]!;
    t.equal(o.text, base.results[2]!.text, 'the host asks (and in -p refuses) exactly as without omni');
    t.same(
      omni.permissionDenials.map((d: any) => d.tool_input?.command),
      base.permissionDenials.map((d: any) => d.tool_input?.command),
      'the same commands were refused, in their original form',
    );
  });

  t.test('an allow rule the host ignores (untrusted project) is ignored by omni too', async (t) => {
    const o = omni.results[3]!;
    t.equal(o.text, base.results[3]!.text, 'refused exactly as without omni: omni did not approve it');
    t.equal(o.isError, true);
  });

  t.test('the permission run has no hook error record', async (t) => {
    noHookErrors(t, omni, 'permission run');
  });
});

t.test('a deny rule passed with --settings, which no hook can read, still holds', async (t) => {
  if (!needs(t, Boolean(canRun), 'needs the CLI and dist/omni.cjs')) return;
  const script = [{ tool: 'Bash', input: { command: 'npm test', description: 'denied on the command line' } }, { text: 'done' }];
  const cliSettings = { permissions: { deny: ['Bash(npm test)'] } };
  const [base, omni] = await Promise.all([
    runClaude({ script, withOmni: false, files: FILES, cliSettings, tag: 'sbase' }),
    runClaude({ script, withOmni: true, initArgs: ['--rewrite'], files: FILES, cliSettings, tag: 'somni' }),
  ]);
  t.teardown(() => {
    base.cleanup();
    omni.cleanup();
  });
  t.match(base.results[0]!.text, /has been denied/, 'without omni the rule denies the call');
  t.equal(omni.results[0]!.text, base.results[0]!.text, 'with omni too: the pre-hook saw --settings on the host\'s command line and did not rewrite');
  noHookErrors(t, omni, '--settings run');
});

t.test('the next session starts with the last failure in the model\'s context', async (t) => {
  if (!needs(t, Boolean(canRun), 'needs the CLI and dist/omni.cjs')) return;
  const first = await runClaude({
    script: [{ tool: 'Bash', input: { command: 'ls /nonexistent-omni-dir', description: 'fails' } }, { text: 'done' }],
    withOmni: true,
    files: FILES,
    tag: 'mem1',
  });
  const second = await runClaude({ script: [{ text: 'hello' }], withOmni: true, files: {}, tag: 'mem2', after: first });
  t.teardown(() => second.cleanup());
  t.equal(first.results[0]!.isError, true, 'the first session saw the failure');
  const firstRequest = JSON.stringify(second.requests.find((r) => r.body?.messages)?.body?.messages ?? []);
  t.match(firstRequest, /ls \/nonexistent-omni-dir/, 'the second session\'s first model request carries the failing command');
  t.notMatch(JSON.stringify(first.requests.find((r) => r.body?.messages)?.body?.messages ?? []), /Last failing command/, 'a first session on a fresh store gets no context');
  noHookErrors(t, second, 'second session');
});

/**
 * Issue 10, defect 2 (P7, ledger truth), with the real host: every line a tool_result folds as
 * "already shown" must be a line an earlier tool_result of the same session showed the model.
 * Counted from the requests the CLI sent (what the model got) and the bytes each marker's
 * handle retrieves from the run's own store.
 */
function falseAlreadyShown(run: RunResult, steps: number): { claimed: number; falseLines: number; perStep: string[] } {
  const saw = new Set<string>();
  let claimed = 0;
  let falseLines = 0;
  const perStep: string[] = [];
  for (let i = 0; i < steps; i++) {
    const text = run.results[i]?.text ?? '';
    let c = 0;
    let f = 0;
    for (const m of text.matchAll(/\[omni: (?:lines \d+-\d+: )?\d+ lines already shown — omni retrieve ([0-9a-f]{16})\]/g)) {
      const r = spawnSync(process.execPath, [omniBin(), 'retrieve', m[1]], { env: { PATH: process.env.PATH ?? '', HOME: run.home, OMNI_HOME: join(run.dir, 'omni-home') }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`omni retrieve ${m[1]} failed: ${r.stderr}`);
      for (const l of r.stdout.split('\n')) {
        if (l.trim() === '') continue;
        c++;
        if (!saw.has(l.trim())) f++;
      }
    }
    claimed += c;
    falseLines += f;
    perStep.push(`step ${i}: ${bytes(text)} B, ${c} lines folded as already shown, ${f} of them never shown`);
    for (const l of text.split('\n')) if (l.trim() !== '') saw.add(l.trim());
  }
  return { claimed, falseLines, perStep };
}

t.test('"already shown" is true with the real host: only lines the model got count (issue 10, defect 2)', async (t) => {
  if (!needs(t, Boolean(canRun), 'needs the CLI and dist/omni.cjs')) return;
  const big = { tool: 'Bash', input: { command: 'seq 1 100000', description: 'big: the host persists it and shows a preview' } };
  const small = { tool: 'Bash', input: { command: 'seq 1 5000', description: 'small: under the host cap' } };
  const [a, b] = await Promise.all([
    runClaude({ script: [big, small, { text: 'done' }], withOmni: true, files: {}, tag: 'ledgera' }),
    runClaude({ script: [small, small, { text: 'done' }], withOmni: true, files: {}, tag: 'ledgerb' }),
  ]);
  t.teardown(() => {
    a.cleanup();
    b.cleanup();
  });

  t.test('(a) the big output first, then the small one', async (t) => {
    const preview = a.results[0]!.text;
    t.match(preview, /^<persisted-output>/, 'the host persisted seq 1 100000 and showed the model a preview');
    const shownNumbers = preview.split('\n').filter((l) => /^\d+$/.test(l));
    t.same(shownNumbers, claudePreview(Array.from({ length: 100000 }, (_, i) => String(i + 1)).join('\n')).split('\n'), 'omni\'s model of the preview is the lines the host really showed');
    const audit = falseAlreadyShown(a, 2);
    for (const l of audit.perStep) t.comment(l);
    t.comment(`false "already shown" lines: ${audit.falseLines} (of ${audit.claimed} folded as already shown)`);
    t.equal(audit.falseLines, 0, 'no line the model never saw is folded as already shown');
    t.ok(a.results[1]!.text.split('\n').includes('5000'), 'the lines past the preview reach the model');
    noHookErrors(t, a, 'order (a)');
  });

  t.test('(b) the small output first, then the same again', async (t) => {
    t.equal(b.results[0]!.text.split('\n').length, 5000, 'the first run reached the model whole');
    const audit = falseAlreadyShown(b, 2);
    for (const l of audit.perStep) t.comment(l);
    t.comment(`false "already shown" lines: ${audit.falseLines} (of ${audit.claimed} folded as already shown)`);
    t.match(b.results[1]!.text, /\[omni: 5000 lines already shown — omni retrieve [0-9a-f]{16}\]/, 'the repeat folds as already shown');
    t.equal(audit.falseLines, 0, 'and every folded line was shown');
    noHookErrors(t, b, 'order (b)');
  });
});
