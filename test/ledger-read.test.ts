/**
 * Issue 10, defect 8: a Read re-read through the hook door with a real store. Every marker names
 * a handle that retrieves the exact lines it hides, and every number the host puts in front of
 * a line is that line's real number in the file.
 */
import t from 'tap';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../lib/doors/hook.js';
import { openStore } from '../lib/store/open.js';
import { getBlob } from '../lib/store/archive.js';
import { CLAUDE_SAMPLES } from './helpers/samples.js';

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));

function reader(session = 'ledger-read-session') {
  const dir = mkdtempSync(join(tmpdir(), 'omni-ledger-read-'));
  return { dir, env: { OMNI_HOME: join(dir, 'omni'), HOME: dir, PATH: process.env.PATH } as NodeJS.ProcessEnv, session };
}


/** The content as the host numbers it for the model (`N\t<line>` from startLine). */
function numbered(file: { content: string; startLine: number }): { n: number; text: string }[] {
  return file.content.split('\n').map((text, i) => ({ n: file.startLine + i, text }));
}

t.test('defect 8: a repeated Read folds behind a marker with a handle, numbered with the file\'s lines', async (t) => {
  const r = reader();
  const payload = sample('PostToolUse.Read.whole-file.json');
  payload.session_id = r.session;
  const content: string = payload.tool_response.file.content;
  const fileLines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  t.equal(fileLines.length, 200, 'the captured file has 200 lines');
  const first = await runHook('post-hook', Buffer.from(JSON.stringify(payload)), r.env);
  t.equal(first, '', 'the first read is left as it is');
  const second = await runHook('post-hook', Buffer.from(JSON.stringify(payload)), r.env);
  t.not(second, '', 'the re-read is folded');
  const file = JSON.parse(second).hookSpecificOutput.updatedToolOutput.file;
  const store = openStore({ home: r.env.OMNI_HOME! });
  t.teardown(() => store.close());
  let markers = 0;
  for (const { n, text } of numbered(file)) {
    t.ok(n >= 1 && n <= fileLines.length, `line number ${n} is one the file has (1-${fileLines.length})`);
    if (!text.includes('[omni:')) {
      t.equal(text, fileLines[n - 1], `line ${n} is the file's line ${n}`);
      continue;
    }
    // Every bracket omni writes is one marker that names a handle.
    const brackets = text.match(/\[omni:[^\]]*\]/g) ?? [];
    t.ok(brackets.length > 0);
    for (const b of brackets) {
      const m = /— omni retrieve ([0-9a-f]{16})\]$/.exec(b);
      t.ok(m, `the marker names a handle: ${b}`);
      if (!m) continue;
      markers++;
      const blob = getBlob(store, m[1]);
      t.ok(blob, 'the handle retrieves');
      const range = /lines (\d+)-(\d+)/.exec(b);
      t.ok(range, `the marker says which lines it stands for: ${b}`);
      if (!blob || !range) continue;
      const [a, z] = [Number(range[1]), Number(range[2])];
      t.equal(blob.toString('utf8'), fileLines.slice(a - 1, z).map((l) => `${l}\n`).join(''), `omni retrieve gives the exact bytes of lines ${a}-${z}`);
      t.equal(n, z, 'the marker stands at the number of the last line it hides');
    }
  }
  t.equal(markers, 1, 'one marker');
  t.equal(file.numLines, file.content.split('\n').length, 'numLines counts the lines sent');
});

t.test('defect 8: a repeated Read of the head of a file keeps the tail numbered', async (t) => {
  const r = reader();
  const payload = sample('PostToolUse.Read.whole-file.json');
  payload.session_id = r.session;
  const content: string = payload.tool_response.file.content;
  const fileLines = content.slice(0, -1).split('\n');
  // First the head (lines 1-120), then the whole file: lines 1-120 fold, 121-200 stay.
  const head = structuredClone(payload);
  head.tool_input = { ...head.tool_input, limit: 120 };
  head.tool_response.file = { ...head.tool_response.file, content: fileLines.slice(0, 120).join('\n'), numLines: 120 };
  t.equal(await runHook('post-hook', Buffer.from(JSON.stringify(head)), r.env), '');
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(payload)), r.env);
  t.not(reply, '');
  const file = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.file;
  const rows = numbered(file);
  t.match(rows[0].text, /^\[omni: lines 1-120: 120 lines already shown — omni retrieve [0-9a-f]{16}\]$/);
  t.equal(rows[0].n, 120);
  for (const { n, text } of rows.slice(1)) t.equal(text, fileLines[n - 1], `line ${n}`);
  t.equal(rows.at(-1)!.n, 200, 'the last number is the file\'s last line');
});

