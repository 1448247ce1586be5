/**
 * P7, ledger truth: an "already shown" fold hides only lines an earlier delivery to the same
 * reader contained, as the model received it (after the host's own cut).
 *
 * Every test here goes through the hook door (`runHook`) with real captured Claude Code payloads
 * and a real SQLite store. What the model saw is computed independently of omni, from the host's
 * own rules (docs/claude-code-findings.md): a Bash result the host persisted shows the model only
 * its preview (the first 2,000 characters, cut back to the last newline when that is past the
 * half); a reply replaces the result; a Read shows its content.
 */
import t from 'tap';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../lib/doors/hook.js';
import type { HostAdapter, PostShellInput } from '../lib/hosts/adapter.js';
import { openStore } from '../lib/store/open.js';
import { getBlob } from '../lib/store/archive.js';
import { CLAUDE_SAMPLES } from './helpers/samples.js';
import { headView, HOST_MIN_HEAD_CHARS } from '../lib/hosts/model-view.js';
import { claudePreview } from '../lib/hosts/claude/view.js';
import { codexSilent } from '../lib/hosts/codex/adapter.js';
import { piSilentCut } from '../lib/hosts/pi/adapter.js';
import { omni } from './helpers/omni.js';

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));
const seq = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => String(a + i)).join('\n');

interface Reader {
  dir: string;
  env: NodeJS.ProcessEnv;
  session: string;
  /** Every line the model was shown so far (the oracle, from the host's rules). */
  saw: Set<string>;
  n: number;
}

function reader(session = 'ledger-truth-session'): Reader {
  const dir = mkdtempSync(join(tmpdir(), 'omni-ledger-truth-'));
  return { dir, env: { OMNI_HOME: join(dir, 'omni'), HOME: dir, PATH: process.env.PATH }, session, saw: new Set(), n: 0 };
}

/** The host's preview of a persisted result (Claude Code 2.1.332: `h$e(text, 2000)`). */
export function hostPreview(text: string): string {
  if (text.length <= 2000) return text;
  const nl = text.slice(0, 2000).lastIndexOf('\n');
  return text.slice(0, nl > 1000 ? nl : 2000);
}

/** The host's inline cap for a Bash result (default `bashOutputMaxChars`). */
const HOST_INLINE_CAP = 30000;

function bashPayload(r: Reader, command: string, stdout: string) {
  const p = sample('PostToolUse.Bash.seq-1-300.json');
  p.session_id = r.session;
  p.tool_input.command = command;
  p.tool_use_id = `toolu_truth_${++r.n}`;
  if (stdout.length > HOST_INLINE_CAP) {
    // What the host sends for a result it persisted: a prefix inline, the whole in a file.
    const big = sample('PostToolUse.Bash.seq-1-100000.persisted.json');
    big.session_id = r.session;
    big.cwd = p.cwd;
    big.tool_input.command = command;
    big.tool_use_id = p.tool_use_id;
    const file = join(r.dir, `${p.tool_use_id}.txt`);
    writeFileSync(file, stdout + '\n');
    big.tool_response.stdout = stdout.slice(0, HOST_INLINE_CAP);
    big.tool_response.persistedOutputPath = file;
    big.tool_response.persistedOutputSize = Buffer.byteLength(stdout) + 1;
    return big;
  }
  p.tool_response.stdout = stdout;
  return p;
}

/** The text the model got for a Bash call: the reply's stdout, or the host's own view. */
function modelText(payload: any, reply: string): string {
  if (reply !== '') {
    const out = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout as string;
    return out.length > HOST_INLINE_CAP ? hostPreview(out) : out;
  }
  const r = payload.tool_response;
  if (typeof r.persistedOutputPath === 'string') return hostPreview(readFileSync(r.persistedOutputPath, 'utf8'));
  return r.stdout;
}

const ALREADY = /\[omni: (\d+) lines already shown — omni retrieve ([0-9a-f]{16})\]/g;

/** Lines the model was told it had already seen, and how many of them it never saw. */
function audit(r: Reader, text: string): { claimed: number; falseLines: string[] } {
  const store = openStore({ home: r.env.OMNI_HOME! });
  try {
    let claimed = 0;
    const falseLines: string[] = [];
    for (const m of text.matchAll(ALREADY)) {
      const blob = getBlob(store, m[2]);
      if (!blob) throw new Error(`handle ${m[2]} does not retrieve`);
      for (const l of blob.toString('utf8').split('\n')) {
        const s = l.trim();
        if (s === '') continue;
        claimed++;
        if (!r.saw.has(s)) falseLines.push(s);
      }
    }
    return { claimed, falseLines };
  } finally {
    store.close();
  }
}

/** One Bash call: the hook's reply, what the model got, and the audit of its folds. */
async function bash(r: Reader, command: string, stdout: string) {
  const payload = bashPayload(r, command, stdout);
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(payload)), r.env);
  const got = modelText(payload, reply);
  const a = audit(r, got);
  for (const l of got.split('\n')) if (l.trim() !== '') r.saw.add(l.trim());
  return { reply, got, ...a };
}

t.test('defect 2: a result the host persisted and omni left alone counts only as its preview', async (t) => {
  const r = reader();
  const big = await bash(r, 'seq 1 100000', seq(1, 100000));
  t.equal(big.reply, '', 'omni does not reply to seq 1 100000 (nothing to distil)');
  t.equal(big.got.split('\n').at(-1), '527', 'the model saw lines 1-527 (the host preview)');
  const small = await bash(r, 'seq 1 5000', seq(1, 5000));
  t.comment(`false "already shown" lines: ${small.falseLines.length} of ${small.claimed} claimed`);
  t.same(small.falseLines.length, 0, 'no line folded as already shown that the model never saw');
  t.ok(small.got.includes('\n4999\n5000') || small.got.endsWith('5000'), 'lines past the preview reach the model');
});

t.test('defect 2, the other order: a result shown whole may fold when repeated', async (t) => {
  const r = reader();
  const first = await bash(r, 'seq 1 5000', seq(1, 5000));
  t.equal(first.reply, '', 'the first run is delivered as the host shows it');
  t.equal(first.got.split('\n').length, 5000, 'shown whole (under the host cap)');
  const again = await bash(r, 'seq 1 5000', seq(1, 5000));
  t.match(again.got, /\[omni: 5000 lines already shown — omni retrieve [0-9a-f]{16}\]/, 'the repeat folds');
  t.equal(again.falseLines.length, 0, 'and every folded line was shown');
  t.equal(again.claimed, 5000);
});

t.test('a long result of distinct lines, persisted by the host, counts only as its preview', async (t) => {
  const r = reader();
  // Distinct, distillable lines: the generic distiller keeps them, the digest stays over the cap.
  const lines = Array.from({ length: 3000 }, (_, i) => `src/module-${i}/file.ts: compiled ${i * 7} symbols in ${i % 97} ms`);
  const first = await bash(r, 'build', lines.join('\n'));
  const again = await bash(r, 'build', lines.join('\n'));
  t.equal(first.falseLines.length + again.falseLines.length, 0, `no false "already shown" line (${again.claimed} claimed)`);
});

t.test('a digest over the host\'s inline cap counts only as the preview the host shows of it', async (t) => {
  const r = reader();
  const ls: string[] = [];
  for (let k = 0; k < 100; k++) {
    for (let i = 0; i < 20; i++) ls.push(`compiled src/part-${i}.ts (block ${k}) in ${i} ms`);
    for (let i = 0; i < 30; i++) ls.push(`Downloading https://registry.example.org/dep-${i % 3}.tgz 50%`);
  }
  ls.push('added 100 packages in 3s');
  const first = await bash(r, 'npm install', ls.join('\n'));
  t.not(first.reply, '', 'omni replies with a digest');
  const digest = JSON.parse(first.reply).hookSpecificOutput.updatedToolOutput.stdout as string;
  t.ok(digest.length > HOST_INLINE_CAP, `the digest (${digest.length} characters) is over the host's inline cap: the host persists it`);
  const again = await bash(r, 'npm install', ls.join('\n'));
  t.comment(`false "already shown" lines: ${again.falseLines.length} of ${again.claimed} claimed`);
  t.equal(again.falseLines.length, 0, 'no line folded as already shown beyond the preview of the first digest');
});

t.test('P7 on generated sessions: every "already shown" line was shown to this reader', async (t) => {
  const pool = [
    // Names (`package7`, `part7`, `row7`): no two pool lines share a template, so repeats reach
    // the ledger instead of the generic fold.
    ...Array.from({ length: 60 }, (_, i) => `Downloading https://registry.example.org/package${i}.tgz`),
    ...Array.from({ length: 60 }, (_, i) => `compiled src/part${i}.ts in ${i} ms`),
    ...Array.from({ length: 40 }, (_, i) => `row${i}: value ${(i * 7919) % 1000}`),
  ];
  const kinds: Record<string, number> = { silent: 0, reply: 0, 'reply cut by the host': 0, 'with "already shown"': 0 };
  // Descriptions, not texts, so a counterexample prints short.
  const step = fc.oneof(
    fc.record({ kind: fc.constant('pool' as const), start: fc.nat(pool.length - 1), len: fc.integer({ min: 1, max: 400 }), reps: fc.integer({ min: 1, max: 120 }) }),
    fc.record({ kind: fc.constant('seq' as const), start: fc.integer({ min: 1, max: 5000 }), len: fc.integer({ min: 1, max: 30000 }), reps: fc.constant(1) }),
    // noise runs between distinct lines: omni replies, with a digest short or over the host's caps
    fc.record({ kind: fc.constant('noisy' as const), start: fc.nat(pool.length - 1), len: fc.integer({ min: 1, max: 40 }), reps: fc.integer({ min: 1, max: 300 }) }),
  );
  const textOf = (s: { kind: 'pool' | 'seq' | 'noisy'; start: number; len: number; reps: number }): string => {
    if (s.kind === 'seq') return seq(s.start, s.start + s.len - 1);
    if (s.kind === 'noisy') {
      const ls: string[] = [];
      for (let k = 0; k < s.reps; k++) {
        for (let i = 0; i < s.len; i++) ls.push(`${pool[(s.start + i) % pool.length]} (block ${k})`);
        for (let i = 0; i < 30; i++) ls.push(`Downloading https://registry.example.org/dep-${i % 3}.tgz 50%`);
      }
      ls.push(`added ${s.reps} packages in 3s`);
      return ls.join('\n');
    }
    const ls: string[] = [];
    for (let k = 0; k < s.reps; k++) for (let i = 0; i < s.len && ls.length < 12000; i++) ls.push(`${pool[(s.start + i) % pool.length]}${s.reps > 1 ? ` #${k}` : ''}`);
    return ls.join('\n');
  };
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 5 }), async (steps) => {
      const r = reader();
      for (const [i, s] of steps.entries()) {
        const res = await bash(r, `step ${i}`, textOf(s));
        kinds[res.reply === '' ? 'silent' : res.got.length > HOST_INLINE_CAP ? 'reply cut by the host' : 'reply'] += 1;
        if (res.claimed > 0) kinds['with "already shown"'] += 1;
        if (res.falseLines.length > 0) throw new Error(`step ${i}: ${res.falseLines.length} lines folded as already shown that the model never saw, e.g. ${JSON.stringify(res.falseLines.slice(0, 3))}`);
      }
    }),
    {
      numRuns: Number(process.env.OMNI_PROPERTY_RUNS ?? 12),
      seed: 7,
      // One session that surely repeats what the model saw, whatever the generated ones do.
      examples: [[[{ kind: 'pool', start: 60, len: 100, reps: 1 }, { kind: 'pool', start: 60, len: 100, reps: 1 }]]],
    },
  );
  t.comment(`deliveries: ${JSON.stringify(kinds)}`);
  t.ok(kinds.silent > 0 && kinds.reply > 0 && kinds['with "already shown"'] > 0, 'the runs exercised silence, replies and "already shown" folds');
});

// ---------------------------------------------------------------------------------------------
// The other doors: what each host is known to show when omni stays silent or the host cuts.


t.test('Claude Code\'s preview: the first 2,000 characters back to the last newline, complete lines only', async (t) => {
  t.equal(claudePreview(seq(1, 100000)).split('\n').at(-1), '527', 'seq 1 100000: lines 1-527, as the real CLI showed');
  const long = `${'x'.repeat(1500)}\n${'y'.repeat(3000)}`;
  t.equal(claudePreview(long), 'x'.repeat(1500), 'cut back to the newline past the half');
  const noNewline = `${'a'.repeat(800)}\n${'b'.repeat(3000)}`;
  t.equal(claudePreview(noNewline), 'a'.repeat(800), 'the host cuts at 2,000 characters mid-line: that line does not count');
  t.equal(claudePreview('short\ntext'), 'short\ntext');
});

t.test('Codex\'s head-and-tail cut: the lines the cut runs through do not count', async (t) => {
  const view = codexSilent('Warning: truncated output (original token count: 9000)\nTotal output lines: 400\n\nline 1\nline 2\nline 3 hea…4000 chars truncated…il of line 397\nline 398\nline 399');
  t.equal(view.kind, 'lines');
  if (view.kind !== 'lines') return;
  t.notOk(view.text.includes('line 2'), 'the line before the cut may be cut itself');
  t.notOk(view.text.includes('line 398'), 'and the line after it');
  t.ok(view.text.includes('line 1') && view.text.includes('line 399'));
  t.same(codexSilent('a\nb\nc'), { kind: 'whole' }, 'an uncut result was shown whole');
});

t.test('Pi\'s tail: its first line may be partial', async (t) => {
  t.same(piSilentCut('tial line 1001\nline 1002\n\n[Showing lines 1001-3000 of 3000. Full output: /tmp/pi-bash-x.log]'), { kind: 'lines', text: 'line 1002\n\n[Showing lines 1001-3000 of 3000. Full output: /tmp/pi-bash-x.log]' });
});

t.test('exec under a reader scope (a pre-hook rewrite): only what every host shows counts', async (t) => {
  t.same(headView('short output'), { kind: 'whole' });
  const big = seq(1, 20000);
  const v = headView(big);
  t.equal(v.kind, 'lines');
  if (v.kind === 'lines') t.ok(v.text.length <= HOST_MIN_HEAD_CHARS && big.startsWith(v.text) && big.charAt(v.text.length) === '\n', 'complete lines of the head');

  // The real door, twice, in one reader scope.
  const dir = mkdtempSync(join(tmpdir(), 'omni-ledger-exec-'));
  const env = { OMNI_HOME: join(dir, 'omni'), OMNI_SESSION_ID: 'exec-truth', OMNI_AGENT_ID: 'main', OMNI_BUFFERED: '1' };
  const first = omni(['exec', 'seq 1 20000'], { env, cwd: dir });
  t.equal(first.status, 0);
  const shown = new Set(claudePreview(first.stdout.toString('utf8')).split('\n'));
  const second = omni(['exec', 'seq 1 20000'], { env, cwd: dir });
  const text = second.stdout.toString('utf8');
  const store = openStore({ home: env.OMNI_HOME });
  t.teardown(() => store.close());
  let claimed = 0;
  const falseLines: string[] = [];
  for (const m of text.matchAll(ALREADY)) {
    for (const l of getBlob(store, m[2])!.toString('utf8').split('\n')) {
      if (l.trim() === '') continue;
      claimed++;
      if (!shown.has(l.trim())) falseLines.push(l);
    }
  }
  t.equal(falseLines.length, 0, `no "already shown" line beyond what any host shows of the first run (${claimed} claimed)`);
});

t.test('each host adapter says what of a shell result reached the model', async (t) => {
  // The payload a Bash reply is built from (Claude Code's tool notices in stderr: none here).
  const shellView = (host: HostAdapter, inp: PostShellInput, full: string, reply: string, sent: string) => host.viewOf({ tool_response: { stdout: inp.output, stderr: '' } }, inp, { reply, sent, full });
  const { gemini } = await import('../lib/hosts/gemini/adapter.js');
  const { codex } = await import('../lib/hosts/codex/adapter.js');
  const { claude } = await import('../lib/hosts/claude/adapter.js');
  const input = (output: string, outputFile?: string) => ({ kind: 'post-tool' as const, tool: 'shell' as const, host: 'claude' as const, event: 'PostToolUse', sessionId: 's', agentId: 'main', command: 'x', output, outputFile, failed: false });
  const big = seq(1, 100000);
  t.same(shellView(claude, input(big.slice(0, 30000), '/f'), big, '', big), { kind: 'lines', text: seq(1, 527) }, 'Claude, persisted, silent: the preview');
  t.same(shellView(claude, input('a\nb'), 'a\nb', '', 'a\nb'), { kind: 'whole' }, 'Claude, inline, silent: whole');
  t.same(shellView(gemini, input('a\nb'), 'a\nb', '', 'a\nb'), { kind: 'none' }, 'Gemini, silent: its cut depends on a setting omni does not read, so nothing');
  t.same(shellView(gemini, input('a\nb'), 'a\nb', '{"decision":"deny"}', 'digest'), { kind: 'whole' }, 'Gemini, a short reply: whole');
  t.same(shellView(codex, input('a\nb'), 'a\nb', '', 'a\nb'), { kind: 'whole' }, 'Codex, uncut, silent: whole');
  t.equal(shellView(codex, input('x'), 'x', '{"decision":"block"}', seq(1, 5000)).kind, 'lines', 'Codex, a long reply: only its head');
});
