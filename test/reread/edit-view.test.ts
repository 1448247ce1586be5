/**
 * A Read after the model's own Edit or Write, through the hook door with a real store. The host
 * tells the model after such a call that the file's state is current in its context; omni
 * records the view the model holds (the lines it held, its own change applied) and answers a
 * later Read from it: one "unchanged since your edit" marker when the file is as the model left
 * it, one window of what changed beyond its own change when it is not. A change the host made
 * beyond the call's arguments, or an edit outside the lines the model held, records nothing.
 */
import t from 'tap';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHook } from '../../lib/doors/hook.js';
import { claude, editedFile } from '../../lib/hosts/claude/adapter.js';
import { viewAfterWrite } from '../../lib/reread/written.js';
import { blobOf, fileRead, numberedLines, readPayload, rebuild, storeHome } from '../helpers/reread.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';

const sample = (name: string) => JSON.parse(readFileSync(join(CLAUDE_SAMPLES, name), 'utf8'));

const FILE = '/proj/src/app.py';

/** The host's patch of a change, one hunk with up to three lines of context, as Claude Code writes it. */
function hostPatch(before: string, after: string) {
  const was = before.split('\n');
  const now = after.split('\n');
  let top = 0;
  while (top < Math.min(was.length, now.length) && was[top] === now[top]) top++;
  let bottom = 0;
  while (bottom < Math.min(was.length, now.length) - top && was[was.length - 1 - bottom] === now[now.length - 1 - bottom]) bottom++;
  const c0 = Math.max(0, top - 3);
  const c1 = Math.min(bottom, 3);
  const lines = [
    ...was.slice(c0, top).map((l) => ` ${l}`),
    ...was.slice(top, was.length - bottom).map((l) => `-${l}`),
    ...now.slice(top, now.length - bottom).map((l) => `+${l}`),
    ...was.slice(was.length - bottom, was.length - bottom + c1).map((l) => ` ${l}`),
  ];
  return [{ oldStart: c0 + 1, oldLines: lines.filter((l) => l[0] !== '+').length, newStart: c0 + 1, newLines: lines.filter((l) => l[0] !== '-').length, lines }];
}

/** A PostToolUse Edit payload shaped as the pinned CLI sends it (the captured sample's fields). */
function editPayload(session: string, before: string, old: string, repl: string, opts: { replaceAll?: boolean; patch?: unknown } = {}) {
  const p = sample('PostToolUse.Edit.captured.json');
  const after = opts.replaceAll ? before.split(old).join(repl) : before.replace(old, () => repl);
  p.session_id = session;
  p.tool_input = { file_path: FILE, old_string: old, new_string: repl, replace_all: opts.replaceAll === true };
  p.tool_response = { filePath: FILE, oldString: old, newString: repl, originalFile: before, structuredPatch: opts.patch ?? hostPatch(before, after), userModified: false, replaceAll: opts.replaceAll === true };
  return p;
}

function writePayload(session: string, content: string, before: string | null) {
  const p = sample('PostToolUse.Write.captured.json');
  p.session_id = session;
  p.tool_input = { file_path: FILE, content };
  p.tool_response = { type: before === null ? 'create' : 'update', filePath: FILE, content, structuredPatch: [], originalFile: before, userModified: false };
  return p;
}

const hook = (env: NodeJS.ProcessEnv, p: unknown) => runHook('post-hook', Buffer.from(JSON.stringify(p)), env);

async function read(env: NodeJS.ProcessEnv, session: string, r: { content: string; startLine: number; totalLines: number }): Promise<{ content: string; startLine: number } | null> {
  const reply = await hook(env, readPayload(session, FILE, r.content, r.startLine, r.totalLines));
  if (reply === '') return null;
  const f = JSON.parse(reply).hookSpecificOutput.updatedToolOutput.file;
  return { content: f.content, startLine: f.startLine };
}

const pyFile = (n: number) => Array.from({ length: n }, (_, i) => `    value_${i} = compute(${i}, "some argument text")  # line ${i + 1}`).join('\n') + '\n';
const OLD = '    value_59 = compute(59, "some argument text")  # line 60';
const NEW = '    value_59 = compute(59, "edited")  # the edit\n    extra = 1';

t.test('the captured Edit and Write payloads read as the model\'s own change; no reply goes back', async (t) => {
  const e = claude.read(sample('PostToolUse.Edit.captured.json'));
  t.same(e && e.kind === 'post-tool' && e.tool === 'write' && { path: e.path, before: e.before, after: e.after, via: e.via }, { path: '/home/dev/project/a.py', before: 'x = 1\ny = 2\nz = 3\n', after: 'x = 1\ny = 22\nw = 0\nz = 3\n', via: 'edit' });
  const w = claude.read(sample('PostToolUse.Write.captured.json'));
  t.same(w && w.kind === 'post-tool' && w.tool === 'write' && { before: w.before, after: w.after, via: w.via }, { before: null, after: 'hello\nworld\n', via: 'write' });
  const env = storeHome(t, 'omni-edit-view-');
  t.equal(await hook(env, sample('PostToolUse.Edit.captured.json')), '', 'an Edit gets no reply');
  t.equal(await hook(env, sample('PostToolUse.Write.captured.json')), '', 'a Write gets no reply');
});

t.test('an Edit the host did beyond its arguments is not the model\'s change', async (t) => {
  const before = 'a = "x"\nb = 1\n';
  // The host matched the straight quotes of old_string loosely and kept the file's curly ones.
  const loose = { ...editPayload('s', before.replace('"x"', '\u201cx\u201d'), 'a = "x"', 'a = "y"').tool_input };
  t.equal(editedFile(loose, { originalFile: before.replace('"x"', '\u201cx\u201d'), structuredPatch: [] }), null, 'old text not in the file as read: nothing');
  const p = editPayload('s', before, 'b = 1', 'b = 2', { patch: [{ oldStart: 2, newStart: 2, lines: ['-b = 1', '+b = 2  '] }] });
  t.equal(editedFile(p.tool_input, p.tool_response), null, 'the host\'s patch disagrees with the arguments: nothing');
  const twice = editPayload('s', 'q\nq\n', 'q', 'r');
  t.equal(editedFile(twice.tool_input, twice.tool_response), null, 'an old text found twice without replace_all: nothing');
  const all = editPayload('s', 'q\nq\n', 'q', 'r', { replaceAll: true });
  t.same(editedFile(all.tool_input, all.tool_response), { before: 'q\nq\n', after: 'r\nr\n' }, 'replace_all replaces every one');
});

t.test('a Read after the model\'s own Edit is one marker when the file is as it left it', async (t) => {
  const env = storeHome(t, 'omni-edit-view-');
  const before = pyFile(120);
  const after = before.replace(OLD, NEW);
  t.equal(await read(env, 's1', fileRead(before)), null, 'the first read goes as it is');
  t.equal(await hook(env, editPayload('s1', before, OLD, NEW)), '');
  const got = await read(env, 's1', fileRead(after));
  t.ok(got, 'the read after the edit is answered');
  t.match(got!.content, /^\[omni: lines 1-121: unchanged since your edit at \d\d:\d\d:\d\d — omni retrieve [0-9a-f]{16}\]$/);
  t.equal(got!.startLine, 121, 'the marker stands at the last line it names');
  const h = /omni retrieve ([0-9a-f]{16})/.exec(got!.content)![1];
  t.equal(blobOf(env)(h), after, 'its handle gives the read back byte for byte');
  const r = rebuild(numberedLines(after, 1), got!, blobOf(env));
  t.same(r.problems, [], 'the marker reads back against the file as the model left it');
});

t.test('a Read after the model\'s Edit and someone else\'s change shows only the other change', async (t) => {
  const env = storeHome(t, 'omni-edit-view-');
  const before = pyFile(120);
  const edited = before.replace(OLD, NEW);
  // A formatter (or the user) changed line 10 after the model's edit.
  const after = edited.replace('compute(9, ', 'compute(9,  ');
  await read(env, 's1', fileRead(before));
  await hook(env, editPayload('s1', before, OLD, NEW));
  const got = await read(env, 's1', fileRead(after));
  const rows = got!.content.split('\n');
  t.match(rows[0], /^\[omni: changed since your edit at \d\d:\d\d:\d\d: lines 1-8 as you left them, lines 9-11 below replace your lines 9-11; whole file — omni retrieve [0-9a-f]{16}\]$/);
  t.notOk(rows.some((l) => l.includes('extra = 1')), 'the model\'s own edit is not shown back to it');
  const r = rebuild(numberedLines(edited, 1), got!, blobOf(env));
  t.same(r.problems, []);
  t.same([...numberedLines(after, 1)].filter(([n, l]) => r.lines.get(n) !== l), [], 'what the model left and the reply give back every line read');
});

t.test('offset/limit: an edit inside the lines held is vouched for, one outside them is not', async (t) => {
  const env = storeHome(t, 'omni-edit-view-');
  const before = pyFile(120);
  const after = before.replace(OLD, NEW);
  await read(env, 's1', fileRead(before, 50, 20));
  await hook(env, editPayload('s1', before, OLD, NEW));
  const part = await read(env, 's1', fileRead(after, 50, 21));
  t.match(part!.content, /^\[omni: lines 50-70: unchanged since your edit at .* — omni retrieve [0-9a-f]{16}\]$/, 'the range held, one line longer by the edit');

  const env2 = storeHome(t, 'omni-edit-view-');
  await read(env2, 's2', fileRead(before, 1, 20));
  await hook(env2, editPayload('s2', before, OLD, NEW));
  const whole = await read(env2, 's2', fileRead(after));
  t.notMatch(whole?.content ?? '', /your edit/, 'an edit of lines the model never read: nothing vouched for');
});

t.test('a part read again between the whole read and the edit: the edit is vouched for within the whole file', async (t) => {
  const env = storeHome(t, 'omni-edit-view-');
  const before = pyFile(120);
  const after = before.replace(OLD, NEW);
  await read(env, 's1', fileRead(before));
  t.match((await read(env, 's1', fileRead(before, 10, 16)))!.content, /unchanged since you read them/, 'the part, answered from the whole read');
  t.match((await read(env, 's1', fileRead(before, 50, 20)))!.content, /unchanged since you read them/, 'a part that holds the edit, answered from the whole read');
  await hook(env, editPayload('s1', before, OLD, NEW));
  t.match((await read(env, 's1', fileRead(after)))!.content, /^\[omni: lines 1-121: unchanged since your edit at /);
});

t.test('a Read after the model wrote the whole file is one marker; a subagent is not told', async (t) => {
  const env = storeHome(t, 'omni-edit-view-');
  const content = pyFile(80);
  t.equal(await hook(env, writePayload('s1', content, null)), '');
  const got = await read(env, 's1', fileRead(content));
  t.match(got!.content, /^\[omni: lines 1-80: unchanged since you wrote them at \d\d:\d\d:\d\d — omni retrieve [0-9a-f]{16}\]$/);
  const sub = readPayload('s1', FILE, content, 1, content.split('\n').length, 'agent-7');
  t.equal(await hook(env, sub), '', 'the subagent did not write it: its read goes as it is');
});

t.test('without a view of the file as it was, an Edit records nothing', async (t) => {
  const env = storeHome(t, 'omni-edit-view-');
  const before = pyFile(120);
  const after = before.replace(OLD, NEW);
  await hook(env, editPayload('s1', before, OLD, NEW));
  t.equal(await read(env, 's1', fileRead(after)), null, 'never read: the read after the edit goes as it is');
  // The model read an older version of the file; someone changed it before the edit.
  const env2 = storeHome(t, 'omni-edit-view-');
  await read(env2, 's2', fileRead(before.replace('compute(3, ', 'compute(3,  ')));
  await hook(env2, editPayload('s2', before, OLD, NEW));
  t.notMatch((await read(env2, 's2', fileRead(after)))?.content ?? '', /your edit/, 'the view was not the file the edit changed');
});

t.test('viewAfterWrite: the change must lie inside the view, the view must be the file before', async (t) => {
  const was = 'a\nb\nc\nd\ne\n';
  const v = (startLine: number, content: string) => [{ at: 1, startLine, content, totalLines: 6, kind: 'shown' as const }];
  t.same(viewAfterWrite(v(2, 'b\nc\nd'), { before: was, after: 'a\nb\nC\nC2\nd\ne\n', via: 'edit' }), { startLine: 2, content: 'b\nC\nC2\nd', totalLines: 7 });
  t.equal(viewAfterWrite(v(2, 'b\nc'), { before: was, after: 'a\nb\nc\nD\ne\n', via: 'edit' }), null, 'line 4 was not held');
  t.equal(viewAfterWrite(v(2, 'b\nX\nd'), { before: was, after: 'a\nb\nC\nd\ne\n', via: 'edit' }), null, 'the view is not the file before the edit');
  t.same(viewAfterWrite([], { before: null, after: 'x\n', via: 'write' }), { startLine: 1, content: 'x\n', totalLines: 2 });
  // A part read again after the whole file (the newest view), then an edit outside the part.
  const whole = { at: 1, startLine: 1, content: was, totalLines: 6, kind: 'shown' as const };
  const part = { at: 2, startLine: 2, content: 'b\nc', totalLines: 6, kind: 'marker' as const };
  t.same(viewAfterWrite([part, whole], { before: was, after: 'a\nb\nc\nD\ne\n', via: 'edit' }), { startLine: 1, content: 'a\nb\nc\nD\ne\n', totalLines: 6 }, 'the whole view the part agrees with');
  t.equal(viewAfterWrite([{ ...part, content: 'b\nX' }, whole], { before: was, after: 'a\nb\nc\nD\ne\n', via: 'edit' }), null, 'a newer view saw other lines');
});

const lineArb = fc.constantFrom('', 'x = 1', 'y = 2', '    return x', 'def f():', '# comment', 'import os', 'z');
t.test('property: what the model held, its own edit and the reply give back exactly the file read', async (t) => {
  const env = storeHome(t, 'omni-edit-prop-');
  const blob = blobOf(env);
  let n = 0;
  let vouched = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(lineArb, { minLength: 30, maxLength: 60 }),
      fc.nat(), fc.nat(), fc.array(lineArb, { maxLength: 4 }),
      fc.option(fc.record({ at: fc.nat(), line: lineArb }), { nil: null }),
      fc.boolean(), fc.nat(), fc.nat(),
      async (lines, at, del, ins, other, whole, s0, len) => {
        const session = `p-${n++}`;
        // A unique marker line makes the edit's old text unique, as the host requires.
        const body = lines.map((l, i) => (i === at % lines.length ? `UNIQUE ${i}` : l));
        const before = body.join('\n') + '\n';
        const k = at % lines.length;
        const old = body.slice(k, Math.min(body.length, k + 1 + (del % 3))).join('\n');
        const repl = [`EDIT ${k}`, ...ins].join('\n');
        const edited = before.replace(old, () => repl);
        const cur = edited.split('\n');
        if (other) cur.splice(other.at % cur.length, 1, other.line);
        const now = cur.join('\n');
        const total = before.split('\n').length;
        const first = whole ? fileRead(before) : fileRead(before, 1 + (s0 % total), 1 + (len % total));
        await read(env, session, first);
        await hook(env, editPayload(session, before, old, repl));
        const second = fileRead(now);
        const got = await read(env, session, second);
        if (!got) return true;
        if (Buffer.byteLength(got.content) > Buffer.byteLength(second.content)) throw new Error('larger than the read');
        if (!/your edit/.test(got.content)) return true;
        vouched++;
        // What the model holds: the lines it read, with its own edit applied (computed here, not by omni).
        const heldBefore = numberedLines(first.content, first.startLine);
        const heldAfter = new Map<number, string>();
        const editLine = before.slice(0, before.indexOf(old)).split('\n').length;
        const grown = repl.split('\n').length - old.split('\n').length;
        const editedLines = edited.split('\n');
        for (const [ln, l] of heldBefore) {
          if (ln < editLine) heldAfter.set(ln, l);
          else if (ln >= editLine + old.split('\n').length) heldAfter.set(ln + grown, l);
        }
        for (let i = 0; i < repl.split('\n').length; i++) heldAfter.set(editLine + i, editedLines[editLine - 1 + i]);
        const rb = rebuild(heldAfter, got, blob);
        if (rb.problems.length) throw new Error(rb.problems.join('; '));
        const want = numberedLines(second.content, 1);
        for (const [ln, l] of want) if (rb.lines.get(ln) !== l) throw new Error(`line ${ln}: want ${JSON.stringify(l)}, rebuilt ${JSON.stringify(rb.lines.get(ln))}`);
        return true;
      },
    ),
    { numRuns: Number(process.env.REREAD_RUNS ?? 150) },
  );
  t.ok(vouched > 20, `${vouched} reads answered from the model's own edit`);
});
