/**
 * A file's patch the reader was already shown, byte for byte, in this context comes back as its
 * `diff --git` line and one marker: `git diff`, then after the commit `git show HEAD`,
 * `git log -p`, or `git diff` again with the file unchanged. Real git output of one change
 * (test/fixtures/ledger-patch), through the hook door with a real SQLite store.
 *
 * What must hold: the marker's handle gives back exactly the rest of that file's patch, one
 * contiguous part of this output; that text was in an earlier output this reader was shown whole,
 * and every `+`/`-` line of it reached the reader then; a patch that differs in one line, another
 * reader, a context the host compacted, or a reply the host did not show whole fold nothing.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../lib/doors/hook.js';
import { openStore } from '../lib/store/open.js';
import { getBlob } from '../lib/store/archive.js';
import { CLAUDE_SAMPLES } from './helpers/samples.js';
import { createLedgerStage } from '../lib/pipeline/ledger.js';
import { SortedHashSet } from '../lib/store/linehash.js';
import { shownOf } from '../lib/doors/run-record.js';

const FIX = join(CLAUDE_SAMPLES, '..', 'ledger-patch');
const out = (name: string) => readFileSync(join(FIX, name), 'utf8').replace(/\n$/, '');
const SHOWN = /^\[omni: (\d+) lines of this file's patch, as you were already shown it — omni retrieve ([0-9a-f]{16})\]$/;

interface Reader { env: NodeJS.ProcessEnv; session: string; n: number }

function reader(t: { teardown: (fn: () => void) => void }, session = 'shown-patch'): Reader {
  const dir = mkdtempSync(join(tmpdir(), 'omni-shown-patch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { env: { OMNI_HOME: join(dir, 'omni'), HOME: dir, PATH: process.env.PATH } as NodeJS.ProcessEnv, session, n: 0 };
}

async function bash(r: Reader, command: string, stdout: string): Promise<string> {
  const p = JSON.parse(readFileSync(join(CLAUDE_SAMPLES, 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  p.session_id = r.session;
  p.cwd = '/proj';
  p.tool_use_id = `toolu_patch_${++r.n}`;
  p.tool_input = { command, description: command };
  p.tool_response = { stdout, stderr: '', interrupted: false, isImage: false };
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), r.env);
  return reply === '' ? stdout : JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout;
}

/** One file's patch of a raw output: its `diff --git` line through its last hunk line. */
function patchOf(raw: string, path: string): string[] {
  const ls = raw.split('\n');
  const i = ls.indexOf(`diff --git a/${path} b/${path}`);
  let j = i + 1;
  while (j < ls.length && !ls[j].startsWith('diff --git ') && !ls[j].startsWith('commit ') && ls[j] !== '') j++;
  return ls.slice(i, j);
}

function folds(r: Reader, reply: string): Array<{ above: string; hidden: string }> {
  const s = openStore({ home: r.env.OMNI_HOME! });
  try {
    const ls = reply.split('\n');
    return ls.flatMap((l, i) => {
      const m = SHOWN.exec(l);
      if (!m) return [];
      const blob = getBlob(s, m[2]);
      return [{ above: ls[i - 1], hidden: blob ? blob.toString('utf8') : '(no blob)' }];
    });
  } finally {
    s.close();
  }
}

t.test('git show HEAD and git log -p after git diff: each patch already shown is its diff --git line and one marker', async (t) => {
  const r = reader(t);
  const diff = out('git-diff.txt');
  const first = await bash(r, 'git diff', diff);
  t.same(folds(r, first), [], 'the first diff folds nothing as shown');
  // Every +/- line of both files' patches reached the reader with the first diff.
  for (const l of diff.split('\n').filter((x) => /^[+-](?![+-]{2} )/.test(x))) t.ok(first.split('\n').includes(l), `git diff shows ${l.trim()}`);

  for (const [command, file, paths] of [['git show HEAD', 'git-show-head.txt', ['lib/invoice.rb', 'lib/tax.rb']], ['git log -p -n 2 -- lib/invoice.rb', 'git-log-p.txt', ['lib/invoice.rb']]] as const) {
    const raw = out(file);
    const reply = await bash(r, command, raw);
    const got = folds(r, reply);
    t.equal(got.length, paths.length, `${command}: one fold per file whose patch was shown`);
    for (const [k, path] of paths.entries()) {
      const patch = patchOf(raw, path);
      t.same(patchOf(diff, path), patch, `${command}: ${path}'s patch is the one git diff printed`);
      t.equal(got[k].above, patch[0], `${command}: the marker stands under ${path}'s own diff --git line`);
      t.equal(got[k].hidden.replace(/\n$/, ''), patch.slice(1).join('\n'), `${command}: the handle gives back the rest of ${path}'s patch, as it stood`);
      t.ok(raw.includes(patch.join('\n')), `${command}: one contiguous part of the output`);
    }
    t.ok(reply.length < raw.length, `${command}: smaller`);
  }
  // The older commit's patch (a new file) was first shown by that log: the same log again folds it too.
  const again = await bash(r, 'git log -p -n 2 -- lib/invoice.rb', out('git-log-p.txt'));
  t.equal(folds(r, again).length, 2, 'the same log again: both commits\' patches fold');
});

t.test('git diff again with the files unchanged folds both patches; a changed line folds nothing', async (t) => {
  const r = reader(t);
  const diff = out('git-diff.txt');
  await bash(r, 'git diff', diff);
  const again = await bash(r, 'git diff', diff);
  t.equal(folds(r, again).length, 2, 'both patches fold');
  t.ok(again.length < diff.length / 2, 'under half the diff');
  const edited = diff.replace('.round', '.round(half: :even)');
  const third = await bash(r, 'git diff', edited);
  const f = folds(r, third);
  t.equal(f.length, 1, 'only the unchanged file folds');
  t.equal(f[0].above, 'diff --git a/lib/invoice.rb b/lib/invoice.rb', 'the unchanged file is invoice.rb');
  t.match(third, /\+ {6}cents = \(money\.cents \* rate\(country, category\) \/ 100\.0\)\.round\(half: :even\)/, "tax.rb's changed line is shown");
});

t.test('another reader, and the same reader after compaction, are shown the patch again', async (t) => {
  const r = reader(t);
  const diff = out('git-diff.txt');
  await bash(r, 'git diff', diff);
  const other = { ...r, session: 'another-session' };
  t.same(folds(other, await bash(other, 'git show HEAD', out('git-show-head.txt'))), [], 'another session folds nothing');
  const pre = { session_id: r.session, hook_event_name: 'PreCompact', trigger: 'manual', cwd: '/proj', transcript_path: '/x' };
  await runHook('pre-compact', Buffer.from(JSON.stringify(pre)), r.env);
  t.same(folds(r, await bash(r, 'git show HEAD', out('git-show-head.txt'))), [], 'after compaction nothing folds as shown');
});

t.test('a patch is on record only when the reply reached the reader whole', async (t) => {
  const stage = createLedgerStage({ door: 'hook', tool: 'Bash' }, { session: new SortedHashSet([]), project: new SortedHashSet([]) }, { passthrough: null, shownKeys: ['diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b'] });
  stage.end();
  t.equal(shownOf(stage, { kind: 'whole' }).hashes.length, 8, 'shown whole: the patch is recorded');
  t.equal(shownOf(stage, { kind: 'lines', text: 'diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b' }).hashes.length, 0, "the host's preview: not recorded, even when its lines are the patch's");
  t.equal(shownOf(stage, { kind: 'none' }).hashes.length, 0, 'not shown: not recorded');
});

/** A file's patch in git's form: one hunk replacing `n` lines. */
function gitPatch(path: string, n: number, salt: number): string {
  const old = Array.from({ length: n }, (_, i) => `-  value_${i} = compute(${i})`);
  const neu = Array.from({ length: n }, (_, i) => `+  value_${i} = compute(${i} + ${salt})`);
  return [`diff --git a/${path} b/${path}`, `index 1a2b3c${salt}..4d5e6f${salt} 100644`, `--- a/${path}`, `+++ b/${path}`, `@@ -10,${n + 2} +10,${n + 2} @@ def run():`, '   start()', ...old, ...neu, '   finish()'].join('\n');
}

t.test('property: a patch folded as shown is one an earlier reply showed whole, every +/- line of it', async (t) => {
  const fc = (await import('fast-check')).default;
  const files = ['a.py', 'b.py', 'c.py', 'd.py'];
  let folded = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ pick: fc.subarray(files, { minLength: 1 }), salt: fc.integer({ min: 0, max: 1 }), n: fc.integer({ min: 3, max: 4 }) }), { minLength: 2, maxLength: 5 }),
      async (calls) => {
        const r = reader(t, `prop-${Math.random()}`);
        const replies: string[] = [];
        const raws: string[] = [];
        for (const c of calls) {
          const raw = c.pick.map((f) => gitPatch(f, c.n, c.salt)).join('\n');
          const reply = await bash(r, 'git diff', raw);
          for (const f of folds(r, reply)) {
            folded++;
            const path = f.above.slice('diff --git a/'.length).split(' ')[0];
            const whole = `${f.above}\n${f.hidden.replace(/\n$/, '')}`;
            if (!raw.includes(whole)) return false; // contiguous, where it stood
            const earlier = raws.findIndex((x, i) => x.split('\n').join('\n').includes(whole) && whole.split('\n').filter((l) => /^[+-](?![+-]{2} )/.test(l)).every((l) => replies[i].split('\n').includes(l)));
            if (earlier < 0) return false;
            if (!path) return false;
          }
          replies.push(reply);
          raws.push(raw);
        }
        return true;
      },
    ),
    { numRuns: 25, seed: 20261207 },
  );
  t.ok(folded > 5, `held for every generated sequence (${folded} patches folded as shown)`);
});
