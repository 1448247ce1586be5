/**
 * Shell command-line analysis: which program owns the output, and whether the line has
 * its own plumbing (pipes, redirects, sequences) that a rewrite must not swallow.
 *
 * This is a tokenizer for the common POSIX subset, not a shell. Anything it cannot
 * understand (unbalanced quotes, here-docs, `$(…)`, subshells) is reported so callers can refuse.
 */
import { commandRequestsPassthrough } from './passthrough.js';

/** `>&` duplicates or closes a descriptor (`>&2`, `1>&2`, `2>&-`): a redirect with no target word. */
export type Operator = '|' | '||' | '&&' | ';' | '&' | '>' | '>>' | '<' | '2>' | '2>&1' | '>&' | '&>' | '|&';

export interface Token {
  word?: string;
  op?: Operator;
}

export interface CommandAnalysis {
  /** Segments separated by && || ; & — each segment is a list of pipeline stages (argv lists). */
  segments: string[][][];
  hasUnquotedPipe: boolean;
  hasRedirect: boolean;
  hasSequence: boolean;
  hasBackground: boolean;
  /** `$(…)`, backticks, `( … )` or a here-doc: the tokenizer does not model them. */
  hasSubshell: boolean;
  /** The line's leading assignments set `OMNI_PASSTHROUGH=1` (lib/command/passthrough.ts). */
  passthroughPrefix: boolean;
  /** Quotes did not balance. */
  malformed: boolean;
  /** The producer's argv after `cd … &&`, `VAR=…`, `npx`, `env`, `time` … are peeled off. */
  argv: string[];
  /** argv[0]'s basename, or '' when there is none. */
  program: string;
  /** Tail stage of the last pipeline, when the producer's output is piped. */
  tail: string[] | null;
  /** Known full-screen or prompt-driven programs. */
  interactive: boolean;
}

const INTERACTIVE = new Set([
  'vim', 'vi', 'nvim', 'nano', 'emacs', 'less', 'more', 'top', 'htop', 'man', 'ssh', 'tmux',
  'screen', 'watch', 'python', 'python3', 'node', 'irb', 'psql', 'mysql', 'sqlite3', 'ftp',
  'telnet', 'git-rebase-interactive', 'fzf', 'sudo', 'su', 'passwd',
]);

/**
 * End (exclusive) of the `$(…)` that opens at `i`, or -1 when it never closes. Quotes and
 * nested parentheses inside it are skipped so their `)` does not close it.
 */
function substitutionEnd(line: string, i: number): number {
  let depth = 0;
  for (let j = i + 1; j < line.length; j++) {
    const c = line[j];
    if (c === '\\') { j++; continue; }
    if (c === "'") { j = line.indexOf("'", j + 1); if (j < 0) return -1; continue; }
    if (c === '"' || c === '`') {
      for (j++; j < line.length && line[j] !== c; j++) if (line[j] === '\\') j++;
      if (j >= line.length) return -1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
  }
  return -1;
}

/** End (exclusive) of the backtick substitution that opens at `i`, or -1. */
function backtickEnd(line: string, i: number): number {
  for (let j = i + 1; j < line.length; j++) {
    if (line[j] === '\\') { j++; continue; }
    if (line[j] === '`') return j + 1;
  }
  return -1;
}

const DIGITS = /^\d+$/;

/** Split a command line into words and operators. */
export function tokenize(line: string): { tokens: Token[]; malformed: boolean; subshell: boolean } {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  // The word so far is bare text (no quote, escape or substitution): only then can `2>` be a
  // file-descriptor number rather than an argument.
  let plain = true;
  let subshell = false;
  let i = 0;
  const push = () => {
    if (inWord) tokens.push({ word });
    word = '';
    inWord = false;
    plain = true;
  };
  while (i < line.length) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { tokens, malformed: true, subshell };
      word += line.slice(i + 1, end);
      inWord = true;
      plain = false;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let buf = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length) { buf += line[++j]; continue; }
        if (line[j] === '`' || (line[j] === '$' && line[j + 1] === '(')) subshell = true;
        buf += line[j];
      }
      if (j >= line.length) return { tokens, malformed: true, subshell };
      word += buf;
      inWord = true;
      plain = false;
      i = j + 1;
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      word += line[i + 1];
      inWord = true;
      plain = false;
      i += 2;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n') {
      push();
      i++;
      continue;
    }
    // A comment runs to the end of the line; `a#b` is a word.
    if (c === '#' && !inWord) break;
    // `$(…)` and backticks belong to the word they stand in: the operators inside them are
    // the inner command's, not this line's.
    if ((c === '$' && line[i + 1] === '(') || c === '`') {
      const end = c === '`' ? backtickEnd(line, i) : substitutionEnd(line, i);
      if (end < 0) return { tokens, malformed: true, subshell: true };
      subshell = true;
      word += line.slice(i, end);
      inWord = true;
      plain = false;
      i = end;
      continue;
    }
    if (c === '(' || c === ')') {
      subshell = true;
      push();
      i++;
      continue;
    }
    if (c === '>' || c === '<') {
      // `2>`, `1>>`, `0<`: a bare number right before the operator names a file descriptor.
      let fd = '';
      if (inWord && plain && DIGITS.test(word)) { fd = word; word = ''; inWord = false; }
      push();
      if (c === '<') {
        let n = 1;
        while (line[i + n] === '<' && n < 3) n++;
        if (n > 1) subshell = true; // here-doc / here-string
        tokens.push({ op: '<' });
        i += n;
        continue;
      }
      if (line[i + 1] === '&') {
        // `>&2`, `2>&1`, `2>&-` duplicate or close a descriptor; `>&file` is `&>file`.
        const m = /^\d+|^-/.exec(line.slice(i + 2));
        if (m) {
          tokens.push({ op: fd === '2' && m[0] === '1' ? '2>&1' : '>&' });
          i += 2 + m[0].length;
        } else {
          tokens.push({ op: '&>' });
          i += 2;
        }
        continue;
      }
      if (line[i + 1] === '>') { tokens.push({ op: '>>' }); i += 2; continue; }
      tokens.push({ op: fd === '2' ? '2>' : '>' });
      i += line[i + 1] === '|' ? 2 : 1; // `>|` overrides noclobber: still a redirect
      continue;
    }
    const two = line.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === '&>' || two === '|&') {
      push(); tokens.push({ op: two as Operator }); i += 2; continue;
    }
    if (c === '|' || c === ';' || c === '&') {
      push(); tokens.push({ op: c as Operator }); i += 1; continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  push();
  return { tokens, malformed: false, subshell };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const WRAPPERS = new Set(['npx', 'env', 'time', 'nice', 'nohup', 'command', 'exec', 'stdbuf', 'timeout', 'pnpx', 'bunx']);
/**
 * Wrapper options whose value is the next word (`env -u NAME cmd`, `nice -n 5 cmd`): without
 * this the value would be taken for the producer.
 */
const OPTION_TAKES_VALUE: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  nice: new Set(['-n', '--adjustment']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  npx: new Set(['-p', '--package', '-c', '--call']),
};

/** Peel `VAR=… `, `npx`, `env`, `time` … off an argv; returns the producer's argv. */
export function peelWrappers(argv: string[]): string[] {
  let a = argv.slice();
  for (let guard = 0; guard < 8 && a.length; guard++) {
    while (a.length && ASSIGNMENT.test(a[0])) a.shift();
    const head = basename(a[0] ?? '');
    if (!WRAPPERS.has(head)) break;
    // `command -v jest` prints where jest is; it does not run it.
    if (head === 'command' && (a[1] === '-v' || a[1] === '-V')) break;
    // Options of the wrapper itself (`npx --yes jest`, `timeout 10 cmd`, `env -i cmd`).
    let k = 1;
    const valued = OPTION_TAKES_VALUE[head];
    while (k < a.length && (a[k].startsWith('-') || (head === 'timeout' && /^\d/.test(a[k])) || ASSIGNMENT.test(a[k]))) {
      k += valued?.has(a[k]) ? 2 : 1;
    }
    // A wrapper with nothing to run is the producer itself: bare `env` prints the environment.
    if (k >= a.length) break;
    a = a.slice(k);
  }
  return a;
}

export function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

export function analyzeCommand(command: string): CommandAnalysis {
  const trimmed = command.trim();
  return analyzeTokens(trimmed, tokenize(trimmed));
}

/** The analysis of a line already tokenized (bench/libs.mjs feeds it another tokenizer's tokens). */
export function analyzeTokens(
  trimmed: string,
  { tokens, malformed, subshell }: { tokens: Token[]; malformed: boolean; subshell: boolean },
): CommandAnalysis {
  const segments: string[][][] = [];
  let stages: string[][] = [];
  let cur: string[] = [];
  let hasUnquotedPipe = false, hasRedirect = false, hasSequence = false, hasBackground = false;
  let skipNextWord = false;
  for (const t of tokens) {
    if (t.word !== undefined) {
      if (skipNextWord) { skipNextWord = false; continue; }
      cur.push(t.word);
      continue;
    }
    switch (t.op) {
      case '|': case '|&':
        hasUnquotedPipe = true;
        stages.push(cur); cur = [];
        break;
      case '>': case '>>': case '<': case '2>': case '&>':
        hasRedirect = true;
        skipNextWord = true;
        break;
      case '>&':
        hasRedirect = true;
        break;
      case '2>&1':
        break;
      case ';':
        hasSequence = true;
        stages.push(cur); segments.push(stages); stages = []; cur = [];
        break;
      case '&':
        hasBackground = true;
        stages.push(cur); segments.push(stages); stages = []; cur = [];
        break;
      case '&&': case '||':
        stages.push(cur); segments.push(stages); stages = []; cur = [];
        break;
    }
  }
  stages.push(cur);
  segments.push(stages);
  const nonEmpty = segments.map((s) => s.filter((st) => st.length > 0)).filter((s) => s.length > 0);

  // `cd dir && …` and bare assignments are set-up, not producers.
  const producers = nonEmpty.filter((s) => {
    const first = peelWrappers(s[0]);
    const p = basename(first[0] ?? '');
    return !(p === '' || p === 'cd' || p === 'export' || p === 'set' || p === 'source' || p === '.' || p === 'pushd' || p === 'true');
  });
  const main = producers.length ? producers[producers.length === 1 ? 0 : 0] : nonEmpty[0] ?? [[]];
  const argv = peelWrappers(main[0] ?? []);
  const program = basename(argv[0] ?? '');
  const tail = main.length > 1 ? main[main.length - 1] : null;
  return {
    segments: nonEmpty,
    hasUnquotedPipe,
    hasRedirect,
    hasSequence,
    hasBackground,
    hasSubshell: subshell,
    passthroughPrefix: commandRequestsPassthrough(trimmed),
    malformed,
    argv,
    program,
    tail,
    interactive: INTERACTIVE.has(program) && argv.length <= 1 ||
      ['vim', 'vi', 'nvim', 'nano', 'emacs', 'less', 'more', 'top', 'htop', 'man', 'ssh', 'tmux', 'screen', 'watch', 'fzf', 'sudo', 'su', 'passwd'].includes(program) ||
      (program === 'git' && argv.includes('-i')) || argv.includes('--watch') || argv.includes('--interactive'),
  };
}

/** How many segments of the line produce output of their own (cd/export excluded). */
export function producerCount(a: CommandAnalysis): number {
  let n = 0;
  for (const s of a.segments) {
    const p = basename(peelWrappers(s[0])[0] ?? '');
    if (p && !['cd', 'export', 'set', 'source', '.', 'pushd', 'true', 'mkdir', 'touch', 'rm', 'cp', 'mv'].includes(p)) n++;
  }
  return n;
}
