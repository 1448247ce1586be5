import type { Item, Line, PipelineContext } from '../pipeline/types.js';
import type { RunState } from '../pipeline/stage.js';
import type { DistillerSpec } from './registry.js';
import { BatchHider, identity, lineDistiller, plural, producerArgv, programOf, subcommand, textOf, type LineHandler } from './shared.js';

/*
 * git: log (one line per commit: short hash + subject, `--stat` lists condensed),
 * status (every path; the `(use "git …")` hints out), diff/show (every hunk and every
 * changed line; `index` lines and context beyond one line around a change out), blame
 * (repeated commit metadata condensed per run of lines). Every removed line is behind a
 * marker; every condensed line is in the whole raw output render archives.
 */

const COMMIT = /^commit ([0-9a-f]{7,64})((?: \(.*\))?)$/;
const HEADER = /^(Author|AuthorDate|Commit|CommitDate|Date|Merge):\s/;
const BODY = /^ {4}(.*)$/;
const STAT = /^ (\S.*?)\s+\|\s+(\d+|Bin .*)(?: [+-]+)?$/;
const STAT_SUMMARY = /^ \d+ files? changed(, \d+ insertions?\(\+\))?(, \d+ deletions?\(-\))?$/;
const STATUS_HINT = /^\s+\((use "git [^"]+"|commit or discard the untracked or modified content in submodules)[^)]*\)$/;
const DIFF_START = /^diff --(git|cc|combined) /;
const HUNK = /^@@@? -\d+(,\d+)? \+\d+(,\d+)? @@@?/;
const INDEX = /^index [0-9a-f]+\.\.[0-9a-f]+( \d{6})?$/;
const BLAME = /^(\^?[0-9a-f]{7,40}) ((?:\S+ )?\((.*?) +(\d+)\)) (.*)$/;

/** Pure: stat entries as one list; consecutive files of one directory share it once. */
export function statList(entries: Array<[string, string, string] | RegExpExecArray>): string {
  const parts: string[] = [];
  let dir: string | null = null;
  let group: string[] = [];
  const close = () => {
    if (dir === null) return;
    parts.push(group.length > 1 ? `${dir}{${group.join(', ')}}` : `${dir}${group[0]}`);
    group = [];
  };
  for (const e of entries) {
    const path = e[1];
    const cut = path.lastIndexOf('/') + 1;
    const d = path.slice(0, cut);
    // `{…}` in a rename (`a/{x => y}`) keeps its own line form.
    if (d !== dir || path.includes('{')) { close(); dir = d; }
    group.push(`${path.slice(cut)} (${e[2]})`);
    if (path.includes('{')) { close(); dir = null; }
  }
  close();
  return parts.join(', ');
}

/** One line per commit: `commit <hash>` prints `<short> <subject>`; the rest is hidden. */
function logHandler(): LineHandler {
  const hider = new BatchHider();
  let commit: Line | null = null;
  let commits = 0;
  let stage: 'none' | 'header' | 'body' | 'stat' = 'none';
  let subjectSeen = false;
  let stat: Line[] = [];
  const flushStat = (out: Item[]) => {
    if (!stat.length) return;
    // Every file of the stat stays, on one line: `path (N), dir/{a (N), b (N)}`.
    hider.condense(stat[0], `    ${statList(stat.map((l) => STAT.exec(textOf(l))!))}`);
    out.push(stat[0]);
    for (const l of stat.slice(1)) if (!hider.hide(l)) out.push(l);
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
        hider.condense(l, `${c[1].slice(0, 7)}${c[2]}`);
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
          commit.out = `${commit.out} ${b[1].trim()}`;
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
      const before = hider.count;
      hider.flush(out, (h) => `${plural(commits, 'commit')} shown one per line (short hash + subject); ${plural(h.length, 'author, date, body and stat line')} hidden`, undefined, final);
      if (hider.count < before || final) commits = 0;
    },
  };
}

/** git status: every row stays; the `(use "git …")` hint lines go. */
function statusHandler(): LineHandler {
  const hider = new BatchHider();
  return {
    line(l, out) {
      if (STATUS_HINT.test(textOf(l)) && hider.hide(l)) return;
      out.push(l);
    },
    batchEnd(out, final) {
      hider.flush(out, (h) => `${plural(h.length, 'git hint line')} hidden`, 0, final);
    },
  };
}

/** diff/show: every hunk header and changed line stays; far context and index lines go. */
function diffHandler(show: boolean): LineHandler {
  const hider = new BatchHider();
  const log = show ? logHandler() : null;
  let inDiff = false;
  let ctx: Line[] = []; // context lines since the last change
  let afterChange = false;
  let hiddenCtx = 0;
  let hiddenIndex = 0;
  const closeContext = (out: Item[], beforeChange: boolean) => {
    // Keep one context line after the previous change and one before the next.
    const keepHead = afterChange ? 1 : 0;
    const keepTail = beforeChange ? 1 : 0;
    if (ctx.length <= keepHead + keepTail) { for (const l of ctx) out.push(l); ctx = []; return; }
    const tail = ctx.slice(ctx.length - keepTail);
    for (const l of ctx.slice(0, keepHead)) out.push(l);
    for (const l of ctx.slice(keepHead, ctx.length - keepTail)) { if (hider.hide(l)) hiddenCtx++; else out.push(l); }
    for (const l of tail) out.push(l);
    ctx = [];
  };
  return {
    line(l, out) {
      const t = textOf(l);
      if (DIFF_START.test(t)) { closeContext(out, false); inDiff = true; afterChange = false; out.push(l); return; }
      if (!inDiff) { if (log) log.line(l, out); else out.push(l); return; }
      if (INDEX.test(t)) { if (hider.hide(l)) { hiddenIndex++; return; } out.push(l); return; }
      if (HUNK.test(t)) { closeContext(out, false); afterChange = false; out.push(l); return; }
      if (t.startsWith(' ') || t === '') { ctx.push(l); return; }
      if (t.startsWith('+') || t.startsWith('-')) {
        closeContext(out, true);
        afterChange = true;
        out.push(l);
        return;
      }
      if (COMMIT.test(t) && log) { closeContext(out, false); inDiff = false; log.line(l, out); return; }
      closeContext(out, false);
      out.push(l);
    },
    batchEnd(out, final) {
      closeContext(out, false);
      afterChange = false;
      if (log) log.batchEnd!(out, final);
      const before = hider.count;
      hider.flush(out, () => [hiddenCtx ? plural(hiddenCtx, 'unchanged context line') : '', hiddenIndex ? plural(hiddenIndex, 'index line') : ''].filter(Boolean).join(' and ') + ' hidden', undefined, final);
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

function create(ctx: PipelineContext, run: RunState) {
  const sub = ctx.command ? subcommand(producerArgv(ctx.command)) : 'log'; // sniffed: a log
  if (sub === 'log' || sub === 'whatchanged' || sub === 'reflog') return lineDistiller(run, logHandler());
  if (sub === 'status') return lineDistiller(run, statusHandler());
  if (sub === 'diff' || sub === 'show') return lineDistiller(run, diffHandler(sub === 'show'));
  if (sub === 'blame' || sub === 'annotate') return lineDistiller(run, blameHandler());
  return identity(run);
}

const GIT_SUBS = new Set(['log', 'whatchanged', 'reflog', 'diff', 'show', 'blame', 'annotate']);

/** git log/diff/show/blame: noisy enough for a pre-hook rewrite. */
export const GIT: DistillerSpec = {
  name: 'git',
  family: 'git',
  matches: (argv) => programOf(argv) === 'git' && GIT_SUBS.has(subcommand(argv)),
  sniff: (head) => head.length > 0 && COMMIT.test(textOf(head[0])) && head.slice(1, 4).some((l) => /^Author: /.test(textOf(l))),
  rewrite: true,
  create,
};

/** git status is an enumeration (every path stays; only hints go): never rewritten. */
export const GIT_STATUS: DistillerSpec = {
  name: 'git-status',
  family: 'git',
  matches: (argv) => programOf(argv) === 'git' && subcommand(argv) === 'status',
  create,
};
