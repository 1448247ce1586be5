import { hiding, type Family } from './hide.js';

/**
 * The generic distiller: ANSI colour is already stripped by classify (render prints the
 * plain text); here blank-line runs are squeezed and runs of near-identical noise lines
 * fold to first line, marker, last line. It recognises nothing tool-specific (no `see`),
 * so on output with no noise it changes nothing.
 */
export const GENERIC_FAMILY: Family = { name: 'generic', recogniser: () => ({ others: 'fold' }) };

export const generic = hiding(GENERIC_FAMILY);
