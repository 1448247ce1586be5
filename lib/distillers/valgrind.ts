import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import type { Hit, Recogniser } from './runner.js';
import { basename } from '../command/parse.js';
import { prefixOf } from '../kit/prefix.js';
import { leadTest } from '../base/lead.js';

/*
 * valgrind: its own lines carry the process id (`==12345== `, lib/kit/prefix.ts); the program
 * it runs prints its lines bare, among them. What is noise is only valgrind's own boilerplate,
 * the same on every run: the banner each process starts with (the tool's one-line description,
 * the copyright line, `Using Valgrind-3.19.0 and LibVEX; …`) and the hint `For lists of detected
 * and suppressed errors, rerun with: -s`. The `Command: …` line of the banner is noise only when
 * it says what the agent typed (the program and its arguments after valgrind's options): under
 * --trace-children it names which child a process id is, or a glob's expansion, and stays. The
 * bare `==PID== ` separators go with the run they stand in (a blank line of valgrind's).
 *
 * Everything else stays: each error's headline (`Invalid read of size 4`, `Mismatched free()
 * …`, `N bytes in M blocks are definitely lost …`), its `at 0x…`/`by 0x…` frames and `Address
 * 0x… is …` lines, HEAP SUMMARY, LEAK SUMMARY, ERROR SUMMARY, `All heap blocks were freed`,
 * and every hint that says how to learn more (`Use --track-origins=yes …`, `Rerun with
 * --leak-check=full …`). The program's own lines are read by the spec that owns the program
 * (`runs`: `valgrind python3 -m pytest -v` folds pytest's passing tests), else as generic output.
 */
const BANNER: Hit = { noun: 'valgrind banner lines', one: 'valgrind banner line' };
const HINT: Hit = { noun: 'valgrind rerun hints', one: 'valgrind rerun hint' };

/** A process's first line: its tool, described (`Memcheck, a memory error detector`, `Helgrind, a thread error detector`). */
const TOOL = /^[A-Z][\w-]*, an? [a-z][\w -]*[a-z]$/;
/**
 * The descriptions that say `error`, which classify's lists read as a failure: valgrind's own
 * banner line, a signal whenever this spec owns the run (so `see` may fold it). Only these exact
 * lines: any other line with `error` in it, the program's too, is a failure as ever. Read with or
 * without the `==PID== ` it stands behind: classify reads the text after the prefix, a reader
 * that knows no prefixes the whole line, and both must agree it is no failure.
 */
const ERROR_DETECTOR = /^(==\d+== )?(Memcheck, a memory|Helgrind, a thread|DRD, a thread) error detector$/;
const COPYRIGHT = /^Copyright \(C\) \d{4}(-\d{4})?, and GNU GPL'd, by .+$/;
/** Printed at the start of every run of valgrind, and by no other tool: it names the output (`detect`). */
const USING = /^Using Valgrind-[\w.-]+ and LibVEX; rerun with -h for copyright info$/;
const COMMAND = /^Command: (.+)$/;
const RERUN = /^For (lists|counts) of detected and suppressed errors, rerun with: -[sv]$/;
/** valgrind's own prefix (`==12345== `), not its verbose `--12345-- ` or a crash's `**12345** `. */
const OWN = /^==\d+== ?$/;

/**
 * The command valgrind runs, as the agent typed it: the words after valgrind's own options
 * (all `-x` or `--x=y`: none takes the next word), as the banner's `Command:` line prints them.
 * Null without one (`valgrind --version`) or without a command line.
 */
export function programOf(argv: readonly string[]): string | null {
  return programArgv(argv)?.join(' ') ?? null;
}

/** The program valgrind runs and its arguments (`runs`: the spec that owns it reads its lines). */
export function programArgv(argv: readonly string[]): string[] | null {
  if (basename(argv[0] ?? '') !== 'valgrind') return null;
  let k = 1;
  while (k < argv.length && argv[k].startsWith('-')) k++;
  return k < argv.length ? argv.slice(k) : null;
}

/** What one run of valgrind's output recognises: its banner and its rerun hint, on its own lines only. */
export function valgrindLines(route: ProducerRoute): Recogniser {
  const typed = programOf(route.argv);
  // Process ids whose first line was seen: the tool's description is the first line of one.
  const started = new Set<string>();
  return {
    see: (l, p) => {
      const prefix = prefixOf(l);
      if (!OWN.test(prefix)) return null;
      const first = !started.has(prefix);
      if (first) started.add(prefix);
      if (first && TOOL.test(p)) return BANNER;
      if (COPYRIGHT.test(p) || USING.test(p)) return BANNER;
      const c = COMMAND.exec(p);
      if (c) return typed !== null && c[1] === typed ? BANNER : null;
      return RERUN.test(p) ? HINT : null;
    },
  };
}

export default {
  name: 'valgrind',
  family: 'test',
  matches: (argv) => basename(argv[0] ?? '') === 'valgrind',
  runs: programArgv,
  detect: leadTest(USING),
  lines: valgrindLines,
  signals: [ERROR_DETECTOR],
  examples: [
    // corpus/cases/1185-valgrind-clean-wordfreq
    {
      command: 'valgrind ./wordfreq input.txt',
      input: `==25732== Memcheck, a memory error detector
==25732== Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.
==25732== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info
==25732== Command: ./wordfreq input.txt
==25732== 
a          3
fox        4
and        2
the        7
dog        4
5 repeated words
==25732== 
==25732== HEAP SUMMARY:
==25732==     in use at exit: 0 bytes in 0 blocks
==25732==   total heap usage: 45 allocs, 45 frees, 9,266 bytes allocated
==25732== 
==25732== All heap blocks were freed -- no leaks are possible
==25732== 
==25732== For lists of detected and suppressed errors, rerun with: -s
==25732== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)
`,
      output: `[omni: 4 valgrind banner lines folded — omni retrieve <handle>]
==25732== 
a          3
fox        4
and        2
the        7
dog        4
5 repeated words
==25732== 
==25732== HEAP SUMMARY:
==25732==     in use at exit: 0 bytes in 0 blocks
==25732==   total heap usage: 45 allocs, 45 frees, 9,266 bytes allocated
==25732== 
==25732== All heap blocks were freed -- no leaks are possible
==25732== 
==25732== For lists of detected and suppressed errors, rerun with: -s
==25732== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)
`,
    },
    // corpus/cases/1041-valgrind-recursive-leak, lines 14-40: repeated frames fold as generic output
    {
      command: 'valgrind --leak-check=full --show-leak-kinds=all --num-callers=30 ./tree',
      input: `==24270== 
==24270== 16 bytes in 1 blocks are indirectly lost in loss record 1 of 59
==24270==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==24270==    by 0x10919E: build (tree.c:9)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x109229: main (tree.c:19)
==24270== 
==24270== 17 bytes in 1 blocks are indirectly lost in loss record 2 of 59
==24270==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==24270==    by 0x10919E: build (tree.c:9)
==24270==    by 0x109229: main (tree.c:19)
==24270== 
==24270== 17 bytes in 1 blocks are indirectly lost in loss record 3 of 59
`,
      output: `==24270== 
==24270== 16 bytes in 1 blocks are indirectly lost in loss record 1 of 59
==24270==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==24270==    by 0x10919E: build (tree.c:9)
[omni: 14 lines like "==24270==    by 0x1091C4: build (tree.c:10)" folded — omni retrieve <handle>]
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x109229: main (tree.c:19)
==24270== 
==24270== 17 bytes in 1 blocks are indirectly lost in loss record 2 of 59
==24270==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==24270==    by 0x10919E: build (tree.c:9)
==24270==    by 0x109229: main (tree.c:19)
==24270== 
==24270== 17 bytes in 1 blocks are indirectly lost in loss record 3 of 59
`,
    },
  ],
} satisfies DistillerSpec;
