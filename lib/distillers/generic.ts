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
  examples: [],
} satisfies DistillerSpec;
