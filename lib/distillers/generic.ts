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
    // corpus/cases/1044-wget-dot-progress, lines 7-17: wget's dot progress, no spec's
    {
      command: 'wget -O /dev/null --limit-rate=4m http://127.0.0.1:18090/dl/release.tar.gz',
      input: `     0K .......... .......... .......... .......... ..........  0%  790M 0s
    50K .......... .......... .......... .......... ..........  1%  891M 0s
   100K .......... .......... .......... .......... ..........  1%  453M 0s
   150K .......... .......... .......... .......... ..........  2%  960M 0s
   200K .......... .......... .......... .......... ..........  3%  810M 0s
   250K .......... .......... .......... .......... ..........  3%  825M 0s
   300K .......... .......... .......... .......... ..........  4%  565M 0s
   350K .......... .......... .......... .......... ..........  5%  574M 0s
   400K .......... .......... .......... .......... ..........  5%  900M 0s
   450K .......... .......... .......... .......... ..........  6%  570M 0s
   500K .......... .......... .......... .......... ..........  7%  962M 0s
`,
      output: `     0K .......... .......... .......... .......... ..........  0%  790M 0s
[omni: 9 lines like "    50K .......... .......... .......... .......... ..........  1%  891M 0s" folded — omni retrieve <handle>]
   500K .......... .......... .......... .......... ..........  7%  962M 0s
`,
    },
  ],
} satisfies DistillerSpec;
