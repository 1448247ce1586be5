import type { Item, Line } from '../kit/types.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { NOTHING, type LineHandler, type Recognition, type Rewrites } from './hide.js';
import { plural, programOf, subcommand, textOf } from './shared.js';

/*
 * git: log (one line per commit: short hash + subject, `--stat` rows as one list of whole
 * paths), diff/show (every hunk and every changed line; `index` lines and context beyond
 * one line at each end of a hunk out, the hunk header renumbered for what is shown), blame
 * (repeated commit metadata condensed per run of lines). Every removed line is behind a
 * marker; every rewritten line is in the whole raw output render archives and names in
 * its closing receipt. `git status` is git-status.ts's.
 */

const COMMIT = /^commit ([0-9a-f]{7,64})((?: \(.*\))?)$/;
const HEADER = /^(Author|AuthorDate|Commit|CommitDate|Date|Merge):\s/;
const BODY = /^ {4}(.*)$/;
const STAT = /^ (\S.*?)\s+\|\s+(\d+|Bin .*)(?: [+-]+)?$/;
const STAT_SUMMARY = /^ \d+ files? changed(, \d+ insertions?\(\+\))?(, \d+ deletions?\(-\))?$/;
const DIFF_START = /^diff --(git|cc|combined) /;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const INDEX = /^index [0-9a-f]+\.\.[0-9a-f]+( \d{6})?$/;
const BLAME = /^(\^?[0-9a-f]{7,40}) ((?:\S+ )?\((.*?) +(\d+)\)) (.*)$/;

/**
 * Pure: the rows of a diffstat as one list, each path exactly as git printed it (an agent
 * copies it into its next command, so a path is never factored or shortened here; git's
 * own `{a => b}` and `.../` forms stay as they are).
 */
export function statList(entries: Array<[string, string, string] | RegExpExecArray>): string {
  return entries.map((e) => `${e[1]} (${e[2]})`).join(', ');
}

/**
 * One line per commit: `commit <hash>` prints `<short> <subject>`; the rest is hidden.
 * A line classified as a failure is never hidden or rewritten (rule 2), so a subject that
 * reads like one (`Handle read error …`) stays on its own line under the short hash
 * instead of being printed twice, and such body lines stay where they are.
 */
function logHandler(hider: Rewrites): LineHandler {
  let commit: Line | null = null;
  /** The commit line is still held (not flushed), so its subject may join it. */
  let joinable = false;
  let commits = 0;
  let stage: 'none' | 'header' | 'body' | 'stat' = 'none';
  let subjectSeen = false;
  let stat: Line[] = [];
  const flushStat = (out: Item[]) => {
    if (!stat.length) return;
    const list = `    ${statList(stat.map((l) => STAT.exec(textOf(l))!))}`;
    if (stat.some((l) => l.tier === 'failure') || stat[0].out !== undefined) {
      for (const l of stat) out.push(l);
    } else {
      // Every row of the stat stays, whole, on one line: `path (N), path (N)`.
      hider.condense(stat[0], list);
      out.push(stat[0]);
      for (const l of stat.slice(1)) if (!hider.hide(l)) out.push(l);
    }
    stat = [];
  };
  return {
    line(l, out) {
      const t = textOf(l);
      const c = COMMIT.exec(t);
      if (c) {
        flushStat(out);
        commit = l;
        commits++;
        stage = 'header';
        subjectSeen = false;
        const short = `${c[1].slice(0, 7)}${c[2]}`;
        if (l.tier !== 'failure') hider.condense(l, short);
        joinable = l.out === short;
        out.push(l);
        return;
      }
      if (!commit) { out.push(l); return; }
      if (stage === 'header' && HEADER.test(t)) { if (!hider.hide(l)) out.push(l); return; }
      if ((stage === 'header' || stage === 'body') && t === '') { if (!hider.hide(l)) out.push(l); if (stage === 'header') stage = 'body'; return; }
      const b = BODY.exec(t);
      if (stage === 'body' && b) {
        if (!subjectSeen && b[1].trim()) {
          subjectSeen = true;
          if (joinable && l.tier !== 'failure') {
            commit.out = `${commit.out} ${b[1].trim()}`;
            hider.hide(l);
            return;
          }
          out.push(l);
          return;
        }
        if (!hider.hide(l)) out.push(l);
        return;
      }
      if ((stage === 'body' || stage === 'stat') && STAT.test(t)) { stage = 'stat'; stat.push(l); return; }
      if (stage === 'stat' && STAT_SUMMARY.test(t)) { flushStat(out); out.push(l); return; }
      // Anything else (a patch from `-p`, a graph, a format we do not know) stays as it is.
      flushStat(out);
      stage = 'none';
      out.push(l);
    },
    batchEnd(out, final) {
      flushStat(out);
      // What is flushed is rendered: a subject arriving later keeps its own line.
      joinable = false;
      const before = hider.count;
      hider.flush(out, (h) => `${plural(commits, 'commit')} shown one per line (short hash + subject); ${plural(h.length, 'author, date, body and stat line')} hidden`, undefined, final);
      if (hider.count < before || final) commits = 0;
    },
  };
}

/** Context lines kept at each end of a hunk, next to its first and last change. */
const KEEP_CONTEXT = 1;
/** A hunk longer than this is not held to be shortened: it goes out as git printed it. */
const HUNK_HELD_MAX = 4096;

interface Hunk {
  header: Line;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** What follows the second `@@` (git's function context), kept as it is. */
  rest: string;
  oldLeft: number;
  newLeft: number;
  body: Line[];
  /** Too long to hold: its lines went out as they came. */
  spilled: boolean;
}

const range = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);

/**
 * Pure: what to hide of one complete hunk, and its header for what stays, or null when
 * nothing is worth cutting. Only the context before the first change and after the last
 * one is cut (all but KEEP_CONTEXT lines next to the change); context between changes
 * stays. So what is shown is still a unified diff git apply accepts: the header's counts
 * and start lines are those of the lines shown, and every hunk keeps context at each end
 * where git printed some (a hunk with no trailing context would have to match at the end
 * of the file). A failure-looking line is never cut, so such a hunk stays whole.
 */
export function trimHunk(h: Pick<Hunk, 'oldStart' | 'oldCount' | 'newStart' | 'newCount' | 'rest'>, body: readonly Line[]): { hide: Set<Line>; header: string } | null {
  const isChange = (l: Line) => { const c = textOf(l)[0]; return c === '+' || c === '-'; };
  const first = body.findIndex(isChange);
  if (first < 0) return null;
  let last = body.length - 1;
  while (!isChange(body[last])) last--;
  let tail = last + 1;
  while (tail < body.length && textOf(body[tail]).startsWith('\\')) tail++; // `\ No newline…` of the last change
  const lead = Math.max(0, first - KEEP_CONTEXT);
  let keepTail = Math.min(body.length, tail + KEEP_CONTEXT);
  while (keepTail < body.length && textOf(body[keepTail]).startsWith('\\')) keepTail++;
  const hide = new Set<Line>([...body.slice(0, lead), ...body.slice(keepTail)]);
  if (!hide.size) return null;
  for (const l of hide) if (l.tier === 'failure') return null;
  const trail = body.slice(keepTail).filter((l) => !textOf(l).startsWith('\\')).length;
  const header = `@@ -${range(h.oldStart + lead, h.oldCount - lead - trail)} +${range(h.newStart + lead, h.newCount - lead - trail)} @@${h.rest}`;
  return { hide, header };
}

/**
 * diff/show: every hunk and every changed line stays; `index` lines and the far context at
 * the ends of a hunk go, and the hunk's header is renumbered for the lines shown.
 *
 * Decision (issue 10, defect 7): the shortened text stays a valid patch, rather than
 * keeping git's original counts over fewer lines. Markers aside, `git apply` takes what is
 * shown and gives the same files as the raw diff (test/distillers/git.test.ts checks it
 * on real diffs). The original headers are in the whole raw output, whose handle the
 * closing receipt names. A hunk is held until its counts are used up, so its header is
 * written only once its lines are known; a hunk cut short (`| head`) goes out unchanged.
 */
function diffHandler(show: boolean, rewrites: () => Rewrites): LineHandler {
  const hider = rewrites();
  const log = show ? logHandler(rewrites()) : null;
  let inDiff = false;
  let combined = false; // `diff --cc`: two columns of signs, passed through as printed
  let hunk: Hunk | null = null;
  let hiddenCtx = 0;
  let hiddenIndex = 0;
  /** A hunk header was renumbered: the output is a rewritten form with a whole-raw receipt. */
  let rewritten = false;

  const fits = (h: Hunk, t: string): boolean => {
    if (t.startsWith('\\')) return true;
    const c = t[0];
    if (c === ' ' || t === '') return h.oldLeft > 0 && h.newLeft > 0;
    if (c === '-') return h.oldLeft > 0;
    if (c === '+') return h.newLeft > 0;
    return false;
  };
  const count = (h: Hunk, t: string) => {
    const c = t[0];
    if (c === ' ' || t === '') { h.oldLeft--; h.newLeft--; } else if (c === '-') h.oldLeft--; else if (c === '+') h.newLeft--;
  };
  const closeHunk = (out: Item[]) => {
    const h = hunk;
    hunk = null;
    if (!h || h.spilled) return;
    const cut = h.oldLeft === 0 && h.newLeft === 0 && h.header.tier !== 'failure' && h.header.out === undefined ? trimHunk(h, h.body) : null;
    if (cut) {
      hider.condense(h.header, cut.header);
      if (h.header.out !== cut.header) { out.push(h.header); for (const l of h.body) out.push(l); return; }
      rewritten = true;
    }
    out.push(h.header);
    for (const l of h.body) {
      if (cut && cut.hide.has(l) && hider.hide(l)) hiddenCtx++;
      else out.push(l);
    }
  };
  return {
    line(l, out) {
      const t = textOf(l);
      if (hunk) {
        if (fits(hunk, t)) {
          count(hunk, t);
          if (hunk.spilled) { out.push(l); return; }
          hunk.body.push(l);
          if (hunk.body.length > HUNK_HELD_MAX) {
            out.push(hunk.header);
            for (const b of hunk.body) out.push(b);
            hunk.body = [];
            hunk.spilled = true;
          }
          return;
        }
        closeHunk(out);
      }
      if (DIFF_START.test(t)) { inDiff = true; combined = t.startsWith('diff --cc') || t.startsWith('diff --combined'); out.push(l); return; }
      if (!inDiff) { if (log) log.line(l, out); else out.push(l); return; }
      if (COMMIT.test(t) && log) { inDiff = false; log.line(l, out); return; }
      if (INDEX.test(t)) { if (hider.hide(l)) { hiddenIndex++; return; } out.push(l); return; }
      const m = combined ? null : HUNK_HEADER.exec(t);
      if (m) {
        const oldCount = m[2] === undefined ? 1 : Number(m[2]);
        const newCount = m[4] === undefined ? 1 : Number(m[4]);
        hunk = { header: l, oldStart: Number(m[1]), oldCount, newStart: Number(m[3]), newCount, rest: m[5], oldLeft: oldCount, newLeft: newCount, body: [], spilled: false };
        return;
      }
      out.push(l);
    },
    batchEnd(out, final) {
      // A hunk still open waits for the rest of its lines, unless the input ended.
      if (final) closeHunk(out);
      if (log) log.batchEnd!(out, final);
      const before = hider.count;
      // One marker at the end for lines from every file is honest only beside a rewritten
      // form (its receipt names the whole raw output). With no header renumbered (`-U0`,
      // new files only) the scattered index lines go back where they were.
      // The note says plainly that the patch was rewritten, so nobody mistakes the hunks shown
      // for git's own.
      hider.flush(out, () => {
        const what = [hiddenCtx ? `${hiddenCtx} context` : '', hiddenIndex ? `${hiddenIndex} index` : ''].filter(Boolean).join(' + ');
        return `${what} line${hiddenCtx + hiddenIndex === 1 ? '' : 's'} hidden${rewritten ? '; hunks renumbered' : ''}`;
      }, rewritten ? undefined : Infinity, final);
      if (hider.count < before || final) { hiddenCtx = 0; hiddenIndex = 0; }
    },
  };
}

/** blame: the first line of a run from one commit keeps its metadata; the rest print `hash lineno) code`. */
function blameHandler(): LineHandler {
  let prev = '';
  return {
    line(l, out) {
      const m = BLAME.exec(textOf(l));
      if (!m) { prev = ''; out.push(l); return; }
      if (m[1] === prev) {
        const pad = ' '.repeat(Math.max(0, m[1].length - 1));
        l.out = `${pad}" ${m[4]}) ${m[5]}`;
      }
      prev = m[1];
      out.push(l);
    },
  };
}

/** What a run of git output is, by subcommand: a rewritten form, or nothing. */
function recogniser(route: ProducerRoute): Recognition {
  const sub = route.argv.length ? subcommand(route.argv) : 'log'; // sniffed: a log
  if (sub === 'log' || sub === 'whatchanged' || sub === 'reflog') return { unit: 'rewrite', lines: (rewrites) => logHandler(rewrites()) };
  if (sub === 'diff' || sub === 'show') return { unit: 'rewrite', lines: (rewrites) => diffHandler(sub === 'show', rewrites) };
  if (sub === 'blame' || sub === 'annotate') return { unit: 'rewrite', lines: blameHandler };
  return NOTHING;
}

const GIT_SUBS = new Set(['log', 'whatchanged', 'reflog', 'diff', 'show', 'blame', 'annotate']);

/** git log/diff/show/blame: every commit, hunk and line is the answer; noisy enough for a pre-hook rewrite. */
export default {
  name: 'git',
  family: 'git',
  matches: (argv) => programOf(argv) === 'git' && GIT_SUBS.has(subcommand(argv)),
  answer: true,
  rewrite: true,
  sniff: (head) => head.length > 0 && COMMIT.test(textOf(head[0])) && head.slice(1, 4).some((l) => /^Author: /.test(textOf(l))),
  lines: recogniser,
  examples: [
    // corpus/cases/056-git-log, lines 1-25
    {
      command: 'git log -25',
      input: `commit 600073bd47c4c06a1178c8002805ef19047ba357
Author: Dana Developer <dana@example.com>
Date:   Sat Mar 23 11:00:00 2024 +0000

    Add product models, icons, CI workflow and sample data

commit 11557f2b91041fffb687e2e2ac979cea3622b177
Merge: cb94531 d3aef1a
Author: Dana Developer <dana@example.com>
Date:   Fri Mar 22 10:00:00 2024 +0000

    Merge branch 'feature/refunds'

commit cb945311bdbbeafcfd66cbf75d400253f6d35be0
Author: Dana Developer <dana@example.com>
Date:   Thu Mar 21 09:00:00 2024 +0000

    Add README

commit d3aef1a75c64a9b1a86d486a9e9d20d183040cd9
Author: Sam Contributor <sam@example.com>
Date:   Wed Mar 20 08:12:00 2024 +0000

    Speed up product search

`,
      output: `600073b Add product models, icons, CI workflow and sample data
11557f2 Merge branch 'feature/refunds'
cb94531 Add README
d3aef1a Speed up product search
[omni: 4 commits shown one per line (short hash + subject); 21 author, date, body and stat lines hidden — omni retrieve <handle>]
[omni: 4 lines condensed; whole output — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
