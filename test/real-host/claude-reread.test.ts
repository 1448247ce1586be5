/**
 * Re-reads with the real host: the pinned Claude Code CLI (2.1.332) against the loopback
 * stand-in, with omni installed by the real `omni init`, next to a run without omni. What the
 * model got is the tool_result in the CLI's next request.
 *
 * Without omni the host sends a file read again whole (it does not dedupe re-reads itself; it
 * has no unchanged-file result in this version), so omni answers them: a re-read of an
 * unchanged file is one numbered marker, a Read after the host's own Edit is the window of the
 * change numbered as the file now is, a Read with offset/limit of lines the model holds is one
 * marker, and after compaction (`/compact`, PreCompact) the file comes back whole. Both
 * transports omni installs: command hooks, and mcp_tool handlers (the default from 2.1.121).
 *
 * Run: npx tap --disable-coverage test/real-host/claude-reread.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachments, claudeBin, omniBin, runClaude, type RunResult } from './harness.js';
import { retrieveFrom } from './sessions/run-pair.js';
import { needs } from '../helpers/needs.js';
import { numberedLines, rebuild } from '../helpers/reread.js';

/** A Python module as PEP 8 writes it (two blank lines between definitions), with errors it raises. */
const APP = [
  '"""Amounts as the bank writes them."""',
  'import re',
  'from decimal import Decimal',
  '',
  '',
  ...Array.from({ length: 12 }, (_, k) => [
    `def parse_${k}(text):`,
    `    """Field ${k} of a statement line."""`,
    '    t = text.strip().replace(" ", "")',
    `    if not t:`,
    `        raise ValueError("field ${k} is empty")`,
    `    return Decimal(t) * ${k + 1}`,
    '',
    '',
  ]).flat(),
  'def main():',
  '    return parse_0("1")',
].join('\n') + '\n';

const UTIL = Array.from({ length: 60 }, (_, i) => `UTIL_${i + 1} = "a constant the tests read"  # line ${i + 1}`).join('\n') + '\n';
const FILES = { 'app.py': APP, 'util.py': UTIL };
const APP_AFTER = APP.replace('        raise ValueError("field 6 is empty")', '        raise ValueError("field 6 is empty: " + repr(text))\n    t = t.replace(",", ".")');

const R = (file: string, more: Record<string, number> = {}) => ({ tool: 'Read', input: { file_path: `{{PROJ}}/${file}`, ...more } });
const SCRIPT = [
  R('app.py'), // 0: first read
  R('app.py'), // 1: unchanged
  { tool: 'Edit', input: { file_path: '{{PROJ}}/app.py', old_string: '        raise ValueError("field 6 is empty")', new_string: '        raise ValueError("field 6 is empty: " + repr(text))\n    t = t.replace(",", ".")' } }, // 2
  R('app.py'), // 3: after the host's Edit
  R('app.py', { offset: 40, limit: 20 }), // 4: lines of the whole file read at 3
  R('util.py', { offset: 10, limit: 15 }), // 5: a first read of a part
  R('util.py', { offset: 10, limit: 15 }), // 6: the same part again
  { text: 'Done.' },
];
/** After `/compact`, the same session goes on (`--continue`): the compacted conversation plays this. */
const AFTER_COMPACT = [R('app.py'), R('app.py'), { text: 'Done again.' }];

const canRun = existsSync(claudeBin()) && existsSync(omniBin());
const bytes = (s?: string | null) => Buffer.byteLength(s ?? '', 'utf8');
const unnumber = (text: string) => text.split('\n').map((l) => l.replace(/^\s*\d+\t/, '')).join('\n');
/** The host's numbered rows of a Read result. */
const rows = (text: string) => text.split('\n').map((l) => /^\s*(-?\d+)\t(.*)$/.exec(l)).map((m) => (m ? { n: Number(m[1]), text: m[2] } : null));
const handleOf = (text: string) => /omni retrieve ([0-9a-f]{16})\]/.exec(text)?.[1] ?? null;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function noHookErrors(t: any, run: RunResult) {
  const bad = ['hook_error_during_execution', 'hook_non_blocking_error', 'hook_blocking_error', 'hook_cancelled'].flatMap((k) => attachments(run.transcript, k));
  t.same(bad.map((a) => `${a.type}: ${String(a.content ?? a.stderr ?? '').slice(0, 200)}`), [], 'no hook error record in the transcript: every reply was accepted');
}

t.test('re-reads through the real Claude Code CLI', async (t) => {
  if (!needs(t, Boolean(canRun), `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  const [base, command, mcp] = await Promise.all([
    runClaude({ script: SCRIPT, withOmni: false, files: FILES, tag: 'base' }),
    runClaude({ script: SCRIPT, withOmni: true, files: FILES, tag: 'omni' }),
    runClaude({ script: SCRIPT, withOmni: true, files: FILES, tag: 'mcp', initEnv: { OMNI_CLAUDE_BIN: claudeBin(), OMNI_CLAUDE_TRANSPORT: 'mcp_tool' } }),
  ]);
  t.teardown(() => {
    for (const r of [base, command, mcp]) r.cleanup();
  });
  t.equal(base.version, '2.1.332', 'the pinned CLI ran');

  t.test('without omni, the host sends a file read again whole', async (t) => {
    t.equal(base.results[1]!.text, base.results[0]!.text, 'an unchanged whole file: the same result twice');
    t.equal(base.results[6]!.text, base.results[5]!.text, 'the same part twice: the same result twice');
    t.equal(unnumber(base.results[3]!.text), APP_AFTER, 'after the Edit: the whole new file');
    t.equal(readFileSync(join(base.proj, 'app.py'), 'utf8'), APP_AFTER, 'the host\'s Edit made the change the test expects');
  });

  for (const [label, run] of [['command hooks', command], ['mcp_tool handlers', mcp]] as const) {
    t.test(`with omni (${label})`, async (t) => {
      t.equal(run.exitCode, 0, `the run ended normally (${run.stderr.slice(0, 200)})`);
      if (label === 'mcp_tool handlers') t.match(readFileSync(join(run.home, '.claude', 'settings.json'), 'utf8'), /"mcp_tool"/, 'installed as mcp_tool handlers');
      noHookErrors(t, run);
      const got = (i: number) => run.results[i]!.text;
      const total = APP.split('\n').length - 1;

      t.equal(got(0), base.results[0]!.text, 'the first read is the host\'s, byte for byte');

      const m1 = rows(got(1));
      t.equal(m1.length, 1, 'the unchanged re-read is one line');
      t.same(m1[0] && { n: m1[0].n, ok: new RegExp(`^\\[omni: lines 1-${total}: unchanged since you read them at \\d\\d:\\d\\d:\\d\\d — omni retrieve [0-9a-f]{16}\\]$`).test(m1[0].text) }, { n: total, ok: true }, `one marker at line ${total}: ${got(1).slice(0, 200)}`);
      t.equal(retrieveFrom(run, handleOf(got(1))!), APP, 'its handle retrieves the file');
      t.ok(bytes(got(1)) < bytes(base.results[1]!.text) / 10, `${bytes(base.results[1]!.text)} B -> ${bytes(got(1))} B`);

      // After the host's own Edit: the window, numbered as the file is now.
      const after = APP_AFTER.split('\n');
      const r3 = rows(got(3));
      t.ok(r3.every((r) => r !== null), 'every line numbered by the host');
      t.match(r3[0]!.text, /^\[omni: changed since you read it at \d\d:\d\d:\d\d: lines 1-\d+ as you read them, lines \d+-\d+ below replace your lines \d+-\d+; whole file — omni retrieve [0-9a-f]{16}\]$/, 'a header that says what this is');
      const wrong = r3.filter((r) => r && !r.text.startsWith('[omni:') && after[r.n - 1] !== r.text);
      t.same(wrong, [], 'every line shown is the file\'s line at the number the host gave it');
      t.ok(r3.filter((r) => r && !r.text.startsWith('[omni:')).some((r) => r!.text.includes('t = t.replace(",", ".")')), 'the edit is in the window');
      t.equal(retrieveFrom(run, handleOf(got(3))!), APP_AFTER, 'the handle retrieves the file as it is now');
      const fromView = rebuild(numberedLines(APP, 1), { content: r3.map((r) => r!.text).join('\n'), startLine: r3[0]!.n }, (h) => retrieveFrom(run, h));
      t.same(fromView.problems, [], 'the reply reads back');
      t.same([...numberedLines(APP_AFTER, 1)].filter(([n, l]) => fromView.lines.get(n) !== l).map(([n]) => n), [], 'what the model read before plus the reply is the new file, line for line');
      t.ok(bytes(got(3)) < bytes(base.results[3]!.text) * 0.3, `${bytes(base.results[3]!.text)} B -> ${bytes(got(3))} B`);
      t.comment(`the model got, after the Edit:\n${got(3)}`);

      t.match(got(4), /^\s*59\t\[omni: lines 40-59: unchanged since you read them at [^\]]* — omni retrieve [0-9a-f]{16}\]$/, 'a part of the file read whole: one marker');
      t.equal(got(5), base.results[5]!.text, 'a first read of a part: the host\'s');
      t.match(got(6), /^\s*24\t\[omni: lines 10-24: unchanged since you read them at [^\]]* — omni retrieve [0-9a-f]{16}\]$/, 'the same part again: one marker');
      t.equal(retrieveFrom(run, handleOf(got(6))!), UTIL.split('\n').slice(9, 24).join('\n'), 'its handle retrieves the part read');
    });
  }

  t.test('after /compact the file comes back whole, then is held again', async (t) => {
    const compact = await runClaude({ script: [{ text: 'Summary: app.py and util.py were read and app.py edited.' }], withOmni: true, after: command, prompt: '/compact', args: ['--continue'] });
    t.equal(compact.exitCode, 0, `/compact ran (${compact.stderr.slice(0, 200)})`);
    t.match(readFileSync(join(command.dir, 'debug.log'), 'utf8'), /PreCompact:manual \[.*--pre-compact\] completed with status 0/, 'the PreCompact hook ran');
    const next = await runClaude({ script: AFTER_COMPACT, withOmni: true, after: command, args: ['--continue'] });
    t.equal(next.sessionId, command.sessionId, 'the same session went on');
    t.equal(unnumber(next.results[0]!.text), APP_AFTER, 'the first read after compaction is the whole file');
    t.match(next.results[1]!.text, /^\s*\d+\t\[omni: lines 1-\d+: unchanged since you read them at /, 'read again: held again, one marker');
    noHookErrors(t, next);
  });
});
