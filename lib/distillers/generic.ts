import type { DistillerSpec } from '../kit/spec.js';

/**
 * The generic distiller, for what no spec owns: ANSI colour is already stripped by classify
 * (render prints the plain text); here blank-line runs are squeezed and runs of lines that share
 * one template (the output's own structure: the same words, only numbers and ids differing) fold
 * to first line, a marker quoting one of them, last line. A line holding a word of a failure or
 * a warning, a diagnostic's `file:line`, a table's row or nothing but values never folds. It
 * recognises nothing tool-specific (no `see`), so output with no such runs comes back as it
 * was. It owns no command: the registry falls back to it.
 */
export default {
  name: 'generic',
  family: 'generic',
  lines: () => ({ others: 'fold' }),
  examples: [
    // corpus/cases/1041-valgrind-recursive-leak, lines 14-40
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
