/**
 * The ledger folds only lines that stand alone: never a patch's file header, hunk header or hunk
 * line, and no fold runs across them. Real git output of one change, shown to one reader in
 * the order a session shows it: `git diff`, then after the commit `git show HEAD` and
 * `git log -p`. On main, `git show HEAD` came back with "11 lines already shown" standing for
 * invoice.rb's hunk AND tax.rb's `diff --git`/`---`/`+++` lines, so tax.rb's hunk read as
 * invoice.rb's; and `git log -p` hid the commit's own `+` lines as already shown.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../lib/doors/hook.js';
import { openStore } from '../lib/store/open.js';
import { getBlob } from '../lib/store/archive.js';
import { PatchLines } from '../lib/pipeline/patch-lines.js';
import { CLAUDE_SAMPLES } from './helpers/samples.js';

const FIX = join(CLAUDE_SAMPLES, '..', 'ledger-patch');
const out = (name: string) => readFileSync(join(FIX, name), 'utf8').replace(/\n$/, '');

async function bash(env: NodeJS.ProcessEnv, command: string, stdout: string): Promise<string> {
  const p = JSON.parse(readFileSync(join(CLAUDE_SAMPLES, 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  p.session_id = 'patch-session';
  p.cwd = '/proj';
  p.tool_input = { command, description: command };
  p.tool_response = { stdout, stderr: '', interrupted: false, isImage: false };
  const reply = await runHook('post-hook', Buffer.from(JSON.stringify(p)), env);
  return reply === '' ? stdout : JSON.parse(reply).hookSpecificOutput.updatedToolOutput.stdout;
}

const HEADER = /^(diff --git |index [0-9a-f]+\.\.|--- |\+\+\+ |@@ )/;

t.test('after git diff, git show HEAD and git log -p keep every patch line and header of their own', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'omni-ledger-patch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { OMNI_HOME: join(dir, 'omni'), HOME: dir, PATH: process.env.PATH } as NodeJS.ProcessEnv;
  await bash(env, 'git diff', out('git-diff.txt'));
  const store = () => openStore({ home: env.OMNI_HOME! });

  for (const [command, file] of [['git show HEAD', 'git-show-head.txt'], ['git log -p -n 2 -- lib/invoice.rb', 'git-log-p.txt']]) {
    const raw = out(file);
    const reply = await bash(env, command, raw);
    const s = store();
    for (const m of reply.matchAll(/\[omni: (\d+ lines already shown) — omni retrieve ([0-9a-f]{16})\]/g)) {
      const hidden = getBlob(s, m[2])!.toString('utf8').split('\n');
      t.same(hidden.filter((l) => HEADER.test(l) || /^[+-]/.test(l)), [], `${command}: "${m[1]}" hides no patch header and no +/- line`);
    }
    // The git distiller's own folds (a new file's body past its first lines) stand in place for
    // lines of this very patch: expanded where they stand, they are what the reader can have.
    const got = reply.split('\n').map((l) => {
      const m = /^\[omni: (.*) — omni retrieve ([0-9a-f]{16})\]$/.exec(l);
      if (!m || / already shown$/.test(m[1])) return l;
      const blob = getBlob(s, m[2])?.toString('utf8') ?? l;
      return blob === `${raw}\n` || blob === raw ? '' : blob.replace(/\n$/, '');
    }).join('\n');
    s.close();
    // Every +/- line of the patch is in what the reader got, and each file's header sits above
    // its own hunk (the file named by the nearest diff --git above a hunk line is its file).
    const changed = raw.split('\n').filter((l) => /^[+-]/.test(l) && !HEADER.test(l));
    t.same(changed.filter((l) => !got.split('\n').includes(l)), [], `${command}: every + and - line of the commit is in the reply`);
    const fileOf = (text: string, line: string) => {
      const ls = text.split('\n');
      const i = ls.indexOf(line);
      for (let k = i; k >= 0; k--) if (ls[k].startsWith('diff --git ')) return ls[k];
      return null;
    };
    t.same(changed.filter((l) => got.split('\n').includes(l) && fileOf(got, l) !== fileOf(raw, l)), [], `${command}: every + and - line under its own file's header`);
  }
});

t.test('the patch reader: headers, hunk lines, and the lines around a patch', async (t) => {
  const pl = new PatchLines();
  const seen = (text: string) => text.split('\n').map((l) => pl.see(l));
  t.same(
    seen(['commit 6acd432', 'Author: Dana', '', '    subject', '', 'diff --git a/x b/x', 'index 1..2 100644', '--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', ' same', '-old', '+new', '\\ No newline at end of file', 'commit 8e8527d', '--- a rule in a message'].join('\n')),
    [null, null, null, null, null, 'header', 'header', 'header', 'header', 'header', 'hunk', 'hunk', 'hunk', 'hunk', null, 'header'],
  );
  const plain = new PatchLines();
  t.same(['--- a.txt\t2026-11-20 10:00:00', '+++ b.txt\t2026-11-20 10:01:00', '@@ -1 +1 @@', '-a', '+b'].map((l) => plain.see(l)), ['header', 'header', 'header', 'hunk', 'hunk'], 'diff -u, which prints no diff line');
  const prose = new PatchLines();
  t.same(['# Notes', '--- ', '--- a Markdown line', '+++ not a patch'].map((l) => prose.see(l)), [null, null, null, null], 'outside a patch, --- and +++ lines are text');
});
