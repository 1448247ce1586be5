import type { DistillerSpec } from '../kit/spec.js';

/**
 * The generic distiller, for what no spec owns: ANSI colour is already stripped by classify
 * (render prints the plain text); here blank-line runs are squeezed and runs of near-identical
 * noise lines fold to first line, marker, last line. It recognises nothing tool-specific (no
 * `see`), so on output with no noise it changes nothing. It owns no command: the registry
 * falls back to it.
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
==24270==    by 0x1091C4: build (tree.c:10)
==24270==    by 0x1091C4: build (tree.c:10)
[omni: 12 similar lines folded — omni retrieve <handle>]
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
