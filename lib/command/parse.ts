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
  /**
   * Every segment whose output can reach the stream, in order: not set-up (`cd`, `export`,
   * `VAR=…`), not a quiet file operation (`rm`, `mkdir`, …), not one whose standard output
   * goes to a file (`make clean >/dev/null`). `argv` is the first of them (or, when none
   * prints, the first segment that is not set-up).
   */
  producers: Producer[];
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

/** A double-quoted word opening at `i`: its text, where it ends, whether it substitutes, whether it closes. */
function doubleQuoted(line: string, i: number): { text: string; end: number; substitutes: boolean; closed: boolean } {
  let text = '';
  let substitutes = false;
  let j = i + 1;
  for (; j < line.length && line[j] !== '"'; j++) {
    if (line[j] === '\\' && j + 1 < line.length) { text += line[++j]; continue; }
    if (line[j] === '`' || (line[j] === '$' && line[j + 1] === '(')) substitutes = true;
    text += line[j];
  }
  return { text, end: j + 1, substitutes, closed: j < line.length };
}

/**
 * The redirect operator at `i` (`<`, `<<`, `>`, `>>`, `>|`, `>&N`, `>&-`, `>&file`), given the
 * file-descriptor number written right before it (`2>`), and where the operator ends.
 */
function redirect(line: string, i: number, fd: string): { op: Operator; end: number; hereDoc: boolean } {
  if (line[i] === '<') {
    let n = 1;
    while (line[i + n] === '<' && n < 3) n++;
    return { op: '<', end: i + n, hereDoc: n > 1 };
  }
  if (line[i + 1] === '&') {
    // `>&2`, `2>&1`, `2>&-` duplicate or close a descriptor; `>&file` is `&>file`.
    const m = /^\d+|^-/.exec(line.slice(i + 2));
    if (m) return { op: fd === '2' && m[0] === '1' ? '2>&1' : '>&', end: i + 2 + m[0].length, hereDoc: false };
    return { op: '&>', end: i + 2, hereDoc: false };
  }
  if (line[i + 1] === '>') return { op: '>>', end: i + 2, hereDoc: false };
  // `>|` overrides noclobber: still a redirect.
  return { op: fd === '2' ? '2>' : '>', end: i + (line[i + 1] === '|' ? 2 : 1), hereDoc: false };
}

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
  /** Text that belongs to the current word but is not bare. */
  const quoted = (text: string, end: number) => {
    word += text;
    inWord = true;
    plain = false;
    i = end;
  };
  while (i < line.length) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { tokens, malformed: true, subshell };
      quoted(line.slice(i + 1, end), end + 1);
      continue;
    }
    if (c === '"') {
      const q = doubleQuoted(line, i);
      if (q.substitutes) subshell = true;
      if (!q.closed) return { tokens, malformed: true, subshell };
      quoted(q.text, q.end);
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      quoted(line[i + 1], i + 2);
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
      quoted(line.slice(i, end), end);
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
      const r = redirect(line, i, fd);
      if (r.hereDoc) subshell = true; // here-doc / here-string
      tokens.push({ op: r.op });
      i = r.end;
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

/** One segment that prints to the stream: its producer's argv and its pipe's last stage. */
export interface Producer {
  /** The producer's argv, wrappers peeled (as `CommandAnalysis.argv`). */
  argv: string[];
  /** The last stage of its pipeline when it is piped (`| grep x`, `| tail`), else null. */
  tail: string[] | null;
  /** It runs in a container or a pod (`docker compose exec app pytest`): argv is the inner command. */
  container: boolean;
}

/** Segments that set the shell up and print nothing: not producers. */
const SET_UP = new Set(['', 'cd', 'export', 'set', 'unset', 'source', '.', 'pushd', 'popd', 'true', 'false', ':', 'exit', 'return', 'umask', 'ulimit', 'shopt', 'alias', 'trap', 'wait', 'sleep']);
/** File operations that print nothing when they succeed (a failure's message is a failure line). */
const QUIET = new Set(['mkdir', 'touch', 'rm', 'cp', 'mv', 'ln', 'chmod', 'chown', 'rmdir']);

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

/**
 * Options of `docker exec`, `docker compose exec|run` and `podman exec` whose value is the next
 * word, and docker's and compose's own options before the subcommand (`--context x`, `-f file`).
 */
const CONTAINER_VALUED = new Set([
  '-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys', '--index', '-v', '--volume',
  '-p', '--publish', '--name', '--entrypoint', '-l', '--label', '-f', '--file', '--project-name', '--profile',
  '--project-directory', '--context', '-c', '-H', '--host', '--log-level', '--config', '--ansi', '--parallel',
]);

/** kubectl's global options whose value is the next word (`kubectl -n web exec …`). */
const KUBE_VALUED = new Set(['-n', '--namespace', '--context', '--kubeconfig', '-s', '--server', '--cluster', '--user', '--as', '--token']);

/** The words after `from`, its options (and their values) skipped, then the container or service. */
function afterContainer(a: string[], from: number): string[] | null {
  let k = from;
  while (k < a.length && a[k].startsWith('-')) k += CONTAINER_VALUED.has(a[k]) ? 2 : 1;
  if (k >= a.length - 1) return null; // no container, or nothing to run in it
  return a.slice(k + 1);
}

/**
 * A command run in a container or a pod, whose output is the inner command's, passed through
 * untouched: `docker exec [opts] ctr cmd`, `docker compose exec|run [opts] svc cmd`,
 * `docker-compose exec svc cmd`, `podman exec ctr cmd`, `kubectl exec [opts] pod -- cmd`.
 * Returns the inner argv, or null when the line is not one.
 */
export function containerCommand(a: string[]): string[] | null {
  const p = basename(a[0] ?? '');
  if (p === 'kubectl' || p === 'oc') {
    const sep = a.indexOf('--');
    let k = 1;
    while (k < a.length && a[k].startsWith('-')) k += KUBE_VALUED.has(a[k]) ? 2 : 1;
    return a[k] === 'exec' && sep > k && sep < a.length - 1 ? a.slice(sep + 1) : null;
  }
  if (p !== 'docker' && p !== 'podman' && p !== 'docker-compose') return null;
  // Global options, then `compose` (docker's plugin), its own options, then the subcommand.
  let k = 1;
  while (k < a.length && a[k].startsWith('-')) k += CONTAINER_VALUED.has(a[k]) ? 2 : 1;
  if (p !== 'docker-compose' && a[k] === 'compose') {
    k++;
    while (k < a.length && a[k].startsWith('-')) k += CONTAINER_VALUED.has(a[k]) ? 2 : 1;
    return a[k] === 'exec' || a[k] === 'run' ? afterContainer(a, k + 1) : null;
  }
  if (p === 'docker-compose') return a[k] === 'exec' || a[k] === 'run' ? afterContainer(a, k + 1) : null;
  if (a[k] === 'container' && a[k + 1] === 'exec') k++;
  return a[k] === 'exec' ? afterContainer(a, k + 1) : null;
}

/**
 * Peel `VAR=… `, `npx`, `env`, `time` …, and a container's or pod's exec, off an argv; returns
 * the producer's argv.
 */
export function peelWrappers(argv: string[], containers = true): string[] {
  let a = argv.slice();
  for (let guard = 0; guard < 8 && a.length; guard++) {
    while (a.length && ASSIGNMENT.test(a[0])) a.shift();
    const head = basename(a[0] ?? '');
    const inner = containers ? containerCommand(a) : null;
    if (inner) { a = inner; continue; }
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
  // Stages whose standard output goes to a file (`> out.log`, `&>/dev/null`): they print nothing.
  const toFile = new Set<string[]>();
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
      case '>': case '>>': case '&>':
        hasRedirect = true;
        skipNextWord = true;
        toFile.add(cur);
        break;
      case '<': case '2>':
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

  // `cd dir && …` and bare assignments are set-up; `rm -rf x` prints nothing; `make clean
  // >/dev/null` prints nothing to the stream: none of them is a producer.
  const programOfSegment = (s: string[][]) => basename(peelWrappers(s[0])[0] ?? '');
  const notSetUp = nonEmpty.filter((s) => !SET_UP.has(programOfSegment(s)));
  const printing = notSetUp.filter((s) => !QUIET.has(programOfSegment(s)) && !toFile.has(s[s.length - 1]));
  const main = printing[0] ?? notSetUp[0] ?? nonEmpty[0] ?? [[]];
  const argv = peelWrappers(main[0] ?? []);
  const program = basename(argv[0] ?? '');
  const tail = main.length > 1 ? main[main.length - 1] : null;
  const producers = printing.map((s) => {
    const argv = peelWrappers(s[0]);
    return { argv, tail: s.length > 1 ? s[s.length - 1] : null, container: argv.length !== peelWrappers(s[0], false).length || argv[0] !== peelWrappers(s[0], false)[0] };
  });
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
    producers,
    interactive: INTERACTIVE.has(program) && argv.length <= 1 ||
      ['vim', 'vi', 'nvim', 'nano', 'emacs', 'less', 'more', 'top', 'htop', 'man', 'ssh', 'tmux', 'screen', 'watch', 'fzf', 'sudo', 'su', 'passwd'].includes(program) ||
      (program === 'git' && argv.includes('-i')) || argv.includes('--watch') || argv.includes('--interactive'),
  };
}

/** How many segments of the line print to the stream (`CommandAnalysis.producers`). */
export function producerCount(a: CommandAnalysis): number {
  return a.producers.length;
}
