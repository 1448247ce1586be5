/**
 * Re-reads with the real host: the pinned Claude Code CLI (2.1.332) against the loopback
 * stand-in, with omni installed by the real `omni init`, next to a run without omni. What the
 * model got is the tool_result in the CLI's next request.
 *
 * Without omni the host sends a file read again whole (it does not dedupe re-reads itself; it
 * has no unchanged-file result in this version), so omni answers them: a re-read of an
 * unchanged file is one numbered marker; a Read after the host's own Edit, the file as the
 * model left it, is one marker too (the host itself tells the model after an Edit that the
 * file's state is current in its context); a change the model did not make through Edit or
 * Write (a `sed -i` in Bash) is the window of the change numbered as the file now is; a file the
 * model wrote whole and reads back is one marker; a Read with offset/limit of lines the model
 * holds is one marker, and after compaction (`/compact`, PreCompact) the file comes back whole.
 * Both transports omni installs: command hooks, and mcp_tool handlers (the default from 2.1.121).
 *
 * Run: npx tap --disable-coverage test/real-host/claude-reread.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachments, claudeBin, normalise, omniBin, runClaude, type RunResult } from './harness.js';
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
/** After a `sed -i` the model ran in Bash: a change omni cannot vouch the model holds. */
const APP_SED = APP_AFTER.replace('field 2 is empty', 'field 2 is blank');
const NOTES = Array.from({ length: 30 }, (_, i) => `- note ${i + 1}: what the import must keep in mind`).join('\n') + '\n';

const R = (file: string, more: Record<string, number> = {}) => ({ tool: 'Read', input: { file_path: `{{PROJ}}/${file}`, ...more } });
const SCRIPT = [
  R('app.py'), // 0: first read
  R('app.py'), // 1: unchanged
  { tool: 'Edit', input: { file_path: '{{PROJ}}/app.py', old_string: '        raise ValueError("field 6 is empty")', new_string: '        raise ValueError("field 6 is empty: " + repr(text))\n    t = t.replace(",", ".")' } }, // 2
  R('app.py'), // 3: after the host's Edit
  R('app.py', { offset: 40, limit: 20 }), // 4: lines of the whole file read at 3
  R('util.py', { offset: 10, limit: 15 }), // 5: a first read of a part
  R('util.py', { offset: 10, limit: 15 }), // 6: the same part again
  { tool: 'Bash', input: { command: "sed -i 's/field 2 is empty/field 2 is blank/' app.py" } }, // 7
  R('app.py'), // 8: changed beyond the model's own edit
  { tool: 'Write', input: { file_path: '{{PROJ}}/NOTES.md', content: NOTES } }, // 9
  R('NOTES.md'), // 10: the file the model wrote whole
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
    t.match(base.results[2]!.text, /file state is current in your context/, 'the host tells the model it holds the file as its Edit left it');
    t.equal(unnumber(base.results[8]!.text), APP_SED, 'after the sed: the whole file again');
    t.equal(unnumber(base.results[10]!.text), NOTES, 'the file written, read back whole');
    t.equal(readFileSync(join(base.proj, 'app.py'), 'utf8'), APP_SED, 'the host\'s Edit and the sed made the changes the test expects');
  });

  for (const [label, run] of [['command hooks', command], ['mcp_tool handlers', mcp]] as const) {
    t.test(`with omni (${label})`, async (t) => {
      t.equal(run.exitCode, 0, `the run ended normally (${run.stderr.slice(0, 200)})`);
      if (label === 'mcp_tool handlers') t.match(readFileSync(join(run.home, '.claude', 'settings.json'), 'utf8'), /"mcp_tool"/, 'installed as mcp_tool handlers');
      noHookErrors(t, run);
      const got = (i: number) => run.results[i]!.text;
      const total = APP.split('\n').length - 1;

      t.equal(got(0), base.results[0]!.text, 'the first read is the host\'s, byte for byte');
      // The Edit and the Write are read, never answered: the model gets the host's own results.
      for (const i of [2, 9]) t.equal(normalise(got(i), run), normalise(base.results[i]!.text, base), `call ${i} (${SCRIPT[i]!.tool}): the host's result, unchanged`);
      t.equal(readFileSync(join(run.proj, 'NOTES.md'), 'utf8'), NOTES, 'the Write wrote what the model asked');

      const m1 = rows(got(1));
      t.equal(m1.length, 1, 'the unchanged re-read is one line');
      t.same(m1[0] && { n: m1[0].n, ok: new RegExp(`^\\[omni: lines 1-${total}: unchanged since you read them at \\d\\d:\\d\\d:\\d\\d — omni retrieve [0-9a-f]{16}\\]$`).test(m1[0].text) }, { n: total, ok: true }, `one marker at line ${total}: ${got(1).slice(0, 200)}`);
      t.equal(retrieveFrom(run, handleOf(got(1))!), APP, 'its handle retrieves the file');
      t.ok(bytes(got(1)) < bytes(base.results[1]!.text) / 10, `${bytes(base.results[1]!.text)} B -> ${bytes(got(1))} B`);

      // After the host's own Edit, the file as the model left it: one marker.
      const m3 = rows(got(3));
      t.equal(m3.length, 1, 'the read after the Edit is one line');
      const total3 = APP_AFTER.split('\n').length - 1;
      t.same(m3[0] && { n: m3[0].n, ok: new RegExp(`^\\[omni: lines 1-${total3}: unchanged since your edit at \\d\\d:\\d\\d:\\d\\d — omni retrieve [0-9a-f]{16}\\]$`).test(m3[0].text) }, { n: total3, ok: true }, `one marker at line ${total3}: ${got(3).slice(0, 200)}`);
      t.equal(retrieveFrom(run, handleOf(got(3))!), APP_AFTER, 'its handle retrieves the file as it is now');
      t.ok(bytes(got(3)) < bytes(base.results[3]!.text) / 10, `${bytes(base.results[3]!.text)} B -> ${bytes(got(3))} B`);

      // After a sed the model ran in Bash: the window of that change, numbered as the file is now.
      const after = APP_SED.split('\n');
      const r8 = rows(got(8));
      t.ok(r8.every((r) => r !== null), 'every line numbered by the host');
      t.match(r8[0]!.text, /^\[omni: changed since your edit at \d\d:\d\d:\d\d: lines 1-\d+ as you left them, lines? \d+(-\d+)? below replaces? your lines? \d+(-\d+)?; whole file — omni retrieve [0-9a-f]{16}\]$/, 'a header that says what this is');
      const wrong = r8.filter((r) => r && !r.text.startsWith('[omni:') && after[r.n - 1] !== r.text);
      t.same(wrong, [], 'every line shown is the file\'s line at the number the host gave it');
      t.ok(r8.some((r) => r && r.text.includes('field 2 is blank')), 'the sed\'s change is in the window');
      t.notOk(r8.some((r) => r && r.text.includes('t = t.replace(",", ".")')), 'the model\'s own edit is not shown back to it');
      t.equal(retrieveFrom(run, handleOf(got(8))!), APP_SED, 'the handle retrieves the file as it is now');
      const fromView = rebuild(numberedLines(APP_AFTER, 1), { content: r8.map((r) => r!.text).join('\n'), startLine: r8[0]!.n }, (h) => retrieveFrom(run, h));
      t.same(fromView.problems, [], 'the reply reads back');
      t.same([...numberedLines(APP_SED, 1)].filter(([n, l]) => fromView.lines.get(n) !== l).map(([n]) => n), [], 'the file as the model left it plus the reply is the file now, line for line');
      t.ok(bytes(got(8)) < bytes(base.results[8]!.text) * 0.3, `${bytes(base.results[8]!.text)} B -> ${bytes(got(8))} B`);
      t.comment(`the model got, after the sed:\n${got(8)}`);

      t.match(got(10), /^\s*30\t\[omni: lines 1-30: unchanged since you wrote them at \d\d:\d\d:\d\d — omni retrieve [0-9a-f]{16}\]$/, 'the file the model wrote whole: one marker');
      t.equal(retrieveFrom(run, handleOf(got(10))!), NOTES, 'its handle retrieves the file');

      t.match(got(4), /^\s*59\t\[omni: lines 40-59: unchanged since your edit at [^\]]* — omni retrieve [0-9a-f]{16}\]$/, 'a part of the file the model holds whole: one marker');
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
    t.equal(unnumber(next.results[0]!.text), APP_SED, 'the first read after compaction is the whole file');
    t.match(next.results[1]!.text, /^\s*\d+\t\[omni: lines 1-\d+: unchanged since you read them at /, 'read again: held again, one marker');
    noHookErrors(t, next);
  });
});
